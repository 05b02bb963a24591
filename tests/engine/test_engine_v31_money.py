"""SPEC 7.6 (packages: paid or new) and 7.7 (budgets in money and for the deadline), engine 3.1:
each test names the case 2.2 got wrong and the number it must give now, worked by hand.

The task (engine_fixtures.task) runs at home and moves nothing: 8 GPUs on 8-GPU machines, so
every option bills one whole machine; it is resumable with a 1 h checkpoint interval. The
package is 720 h a machine at 57,600 with an expected utilisation of 0.8, so its pro-rated price
is 57,600 ÷ (720 × 8 × 0.8) = 57,600 ÷ 4,608 = 12.5 a GPU-hour.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    bill_row,
    engine_inputs,
    findings_of,
    make_input,
    multi,
    offer,
    option_of,
    parse_errors,
    rules,
    single,
    task,
)

PACKAGE = {
    "billing_basis": "contract",
    "price": 57600,
    "contract_hours": 720,
    "expected_utilization": 0.8,
}
PROPERTIES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class TestPackages:
    """SPEC 7.6 and 7.10."""

    def test_a_one_off_job_pays_the_whole_package_so_it_rents_on_demand(self):
        """2.2 billed a one-off 16 h job a pro-rated share of the 720 h package: 8 GPUs × 16 h
        × 12.5 = 1,600, under on-demand's 8 × 16 × 20 = 2,560, so it chose the package. It pays
        the package whole: 57,600 × 1 machine = 57,600, a true unit price of 57,600 ÷ (8 × 16)
        = 450 a GPU-hour; on demand is chosen (seed A: a one-off job rents on demand)."""
        out = evaluate(
            make_input(
                task(compute_hours=16),
                offers=[offer("pkg", **PACKAGE), offer("od", price=20)],
            )
        )
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 57600.0
        assert pkg["effective_price"] == 450.0
        assert bill_row(out, "pkg")["unit_price"] == 450.0
        assert option_of(out, "od")["compute_cost"] == 2560.0
        assert out["chosen"]["offer"] == "od"
        [t] = [f for f in findings_of(out, "T") if f["key"] == "T"]
        assert t["data"]["offer"] == "od" and t["data"]["total"] == 2560.0
        # The unit-price order (20 < 450) and the total order agree: J3 stays silent.
        assert "J3" not in rules(out)

    def test_a_recurring_job_keeps_the_pro_rated_share(self):
        """Recurring: section 3's pro-rating stands, 8 × 16 × 12.5 = 1,600 at 12.5 a GPU-hour."""
        out = evaluate(
            make_input(
                task(compute_hours=16, cadence="recurring"), offers=[offer("pkg", **PACKAGE)]
            )
        )
        pkg = option_of(out, "pkg")
        assert (pkg["compute_cost"], pkg["effective_price"]) == (1600.0, 12.5)

    def test_a_paid_package_costs_nothing_while_the_run_fits_it(self):
        """2.2 priced a package already paid as if it were new: 8 × 16 × 12.5 = 1,600. Paid, it
        holds 720 h × 8 GPUs × 1 machine (max_machines null: the machines used) = 5,760
        GPU-hours; the run's 8 × 16 = 128 fit, so compute costs 0, the unit price is 0 and the
        rerun hours are package hours: failures 1e-4 × 8 × 16 = 0.0128 × 0.5 h = 0.0064 h at a
        burn of 0 → rerun cost 0. T.paid says it costs only what it displaces (128 GPU-hours)."""
        out = evaluate(
            make_input(
                task(compute_hours=16, cadence="recurring"),
                offers=[offer("pkg", contract_paid=True, **PACKAGE), offer("od", price=20)],
                thresholds={"failure_rate_per_gpu_hour": 1e-4},
            )
        )
        pkg = option_of(out, "pkg")
        assert (pkg["compute_cost"], pkg["effective_price"], pkg["rerun_cost"]) == (0.0, 0.0, 0.0)
        assert pkg["total_cost"] == 0.0
        assert out["chosen"]["offer"] == "pkg"
        [paid] = [f for f in findings_of(out, "T") if f["key"] == "T.paid"]
        assert paid["severity"] == "info"
        assert paid["data"] == {"offer": "pkg", "paid_gpu_hours": 128.0}
        assert "already paid" in paid["message"] and "已付费" in paid["message_zh"]

    def test_hours_beyond_a_paid_package_are_billed_at_the_pro_rated_price(self):
        """800 h on 8 GPUs = 6,400 GPU-hours; the paid package holds 5,760, so 640 are billed at
        12.5 = 8,000; unit price 8,000 ÷ 6,400 = 1.25. Beyond the package its rerun hours cost
        money: 1e-4 × 8 × 800 = 0.64 failures × 0.5 h = 0.32 h × 8 GPUs × 12.5 = 32."""
        out = evaluate(
            make_input(
                task(compute_hours=800, cadence="recurring"),
                offers=[offer("pkg", contract_paid=True, **PACKAGE)],
                thresholds={"failure_rate_per_gpu_hour": 1e-4},
            )
        )
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 8000.0
        assert pkg["effective_price"] == 1.25
        assert pkg["rerun_cost"] == pytest.approx(32.0, abs=1e-6)
        [paid] = [f for f in findings_of(out, "T") if f["key"] == "T.paid"]
        assert paid["data"]["paid_gpu_hours"] == 5760.0

    def test_a_paid_pool_holds_max_machines_of_package(self):
        """max_machines 2: the paid package holds 720 × 8 × 2 = 11,520 GPU-hours, so 800 h on
        one machine (6,400) fits whole: compute 0."""
        out = evaluate(
            make_input(
                task(compute_hours=800),
                offers=[offer("pkg", contract_paid=True, max_machines=2, **PACKAGE)],
            )
        )
        assert option_of(out, "pkg")["compute_cost"] == 0.0

    def test_a_one_off_run_beyond_its_new_package_pays_the_rest_pro_rated(self):
        """One-off, 800 h: the package 57,600 holds 5,760 GPU-hours; 640 more at 12.5 = 8,000;
        compute 57,600 + 8,000 = 65,600."""
        out = evaluate(make_input(task(compute_hours=800), offers=[offer("pkg", **PACKAGE)]))
        assert option_of(out, "pkg")["compute_cost"] == 65600.0

    def test_contract_paid_on_another_basis_is_refused_naming_the_field(self):
        errors = parse_errors(make_input(task(), offers=[offer("a", contract_paid=True)]))
        assert [e["field"] for e in errors] == ["offers[0].contract_paid"]
        assert "contract" in errors[0]["message"]

    @pytest.mark.parametrize("value", ["yes", 1, [True]])
    def test_contract_paid_must_be_a_boolean(self, value):
        errors = parse_errors(
            make_input(task(), offers=[offer("a", contract_paid=value, **PACKAGE)])
        )
        assert [e["field"] for e in errors] == ["offers[0].contract_paid"]


def _two_pools(**task_overrides: Any) -> dict[str, Any]:
    """8 GPUs × 40 h = 320 GPU-hours of work, a compute budget of 10 h. `a-pool` (max one
    machine) can never meet it; `b-big` boots an hour later, so at waiting worth 1 an hour its
    objective is 640 + 51 = 691 against a-pool's 640 + 50 = 690: a-pool is chosen."""
    t = task(
        compute_hours=40,
        delay_cost_per_hour=1,
        latency_budget_hours={"compute": 10},
        **task_overrides,
    )
    offers = [offer("a-pool", max_machines=1), offer("b-big", boot_hours=1)]
    return make_input(t, offers=offers)


class TestDeadlinePlans:
    """SPEC 7.7 and 7.10: what meeting the compute budget costs."""

    def test_a_missed_deadline_says_what_meeting_it_costs_elsewhere(self):
        """2.2 chose a-pool, which can never meet the 10 h budget, and said only that compute
        was over it. b-big meets it with 320 ÷ 10 = 32 GPUs at perfect scaling; beyond one
        machine each GPU counts at 0.8 (multi_machine_efficiency), so ⌈32 ÷ 0.8⌉ = 40 GPUs,
        5 whole machines, 320 ÷ (40 × 0.8 × 1) = 10 h, 40 × 10 × 2.0 = 800; a-pool costs
        8 × 40 × 2.0 = 640, so meeting the deadline costs 800 − 640 = +160, +25 %."""
        out = evaluate(_two_pools())
        assert out["chosen"]["offer"] == "a-pool"
        [plan] = out["deadline_plans"]
        assert plan == {
            "offer": "b-big",
            "reason": None,
            "gpus": 40,
            "billed_gpus": 40,
            "compute_hours": 10.0,
            "compute_cost": 800.0,
            "scheduling_cost": 0.0,
            "rerun_cost": 0.0,
            "total_cost": 800.0,
            "extra_cost": 160.0,
            "efficiency": 0.8,
            "efficiency_source": "threshold",
            "extrapolated": True,  # five machines, nothing measured
        }
        assert plan["extra_cost"] / option_of(out, "a-pool")["total_cost"] == 0.25
        [m3] = findings_of(out, "M3")
        assert m3["key"] == "M3.deadline"
        assert "Meet the compute budget on b-big with 40 GPUs: +160." in m3["message"]
        assert "在 b-big 上用 40 张卡,多花 160" in m3["message_zh"]

    def test_the_scheduling_fee_and_rerun_cost_are_worked_out_again_at_the_plans_gpus(self):
        """b-big with a 10 % fee and a fleet rate of 1e-4 failures a GPU-hour: at 40 GPUs ×
        10 h, compute 800, fee 80, failures 1e-4 × 40 × 10 = 0.04 × 0.5 h = 0.02 h × 40 × 2.0 =
        1.6; total 881.6. (The option at 8 GPUs: fee 8 × 40 × 2 × 10 % = 64, rerun 1e-4 × 8 ×
        40 × 0.5 × 16 = 0.256.)"""
        data = _two_pools()
        data["offers"][1]["scheduling_fee_pct"] = 10
        data["thresholds"] = {"failure_rate_per_gpu_hour": 1e-4}
        out = evaluate(data)
        [plan] = out["deadline_plans"]
        assert plan["scheduling_cost"] == 80.0
        assert plan["rerun_cost"] == pytest.approx(1.6, abs=1e-6)
        assert plan["total_cost"] == pytest.approx(881.6, abs=1e-6)
        big = option_of(out, "b-big")
        assert big["scheduling_cost"] == 64.0
        assert big["rerun_cost"] == pytest.approx(0.256, abs=1e-6)

    def test_a_preemptible_offer_gets_no_plan_and_says_why(self):
        data = _two_pools()
        data["offers"].append(offer("c-spot", price=3, preemptible=True, preemptions_per_day=0))
        out = evaluate(data)
        spot = next(p for p in out["deadline_plans"] if p["offer"] == "c-spot")
        assert spot["reason"] == "preemptible" and spot["gpus"] is None

    def test_a_plan_within_the_measured_run_is_not_extrapolated(self):
        """A pair on b-big: 10 h on one machine, 3.125 h on 4 (32 GPUs): speedup 10 ÷ 3.125 =
        3.2, efficiency 3.2 ÷ 4 = 0.8, measured. At a budget of 12.5 h: 320 ÷ 12.5 = 25.6 GPUs,
        ⌈25.6 ÷ 0.8⌉ = 32 ≤ the 32 measured → not extrapolated; 320 ÷ (32 × 0.8) = 12.5 h. At
        10 h the plan needs 40 > 32 → extrapolated."""
        bench = [single(10, "b-big"), multi(3.125, "b-big", nodes=4)]
        data = _two_pools()
        data["task"]["latency_budget_hours"] = {"compute": 12.5}
        data["benchmarks"] = bench
        [plan] = evaluate(data)["deadline_plans"]
        assert (plan["gpus"], plan["compute_hours"]) == (32, 12.5)
        assert (plan["efficiency_source"], plan["extrapolated"]) == ("measured", False)
        data["task"]["latency_budget_hours"] = {"compute": 10}
        [plan] = evaluate(data)["deadline_plans"]
        assert (plan["gpus"], plan["extrapolated"]) == (40, True)

    def test_no_plan_without_a_compute_budget_or_when_it_is_met(self):
        data = _two_pools()
        data["task"]["latency_budget_hours"] = {"compute": 40}
        assert evaluate(data)["deadline_plans"] == []
        data["task"]["latency_budget_hours"] = None
        assert evaluate(data)["deadline_plans"] == []


class TestCostBudget:
    """SPEC 7.7: cost_budget, within_cost_budget, P4 and P1."""

    def _fast_and_slow(self, budget: float) -> dict[str, Any]:
        """fast: 4.0 a GPU-hour at twice the speed, 8 × 20 h × 4 = 640, objective 640 + 10 ×
        (10 queue + 20) = 940; slow: 1.5, 8 × 40 × 1.5 = 480, objective 480 + 10 × 50 = 980."""
        t = task(compute_hours=40, delay_cost_per_hour=10, cost_budget=budget)
        offers = [offer("fast", price=4, relative_speed=2), offer("slow", price=1.5)]
        return make_input(t, offers=offers)

    def test_P4_names_the_option_within_the_money_budget_and_its_extra_hours(self):
        """2.2 had no money budget: fast (640) was chosen with nothing said against a budget of
        500 a run. Now P4: slow is within it (480 ≤ 500), at 50 − 30 = 20 h more."""
        out = evaluate(self._fast_and_slow(500))
        assert out["chosen"]["offer"] == "fast"
        fast, slow = option_of(out, "fast"), option_of(out, "slow")
        assert (fast["within_cost_budget"], slow["within_cost_budget"]) == (False, True)
        [p4] = findings_of(out, "P4")
        assert (p4["key"], p4["severity"]) == ("P4", "warn")
        assert p4["data"]["offer"] == "slow"
        assert p4["data"]["alternative_cost"] == 480.0
        assert p4["data"]["extra_hours"] == 20.0
        assert "over the cost budget of 500" in p4["message"]
        assert "P1" not in rules(out)  # slow meets every budget

    def test_P4_none_and_P1_when_nothing_is_within_it(self):
        out = evaluate(self._fast_and_slow(400))
        [p4] = findings_of(out, "P4")
        assert p4["key"] == "P4.none"
        [p1] = findings_of(out, "P1")
        assert p1["key"] == "P1.cost"
        assert "cost budget of 400" in p1["message"]

    def test_without_a_cost_budget_within_cost_budget_is_null(self):
        out = evaluate(make_input(task(), offers=[offer("a")]))
        assert out["options"][0]["within_cost_budget"] is None
        assert "P4" not in rules(out)

    @pytest.mark.parametrize("value", [-1, "500", True, math.inf])
    def test_a_bad_cost_budget_is_refused_naming_the_field(self, value):
        data = make_input(task(cost_budget=value), offers=[offer("a")])
        if value == math.inf:
            data["task"]["cost_budget"] = 1e300
        errors = parse_errors(data)
        assert [e["field"] for e in errors] == ["task.cost_budget"]


# ---------------------------------------------------------------------------------------------
# Properties


def _contract_ids(data: dict[str, Any]) -> list[int]:
    return [i for i, o in enumerate(data["offers"]) if o["billing_basis"] == "contract"]


@PROPERTIES
@given(engine_inputs())
def test_marking_a_package_paid_never_raises_an_options_cost(data):
    """SPEC 7.6: a paid package is sunk; what it covers costs nothing, the rest is pro-rated."""
    contracts = _contract_ids(data)
    assume(contracts)
    for i in contracts:
        data["offers"][i]["contract_paid"] = False
    new = evaluate(data)
    for i in contracts:
        data["offers"][i]["contract_paid"] = True
    paid = evaluate(data)
    for before, after in zip(new["options"], paid["options"], strict=True):
        assert before["offer"] == after["offer"]
        if before["total_cost"] is not None and after["total_cost"] is not None:
            assert after["total_cost"] <= before["total_cost"] + 1e-6 * max(
                1.0, before["total_cost"]
            )
        assert after["compute_cost"] <= before["compute_cost"] + 1e-6 * max(
            1.0, before["compute_cost"]
        )


@PROPERTIES
@given(engine_inputs(), st.floats(min_value=0.01, max_value=200))
def test_a_deadline_plan_always_meets_the_compute_budget_it_was_made_for(data, budget):
    """SPEC 7.7: the plan's compute hours at gpus_for_budget are within the compute budget."""
    data["task"]["latency_budget_hours"] = {"compute": budget}
    out = evaluate(data)
    for plan in out["deadline_plans"]:
        if plan["reason"] is not None:
            continue
        assert plan["compute_hours"] <= budget * (1 + 1e-9) + 1e-6
        row = next(s for s in out["sizing"]["offers"] if s["offer"] == plan["offer"])
        assert plan["gpus"] == row["gpus_for_budget"]
        assert plan["billed_gpus"] >= plan["gpus"]


def test_M3_names_both_the_alternative_and_the_cheapest_deadline_plan():
    """c-fast is four times as fast at 10 a GPU-hour: 40 ÷ 4 = 10 h within the budget, 8 × 10 ×
    10 = 800, objective 800 + 10 queue + 10 h = 820 against a-pool's 690, so a-pool stays
    chosen; M3.alternative names c-fast (+800 − 640 = +160) and the plan on b-big (+160)."""
    data = _two_pools()
    data["offers"].append(offer("c-fast", price=10, relative_speed=4))
    out = evaluate(data)
    assert out["chosen"]["offer"] == "a-pool"
    [m3] = findings_of(out, "M3")
    assert m3["key"] == "M3.alternative.deadline"
    assert (m3["data"]["offer"], m3["data"]["extra_cost"]) == ("c-fast", 160.0)
    assert (m3["data"]["plan_offer"], m3["data"]["plan_gpus"]) == ("b-big", 40)
    assert m3["message"].endswith("Meet the compute budget on b-big with 40 GPUs: +160.")
    assert "在 b-big 上用 40 张卡,多花 160" in m3["message_zh"]


def test_M3s_alternative_meets_the_cost_budget_too():
    """With c-fast (800) the only option within the 10 h budget, a cost budget of 700 leaves no
    option that meets every budget: M3 names no alternative, only the deadline plan on b-big
    (800, +160 against a-pool's 640, itself within 700)."""
    data = _two_pools(cost_budget=700)
    data["offers"].append(offer("c-fast", price=10, relative_speed=4))
    out = evaluate(data)
    assert option_of(out, "c-fast")["within_cost_budget"] is False
    [m3] = findings_of(out, "M3")
    assert m3["key"] == "M3.deadline" and m3["data"]["plan_extra_cost"] == 160.0
    assert "P1" in rules(out)  # nothing meets the time and the cost budgets together
