"""SPEC P, 6.4, 7.5, 7.6, 7.7, 7.11 and 6.1's input contract at the inputs that tell each rule's
boundary apart (issues 32 and 37: the live mutants of placement.py, site_plans.py, bill.py,
findings.py and world.py). Every expected figure is worked out by hand beside it."""

from __future__ import annotations

from typing import Any

from engine import evaluate, evaluate_input, parse_input

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    findings_of,
    make_input,
    offer,
    option_of,
    parse_errors,
    rules,
    single,
    staged_task,
    task,
)


class CostBudgetTests:
    """SPEC 7.7: within_cost_budget is total_cost ≤ cost_budget; P1 (warn) when no feasible
    option meets the time budgets and the cost budget together."""

    def test_a_total_exactly_at_the_budget_is_within_it(self):
        # 8 GPUs × 10 h × 2.0 = 160 = the budget
        out = evaluate(make_input(task(cost_budget=160)))
        assert option_of(out, "local")["within_cost_budget"] is True
        assert "P1" not in rules(out)

    def test_P1_warns_when_nothing_is_within_the_money(self):
        # 160 > 159.99
        out = evaluate(make_input(task(cost_budget=159.99)))
        assert option_of(out, "local")["within_cost_budget"] is False
        [p1] = findings_of(out, "P1")
        assert (p1["key"], p1["severity"]) == ("P1.cost", "warn")
        assert p1["data"] == {"options": 1, "cost_budget": 159.99}


def _staged_world(
    *,
    price: float = 1.0,
    link_price: float = 0.02,
    preprocess: float = 5.0,
    bench: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """staged_task (5,000 GB raw at data, 200 GB processed in 2 h) on F alone at far."""
    t = staged_task(preprocess_cost_per_hour=preprocess)
    links = [
        {"from": "data", "to": "home", "bandwidth_gbps": 10, "price_per_gb": 0.01},
        {"from": "data", "to": "far", "bandwidth_gbps": 20, "price_per_gb": link_price},
        {"from": "home", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
    ]
    return make_input(t, offers=[offer("F", "far", price=price)], links=links, benchmarks=bench,
                      checklists=answered("F"))  # fmt: skip


class StagedVariantTests:
    """SPEC 6.4: away from the data, the staged variant is kept when its objective is lower; the
    raw one on a tie, float noise (1e-9 of the objective, at least 1e-9) included."""

    def test_the_staged_variant_prices_the_offers_records_too(self):
        # F's record: 1 × 8 × 125 = 1,000 GPU-hours, 2 failures → 0.002 a GPU-hour (SPEC 7.2).
        # Staged: 80 compute + 200 GB × 0.02 = 4 + 2 h × 5 = 10 preprocessing < raw 80 + 100.
        # Rerun: 8 × 10 × 0.002 = 0.16 failures × 0.5 h (resumable) × burn 8 × 1.0 = 0.64;
        # total 80 + 4 + 10 + 0.64 = 94.64.
        out = evaluate(_staged_world(bench=[single(125, "F", failure_reruns=2)]))
        f = option_of(out, "F")
        assert f["plan"] == "staged"
        assert f["rerun_cost"] == approx(0.64)
        assert f["total_cost"] == approx(94.64)

    def test_a_staged_variant_cheaper_by_less_than_the_noise_keeps_the_raw_plan(self):
        # raw: 80 + 5,000 × 0.02 = 180. staged: 80 + 4 + 2 h × (48 − 5e-9) = 180 − 1e-8:
        # cheaper by 1e-8, within the noise 1e-9 × 180 = 1.8e-7: a tie, raw kept.
        out = evaluate(_staged_world(preprocess=48 - 5e-9))
        f = option_of(out, "F")
        assert (f["plan"], f["total_cost"]) == ("raw", approx(180.0))

    def test_a_staged_variant_cheaper_by_more_than_the_noise_is_kept(self):
        # An objective of 1: F at 0.01 a GPU-hour, the link at 0.00004 a GB:
        # raw 8 × 10 × 0.01 = 0.8 + 5,000 × 0.00004 = 0.2 → 1.0.
        # staged: 0.8 + 200 × 0.00004 = 0.008 + 2 h × (0.096 − 7.5e-10) = 1.0 − 1.5e-9:
        # cheaper by 1.5e-9, beyond the noise 1e-9 × max(1, 1.0) = 1e-9: staged kept.
        out = evaluate(_staged_world(price=0.01, link_price=0.00004, preprocess=0.096 - 7.5e-10))
        assert option_of(out, "F")["plan"] == "staged"
        # cheaper by exactly the noise (2 h × 5e-10 = 1e-9: staged 0.999999999, the bound
        # 1.0 − 1e-9 × 1, the same float) is still a tie: raw kept
        out = evaluate(_staged_world(price=0.01, link_price=0.00004, preprocess=0.096 - 5e-10))
        assert option_of(out, "F")["plan"] == "raw"
        # by half the noise it is a tie: raw kept
        out = evaluate(_staged_world(price=0.01, link_price=0.00004, preprocess=0.096 - 2.5e-10))
        assert option_of(out, "F")["plan"] == "raw"


class StreamedSegmentTests:
    """SPEC 7.5: a streamed input leg overlaps compute: the transfer segment is the other legs
    plus max(0, input-leg hours − compute hours)."""

    @staticmethod
    def _input(input_gb: float) -> dict[str, Any]:
        # Task at home, data at `data`, results home, the offer at far; links without buffer:
        # data → far 10 Gbps, home ↔ far 1 Gbps. 10 compute hours.
        t = task(data_site="data", input_gb=input_gb, image_gb=450, result_gb=900,
                 input_delivery="streamed")  # fmt: skip
        links = [
            {"from": "data", "to": "far", "bandwidth_gbps": 10, "price_per_gb": 0, "buffer": 0},
            {"from": "home", "to": "far", "bandwidth_gbps": 1, "price_per_gb": 0, "buffer": 0},
        ]
        return make_input(t, offers=[offer("X", "far")], links=links, checklists=answered("X"))

    def test_every_other_leg_counts_beside_an_input_leg_within_compute(self):
        # input 36,000 GB × 8 ÷ (10 × 3,600) = 8 h ≤ 10 h of compute: 0 beyond it; image
        # 450 × 8 ÷ 3,600 = 1 h; results 900 × 8 ÷ 3,600 = 2 h → transfer segment 3 h.
        x = option_of(evaluate(self._input(36000)), "X")
        assert (x["input_overlapped"], x["transfer_hours"]) == (True, approx(3.0))

    def test_what_of_the_input_leg_outlasts_compute_counts(self):
        # input 54,000 GB → 12 h: 2 h beyond the 10 h of compute; 1 + 2 + 2 = 5 h.
        x = option_of(evaluate(self._input(54000)), "X")
        assert x["transfer_hours"] == approx(5.0)


def _two_pools() -> dict[str, Any]:
    """test_engine_v31_money's deadline world, the offers named: 8 GPUs × 40 h, a 10 h compute
    budget; a-pool (one machine) is chosen and misses it; b-big meets it with 40 GPUs, +160."""
    t = task(compute_hours=40, delay_cost_per_hour=1, latency_budget_hours={"compute": 10})
    offers = [
        offer("a-pool", max_machines=1, name="A100 pool"),
        offer("b-big", boot_hours=1, name="H100 big"),
    ]
    return make_input(t, offers=offers)


class NamedDeadlinePlanTests:
    def test_M3_names_the_deadline_plans_offer_by_its_name(self):
        """SPEC 7.7: M3's deadline plan names its offer as offers are shown ("name (#id)"); the
        data keeps the id."""
        [m3] = findings_of(evaluate(_two_pools()), "M3")
        assert m3["data"]["plan_offer"] == "b-big"
        assert "Meet the compute budget on H100 big (#b-big) with 40 GPUs: +160." in m3["message"]
        assert "在 H100 big (#b-big) 上用 40 张卡,多花 160" in m3["message_zh"]


class BillRowsTests:
    """SPEC T, 7.6 and 7.11 on the engine's Python API (evaluate_input's BillRow objects)."""

    def test_a_self_hosted_layers_upkeep_is_its_own_bill_line(self):
        # test_engine_v31_scheduler_ops's world: 40 h a month × 100 ÷ (6 ÷ 3 = 2 runs a month)
        # = 2,000 a run on S; total 8 × 10 × 2.0 = 160 + 2,000 = 2,160.
        t = task(cadence="recurring", runs_per_quarter=6)
        t["team"] = {"has_machines": True, "can_maintain_scheduler": True, "pain": "queueing"}
        data = make_input(
            t,
            offers=[offer("S", kind="distributed"), offer("G", kind="managed", price=2.5)],
            checklists=answered("S", "G"),
            thresholds={"engineer_hour_cost": 100, "scheduler_ops_hours_per_month": 40},
        )
        rows = {r.offer: r for r in evaluate_input(parse_input(data), with_sensitivity=False).bill}
        s = rows["S"]
        assert (s.scheduler_ops_cost, s.total) == (approx(2000.0), approx(2160.0))
        # the ranks are over the totals: G 200 first, S 2,160 second; by unit price S first
        assert (s.rank_unit, s.rank_total) == (1, 2)
        assert (rows["G"].scheduler_ops_cost, rows["G"].rank_total) == (0.0, 1)

    def test_a_paid_package_covering_one_gpu_hour_is_said(self):
        # A paid package (SPEC 7.6) and a run of 8 GPUs × 0.125 h = 1 GPU-hour: it fits, so
        # compute costs 0 and T.paid says the package covers 1.0 GPU-hour.
        package = {"billing_basis": "contract", "price": 57600, "contract_hours": 720,
                   "expected_utilization": 0.8, "contract_paid": True}  # fmt: skip
        out = evaluate(make_input(task(compute_hours=0.125), offers=[offer("pkg", **package)]))
        assert option_of(out, "pkg")["compute_cost"] == 0.0
        [paid] = [f for f in findings_of(out, "T") if f["key"] == "T.paid"]
        assert paid["data"] == {"offer": "pkg", "paid_gpu_hours": 1.0}


class OfferErrorsTests:
    """SPEC 7.8 and 7.6: the offer errors that name the rule they enforce."""

    def test_a_contract_price_beyond_the_limit_says_how_it_is_worked(self):
        # 1e12 ÷ (1 h × 1 GPU × 0.5) = 2e12 a GPU-hour > 1e12
        bad = offer("c", billing_basis="contract", price=1e12, contract_hours=1,
                    gpus_per_machine=1, expected_utilization=0.5)  # fmt: skip
        assert parse_errors(make_input(task(gpus=1), offers=[bad])) == [
            {
                "field": "offers[0].price",
                "message": "gives a GPU-hour price beyond 1e12 (price ÷ (contract_hours × "
                "gpus_per_machine × expected_utilization))",
            }
        ]

    def test_only_a_contract_can_be_already_paid(self):
        assert parse_errors(make_input(task(), offers=[offer("a", contract_paid=True)])) == [
            {
                "field": "offers[0].contract_paid",
                "message": "only a contract offer can be already paid (set billing_basis: "
                "contract)",
            }
        ]


class PackageBurnTests:
    """SPEC 7.6 and 7.10 on the chosen option's hourly burn (M2's interruption cost reads it)."""

    def test_an_interruption_inside_a_new_package_costs_no_money(self):
        """A one-off 16 h run on 8 GPUs pays a new 720 h package whole: 57,600 for 1 machine,
        a unit price of 57,600 ÷ (8 × 16) = 450 a GPU-hour. Its 8 × 16 = 128 GPU-hours fit
        the 720 × 8 = 5,760 the package holds, so an hour lost to an interruption burns package
        hours, not money: burn price 0, interruption cost 2 h × 8 GPUs × 0 = 0 (not 2 × 8 × 450
        = 7,200 at the unit price)."""
        package = {
            "billing_basis": "contract",
            "price": 57600,
            "contract_hours": 720,
            "expected_utilization": 0.8,
        }
        out = evaluate(
            make_input(
                task(compute_hours=16, interruption_cost_hours=2),
                offers=[offer("pkg", **package)],
            )
        )
        assert out["chosen"]["offer"] == "pkg"
        assert option_of(out, "pkg")["effective_price"] == 450.0
        assert out["metrics"]["interruption_cost"] == 0.0


class StreamedInputLegTests:
    """SPEC 7.5 and 7.10 (site_plans.transfer_segment): an option streams only an input leg
    it has, and says so even when another leg's missing link leaves its hours unknown."""

    SITES = [
        {"code": "home", "datacenter": "dc-h", "city": "shanghai", "queue_hours": 0},
        {"code": "data", "datacenter": "dc-d", "city": "beijing", "queue_hours": 0},
        {"code": "far", "datacenter": "dc-f", "city": "guiyang", "queue_hours": 0},
        {"code": "lab", "datacenter": "dc-l", "city": "xian", "queue_hours": 0},
    ]
    # 40 Gbit/s, no buffer: 36,000 GB take 36,000 × 8 ÷ (40 × 3600) = 2.0 h.
    LINK = {"from": "data", "to": "far", "bandwidth_gbps": 40, "price_per_gb": 0.001,
            "buffer": 0}  # fmt: skip

    def _input(self, site: str, **overrides: Any) -> dict[str, Any]:
        fields = {"workload": "data_processing", "params_b": None, "data_site": "data",
                  "input_gb": 36000, "image_gb": 0, "result_gb": 0, "compute_hours": 1.5,
                  "input_delivery": "streamed"}  # fmt: skip
        t = task(**{**fields, **overrides})
        return make_input(t, offers=[offer("X", site)], sites=self.SITES, links=[self.LINK])

    def test_an_option_at_the_data_site_has_no_input_leg_to_stream(self):
        # At `data` the input does not move (no leg): nothing streams, no transfer hours.
        x = option_of(evaluate(self._input("data")), "X")
        assert (x["legs"], x["input_overlapped"], x["transfer_hours"]) == ([], False, 0.0)

    def test_a_streamed_input_leg_is_told_when_the_results_leg_has_no_link(self):
        # far → lab has no link: the transfer hours are unknown (no_link), the input leg
        # data → far (2.0 h) still streams beside compute.
        x = option_of(evaluate(self._input("far", result_gb=10, result_site="lab")), "X")
        assert (x["reasons"], x["transfer_hours"]) == (["no_link"], None)
        assert x["input_overlapped"] is True
