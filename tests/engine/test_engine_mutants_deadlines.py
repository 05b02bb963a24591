"""SPEC 7.7 and 7.10 (engine 3.1): budgets in money (P4) and what meeting the compute budget
costs (deadline_plans[], M3), at the inputs that tell a correct engine from a near miss: a plan
within one machine, on two, at exactly the GPUs one replica needs, on a fabric proven by a
measured run, with records that price failures, a package's plan, an offer listed before another
that meets the budget, is preemptible or is refused its fabric. Every figure is worked by hand.

The base world (engine_fixtures.task): an inference task at home on 80 GB GPUs, 8-GPU machines,
2.0 a GPU-hour, resumable with a 1 h checkpoint interval (0.5 h lost a failure), no delay cost
unless stated; multi_machine_efficiency 0.8 counts every GPU beyond one machine.
"""

from __future__ import annotations

from typing import Any

from engine import evaluate
from engine.deadlines import DeadlinePlan, cheapest_plan

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    big_sharded_training,
    findings_of,
    make_input,
    multi,
    offer,
    option_of,
    rules,
    single,
    sizing_row,
    staged_input,
    task,
)

PACKAGE = {
    "billing_basis": "contract",
    "price": 57600,
    "contract_hours": 720,
    "expected_utilization": 0.8,
}


def _budget(**overrides: Any) -> dict[str, Any]:
    """8 GPUs × 40 h = 320 GPU-hours of work against a compute budget of 10 h: at perfect
    scaling 320 ÷ 10 = 32 GPUs, more than one machine, so each GPU counts at 0.8 and
    ⌈32 ÷ 0.8⌉ = 40 GPUs (5 machines) run it in 320 ÷ (40 × 0.8) = 10 h."""
    return task(compute_hours=40, latency_budget_hours={"compute": 10}, **overrides)


def _plan_of(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(p for p in out["deadline_plans"] if p["offer"] == offer_id)


class TestThePlansArithmetic:
    """SPEC 7.7: compute_hours = work ÷ (g × e × relative_speed), e = 1 within one machine."""

    def test_a_plan_within_one_machine_counts_every_gpu_whole(self):
        """2 GPUs × 40 h = 80 GPU-hours of work on an offer twice as fast: 40 ÷ 2 = 20 h > the
        10 h budget. At perfect scaling 80 ÷ (10 × 2) = 4 GPUs, half of one 8-GPU machine: e =
        1 (not 0.8), 80 ÷ (4 × 1 × 2) = 10 h, 4 × 10 × 2.0 = 80, the same as the option's 2 ×
        20 × 2.0 = 80 (perfect scaling costs nothing more): +0. One machine is never
        extrapolated (SPEC 7.10)."""
        data = make_input(
            task(gpus=2, compute_hours=40, latency_budget_hours={"compute": 10}),
            offers=[offer("quick", relative_speed=2)],
        )
        out = evaluate(data)
        assert option_of(out, "quick")["compute_hours"] == 20.0
        [plan] = out["deadline_plans"]
        assert (plan["gpus"], plan["billed_gpus"]) == (4, 4)
        assert plan["efficiency"] == 1.0
        assert plan["compute_hours"] == 10.0
        assert plan["compute_cost"] == 80.0
        assert plan["extra_cost"] == 0.0
        assert plan["extrapolated"] is False

    def test_a_plan_of_one_whole_machine_is_still_within_one_machine(self):
        """4 GPUs × 40 h = 160 GPU-hours against 20 h: 160 ÷ 20 = 8 GPUs, exactly one 8-GPU
        machine: e = 1, 160 ÷ 8 = 20 h, 8 × 20 × 2.0 = 320 (the option's 4 × 40 × 2.0 = 320:
        +0), not extrapolated."""
        data = make_input(
            task(gpus=4, compute_hours=40, latency_budget_hours={"compute": 20}),
            offers=[offer("b")],
        )
        [plan] = evaluate(data)["deadline_plans"]
        assert (plan["gpus"], plan["efficiency"], plan["compute_hours"]) == (8, 1.0, 20.0)
        assert (plan["compute_cost"], plan["extra_cost"]) == (320.0, 0.0)
        assert plan["extrapolated"] is False

    def test_a_plan_on_two_machines_counts_e_and_is_extrapolated(self):
        """8 GPUs × 15 h = 120 GPU-hours, budget 10 h: 12 GPUs at perfect scaling, beyond one
        machine, so ⌈12 ÷ 0.8⌉ = 15 GPUs on ⌈15 ÷ 8⌉ = 2 machines, 120 ÷ (15 × 0.8) = 10 h,
        15 × 10 × 2.0 = 300 (the option: 8 × 15 × 2.0 = 240, +60). Two machines and nothing
        measured (threshold): extrapolated."""
        out = evaluate(
            make_input(
                task(compute_hours=15, latency_budget_hours={"compute": 10}), offers=[offer("b")]
            )
        )
        [plan] = out["deadline_plans"]
        assert (plan["gpus"], plan["efficiency"], plan["efficiency_source"]) == (
            15,
            0.8,
            "threshold",
        )
        assert plan["compute_hours"] == approx(10.0)
        assert plan["compute_cost"] == approx(300.0)
        assert plan["extra_cost"] == approx(60.0)
        assert plan["extrapolated"] is True

    def test_the_plan_keeps_the_options_other_lines(self):
        """SPEC 7.7: the other lines are the option's. The staged world (engine_fixtures): F at
        far (1.0 a GPU-hour) ships the 200 GB processed version, 200 × 0.02 = 4 of transfer,
        after 2 h × 5 ÷ 1 round = 10 of preprocessing; its 20 migration hours at 10 an hour
        over one run (one-off) are 200. 8 GPUs × 10 h = 80 GPU-hours against a 5 h budget: 16
        GPUs at perfect scaling, ⌈16 ÷ 0.8⌉ = 20 GPUs, 80 ÷ (20 × 0.8) = 5 h, 20 × 5 × 1.0 =
        100. Total 100 + 4 + 10 + 200 = 314. D at data (3.0, nothing moved, no migration) is
        chosen at 8 × 10 × 3.0 = 240, so F's plan is +74; D's own plan 20 × 5 × 3.0 = 300,
        +60."""
        data = staged_input(latency_budget_hours={"compute": 5})
        data["offers"][0]["migration_effort_hours"] = 20
        data["thresholds"] = {"engineer_hour_cost": 10}
        out = evaluate(data)
        f = option_of(out, "F")
        assert (f["plan"], f["transfer_cost"], f["preprocess_cost"]) == ("staged", 4.0, 10.0)
        assert f["migration_cost"] == 200.0
        assert out["chosen"]["offer"] == "D"
        plan = _plan_of(out, "F")
        assert (plan["gpus"], plan["compute_hours"], plan["compute_cost"]) == (20, 5.0, 100.0)
        assert plan["total_cost"] == approx(100 + 4 + 10 + 200)
        assert plan["extra_cost"] == approx(314 - 240)
        assert _plan_of(out, "D")["total_cost"] == approx(300.0)

    def test_the_offers_own_failure_records_price_the_plans_reruns(self):
        """SPEC 7.2 at the plan's GPUs: a single run on b-big of 8 GPUs × 125 h = 1,000 GPU-hours
        (the evidence threshold) with 1 rerun gives 1 ÷ 1,000 = 1e-3 failures a GPU-hour (the
        team's rate is 0). At 40 GPUs × 10 h: 1e-3 × 40 × 10 = 0.4 failures × 0.5 h = 0.2 h ×
        40 GPUs × 2.0 = 16; total 800 + 16 = 816."""
        data = make_input(
            _budget(delay_cost_per_hour=1),
            offers=[offer("a-pool", max_machines=1), offer("b-big", boot_hours=1)],
            benchmarks=[single(125, "b-big", failure_reruns=1)],
        )
        out = evaluate(data)
        plan = _plan_of(out, "b-big")
        assert plan["gpus"] == 40
        assert plan["rerun_cost"] == approx(16.0)
        assert plan["total_cost"] == approx(816.0)


class TestWhichOffersGetAPlan:
    """SPEC 7.7 and 7.10: a plan per offer whose option misses the compute budget, none for an
    option refused for anything more GPUs do not mend, nor across an unproven fabric (7.4)."""

    def test_an_offer_that_meets_the_budget_does_not_end_the_list(self):
        """fast (four times as fast) runs 40 ÷ 4 = 10 h, exactly the budget: it meets it and
        gets no plan; slow, listed after it, misses it (40 h) and gets its plan, 40 GPUs ×
        10 h × 2.0 = 800, +640 against fast's 8 × 10 × 2.0 = 160."""
        out = evaluate(
            make_input(_budget(), offers=[offer("fast", relative_speed=4), offer("slow")])
        )
        assert out["chosen"]["offer"] == "fast"
        assert [p["offer"] for p in out["deadline_plans"]] == ["slow"]
        assert out["deadline_plans"][0]["extra_cost"] == 640.0

    def test_a_preemptible_offer_listed_first_does_not_end_the_list(self):
        out = evaluate(
            make_input(
                _budget(),
                offers=[
                    offer("a-spot", preemptible=True, preemptions_per_day=0),
                    offer("b-big"),
                ],
            )
        )
        assert [(p["offer"], p["reason"]) for p in out["deadline_plans"]] == [
            ("a-spot", "preemptible"),
            ("b-big", None),
        ]
        assert _plan_of(out, "b-big")["compute_cost"] == 800.0  # 40 × 10 × 2.0

    def test_a_tight_job_gets_no_plan_across_ethernet_but_the_next_offer_does(self):
        """A tight job: on a-eth (ethernet) the plan's 40 GPUs span 5 machines, which SPEC 7.4
        refuses, so no plan; b-ib (InfiniBand), listed after it, gets its 800."""
        out = evaluate(
            make_input(
                _budget(coupling="tight"),
                offers=[
                    offer("a-eth", interconnect="ethernet"),
                    offer("b-ib", interconnect="infiniband"),
                ],
            )
        )
        assert [p["offer"] for p in out["deadline_plans"]] == ["b-ib"]

    def test_a_measured_multi_run_proves_the_ethernet_fabric_for_the_plan(self):
        """SPEC 7.4: a multi run on eth of 5 nodes, 10 h against the single's 40 h on 8 GPUs:
        speedup 4 on 5 × the GPUs, efficiency 0.8 ≥ scaling_efficiency_min 0.7, so the fabric
        is proven up to 5 machines. The pair's efficiency 0.8 is measured: 32 ÷ 0.8 = 40 GPUs,
        5 machines, within the proof: a plan of 320 ÷ (40 × 0.8) = 10 h, 800, not extrapolated
        (40 GPUs = the multi run's 40)."""
        out = evaluate(
            make_input(
                _budget(coupling="tight"),
                offers=[offer("eth", interconnect="ethernet")],
                benchmarks=[single(40, "eth"), multi(10, "eth", nodes=5)],
            )
        )
        [plan] = out["deadline_plans"]
        assert (plan["offer"], plan["gpus"], plan["compute_cost"]) == ("eth", 40, 800.0)
        assert (plan["efficiency_source"], plan["extrapolated"]) == ("measured", False)

    def test_more_gpus_mend_too_few_gpus_from_exactly_the_gpus_one_replica_needs(self):
        """70B training needs 19 GPUs a replica (engine_fixtures.big_sharded_training); 8 are
        planned: too_few_gpus, nothing is feasible, nothing is chosen. 8 GPUs × 15 h = 120
        GPU-hours against 8 h: 15 GPUs at perfect scaling, ⌈15 ÷ 0.8 = 18.75⌉ = 19 GPUs, exactly
        the 19 one replica needs: the plan mends the option. 120 ÷ (19 × 0.8) h × 19 GPUs × 2.0
        = 120 ÷ 0.8 × 2.0 = 300. Nothing chosen: no extra cost to state."""
        data = make_input(
            big_sharded_training(gpus=8, compute_hours=15, latency_budget_hours={"compute": 8}),
            offers=[offer("big")],
        )
        out = evaluate(data)
        assert option_of(out, "big")["reasons"] == ["too_few_gpus"]
        assert out["chosen"] is None
        [plan] = out["deadline_plans"]
        assert plan["gpus"] == 19
        assert plan["compute_cost"] == approx(300.0)
        assert plan["extra_cost"] is None

    def test_a_plan_below_one_replica_mends_nothing(self):
        """8 GPUs × 10 h = 80 GPU-hours against 8 h: 10 GPUs at perfect scaling, ⌈10 ÷ 0.8⌉ =
        13 GPUs, fewer than the 19 one replica needs: still too_few_gpus, so no plan."""
        data = make_input(
            big_sharded_training(gpus=8, compute_hours=10, latency_budget_hours={"compute": 8}),
            offers=[offer("big")],
        )
        out = evaluate(data)
        assert sizing_row(out, "big")["gpus_for_budget"] == 13
        assert out["deadline_plans"] == []

    def test_more_gpus_do_not_mend_an_offer_refused_for_its_site(self):
        """offsite_allowed false keeps the task at home: far-b is refused as not_eligible,
        which no count of GPUs mends, so it gets no plan although 40 GPUs there would meet the
        budget; a-pool (one machine at most) cannot meet it at all."""
        data = make_input(
            _budget(offsite_allowed=False),
            offers=[offer("a-pool", max_machines=1), offer("far-b", "far")],
            checklists=answered("a-pool", "far-b"),
        )
        out = evaluate(data)
        far = option_of(out, "far-b")
        assert far["reasons"] == ["not_eligible"]
        assert far["transfer_cost"] is not None
        assert sizing_row(out, "far-b")["gpus_for_budget"] == 40
        assert out["deadline_plans"] == []


class TestPackagePlans:
    """SPEC 7.6 and 7.10 at the plan's GPUs: the package is 57,600 a machine for 720 h, its
    pro-rated price 57,600 ÷ (720 × 8 × 0.8) = 12.5 a GPU-hour."""

    def test_a_one_off_plan_on_a_new_package_pays_it_whole_and_its_reruns_nothing(self):
        """40 GPUs = 5 machines: 57,600 × 5 = 288,000 for 720 × 8 × 5 = 28,800 GPU-hours, of
        which the run uses 40 × 10 = 400. Reruns (1e-4 × 40 × 10 = 0.04 failures × 0.5 h =
        0.02 h) use package hours: burn 0, rerun cost 0 (not 0.02 × 40 × 720 at the run's
        unit price of 288,000 ÷ 400 = 720)."""
        out = evaluate(
            make_input(
                _budget(),
                offers=[offer("pkg", **PACKAGE)],
                thresholds={"failure_rate_per_gpu_hour": 1e-4},
            )
        )
        [plan] = out["deadline_plans"]
        assert (plan["gpus"], plan["billed_gpus"]) == (40, 40)
        assert plan["compute_cost"] == 288000.0
        assert plan["rerun_cost"] == 0.0
        assert plan["total_cost"] == 288000.0

    def test_a_paid_package_that_meets_the_deadline_for_nothing_is_the_cheapest_plan(self):
        """cheap (0.001 a GPU-hour) plans 40 × 10 × 0.001 = 0.4; the paid package holds the
        machines the plan uses, 720 × 8 × 5 = 28,800 GPU-hours, so its plan's 400 cost 0. M3
        names the paid package's plan (0 < 0.4), listed second."""
        out = evaluate(
            make_input(
                _budget(),
                offers=[offer("cheap", price=0.001), offer("pkg", contract_paid=True, **PACKAGE)],
            )
        )
        assert _plan_of(out, "cheap")["total_cost"] == approx(0.4)
        assert _plan_of(out, "pkg")["total_cost"] == 0.0
        [m3] = findings_of(out, "M3")
        assert (m3["data"]["plan_offer"], m3["data"]["plan_gpus"]) == ("pkg", 40)


def test_the_cheapest_plan_is_the_least_total_even_when_it_costs_nothing():
    """SPEC 7.7 M3: least total cost, ties in offer order; plans without a total are skipped."""
    plans = [
        DeadlinePlan("spot", "preemptible"),
        DeadlinePlan("a", total_cost=0.5),
        DeadlinePlan("b", total_cost=0.0),
        DeadlinePlan("c", total_cost=0.0),
    ]
    best = cheapest_plan(plans)
    assert best is not None and best.offer == "b"
    later = cheapest_plan([DeadlinePlan("a", total_cost=3.0), DeadlinePlan("b", total_cost=2.0)])
    assert later is not None and later.offer == "b"
    assert cheapest_plan(plans[:1]) is None


class TestCostBudget:
    """SPEC 7.7 P4 (warn): the chosen option's total_cost exceeds cost_budget."""

    def _offers(self) -> list[dict[str, Any]]:
        """8 GPUs × 40 h, waiting worth 10 an hour, nothing to ship (no image). fast: 4.0 at twice the speed, 8 × 20 × 4 =
        640, objective 640 + 10 × (10 queue + 20) = 940. slow-far: 1.5 at far (queue 0, 20 h
        to boot), 8 × 40 × 1.5 = 480, objective 480 + 10 × (20 + 40) = 1,080. slow-b: 1.6 at
        home, 8 × 40 × 1.6 = 512, objective 512 + 10 × (10 + 40) = 1,012."""
        return [
            offer("fast", price=4, relative_speed=2),
            offer("slow-far", "far", price=1.5, boot_hours=20),
            offer("slow-b", price=1.6),
        ]

    def _out(self, budget: float) -> dict[str, Any]:
        t = task(compute_hours=40, delay_cost_per_hour=10, cost_budget=budget, image_gb=0)
        return evaluate(make_input(t, offers=self._offers(), checklists=answered("slow-far")))

    def test_P4_names_the_least_objective_option_within_the_budget_not_the_cheapest(self):
        """Budget 600: fast (640) is chosen and over it. Within it: slow-far (480) and slow-b
        (512); the least objective is slow-b's 1,012 (slow-far's is 1,080): P4 names slow-b,
        waiting at home, 512, 50 − 30 = 20 h more."""
        out = self._out(600)
        assert option_of(out, "slow-far")["objective"] == approx(1080.0)
        assert option_of(out, "slow-b")["objective"] == approx(1012.0)
        assert out["chosen"]["offer"] == "fast"
        [p4] = findings_of(out, "P4")
        assert (p4["key"], p4["severity"]) == ("P4", "warn")
        assert p4["data"]["offer"] == "slow-b"
        assert (p4["data"]["kind"], p4["data"]["site"]) == ("wait_local", "home")
        assert p4["data"]["alternative_cost"] == 512.0
        assert p4["data"]["extra_hours"] == 20.0

    def test_no_P4_when_the_chosen_option_costs_exactly_the_budget(self):
        """fast costs 640: within a budget of 640."""
        out = self._out(640)
        assert option_of(out, "fast")["within_cost_budget"] is True
        assert "P4" not in rules(out)

    def test_P4_none_is_a_warning(self):
        """Budget 400: nothing is within it (480 is the least)."""
        [p4] = findings_of(self._out(400), "P4")
        assert (p4["key"], p4["severity"]) == ("P4.none", "warn")

    def test_no_P4_when_nothing_is_chosen(self):
        """Nothing feasible (too_few_gpus: 8 GPUs for a 19-GPU replica): P2 blocks; P4 speaks of
        the chosen option only, so it is silent even though 8 × 10 × 2.0 = 160 exceeds 100."""
        data = make_input(big_sharded_training(gpus=8, cost_budget=100), offers=[offer("big")])
        out = evaluate(data)
        assert out["chosen"] is None
        assert option_of(out, "big")["within_cost_budget"] is False
        assert "P2" in rules(out)
        assert "P4" not in rules(out)
