"""Method version 2 (SPEC 6.1 corrections, 6.2 strict input), one class per corrected rule: billing,
planned GPUs, boot time, budgets, migration cost, J3, the checklist and the strict contract.

Each test builds the case that engine 1.x decided wrongly and asserts the figure v2 must give.
Every expected figure is a literal worked out by hand in the comment beside it (never obtained by
running the engine). Leg hours = gb × 8 / (bandwidth_gbps × 3600) × (1 + buffer), with the tier
buffers same_datacenter 0.0, same_city 0.1, cross_hub 0.3.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    EngineInputError,
    evaluate,
)

from .engine_fixtures import (
    ANSWERED,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    bill_row,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    single,
    task,
    three_way_input,
)

# ---------------------------------------------------------------------------------------------
# Whole machines are billed whole


class TestWholeMachineBilling:
    def _out(self, gpus: int, bench=None, **offer_overrides: Any) -> dict[str, Any]:
        # Recurring: a contract's share is pro-rated (SPEC 7.6; a one-off job pays it whole).
        t = task(gpus=gpus, interruption_cost_hours=1, cadence="recurring")
        return evaluate(
            make_input(t, offers=[offer("o", **offer_overrides)], benchmarks=bench or [])
        )

    def test_P_machine_hour_bills_the_whole_machine(self):
        """v1 charged 4 GPUs × 10 h × 2.0 = 80: half a machine."""
        out = self._out(4, billing_basis="machine_hour", price=16)
        o = option_of(out, "o")
        # 16 / 8 = 2.0 per GPU-hour; ceil(4 / 8) = 1 machine = 8 GPUs × 10 h × 2.0 = 160.0
        assert o["effective_price"] == 2.0
        assert (o["gpus"], o["billed_gpus"]) == (4, 8)
        assert o["compute_cost"] == 160.0

    def test_P_machine_hour_rounds_up_to_whole_machines(self):
        out = self._out(12, billing_basis="machine_hour", price=16)
        o = option_of(out, "o")
        # ceil(12 / 8) = 2 machines = 16 GPUs × 10 h × 2.0 = 320.0
        assert o["billed_gpus"] == 16
        assert o["compute_cost"] == 320.0

    def test_P_contract_bills_the_whole_machine(self):
        out = self._out(
            4, billing_basis="contract", price=10000, contract_hours=500, expected_utilization=0.5
        )
        o = option_of(out, "o")
        # 10000 / (500 × 8 × 0.5) = 5.0; 8 GPUs × 10 h × 5.0 = 400.0 (v1: 4 × 10 × 5 = 200)
        assert o["effective_price"] == 5.0
        assert o["billed_gpus"] == 8
        assert o["compute_cost"] == 400.0

    def test_P_gpu_hour_bills_gpus(self):
        out = self._out(4)
        o = option_of(out, "o")
        # 4 GPUs × 10 h × 2.0 = 80.0
        assert o["billed_gpus"] == 4
        assert o["compute_cost"] == 80.0
        assert out["metrics"]["interruption_cost"] == 8.0  # 1 h × 4 × 2.0

    def test_M2_and_rerun_cost_use_billed_gpus(self):
        bench = [single(10, "o", gpn=4, failure_reruns=2, hours_lost_per_rerun=3)]
        t = task(gpus=4, interruption_cost_hours=1)
        o = offer("o", billing_basis="machine_hour", price=16)
        # SPEC 7.2: the record holds 1 × 4 GPUs × 10 h = 40 GPU-hours; counted from 40
        limits = {"failure_evidence_gpu_hours": 40}
        out = evaluate(make_input(t, offers=[o], benchmarks=bench, thresholds=limits))
        # hourly burn = 8 billed GPUs × 2.0 = 16 per hour (v1: 4 × 2.0 = 8)
        # M2 interruption cost = 1 h × 16 = 16.0
        assert out["metrics"]["interruption_cost"] == 16.0
        row = bill_row(out, "o")
        # rate 2 ÷ 40 = 0.05 a GPU-hour; expected failures 0.05 × 8 billed GPUs × 10 h = 4; the
        # task resumes: 1 h interval ÷ 2 = 0.5 h lost each → 4 × 0.5 × 16 = 32.0 (2.2: the
        # records' 2 × 3 h × 16 = 96); total = 160 + 0 + 0 + 32 = 192.0
        assert row["rerun_cost"] == 32.0
        assert row["total"] == 192.0


# ---------------------------------------------------------------------------------------------
# P3: planned GPU count


class TestP3PlannedGpuCount:
    def test_P3_explicit_null_gpus_blocks(self):
        """v1 silently billed whole machines_needed × gpus_per_machine when no count was
        planned, so costs measured on different GPU counts were compared."""
        out = evaluate(make_input(task(gpus=None)))
        [p3] = findings_of(out, "P3")
        assert p3["severity"] == "block"
        assert "P3" in out["signoff"]["local"]["rules"]

    def test_P3_absent_gpus_is_an_input_error(self):
        t = task()
        del t["gpus"]
        with pytest.raises(EngineInputError) as err:
            evaluate(make_input(t))
        assert "task.gpus" in [e["field"] for e in err.value.errors]


# ---------------------------------------------------------------------------------------------
# Boot time counts


class TestBootTime:
    def test_P_queue_hours_add_offer_boot_hours(self):
        """v1 ignored boot_hours: queue_hours was the site queue only (10 h)."""
        out = evaluate(make_input(offers=[offer("local", boot_hours=2.5)]))
        o = option_of(out, "local")
        # 10 h home queue + 2.5 h boot = 12.5; + 10 h compute = 22.5
        assert o["queue_hours"] == 12.5
        assert o["total_hours"] == 22.5

    def test_P_boot_time_can_change_the_choice(self):
        # no transfers (image 0); delay cost 1 per hour; both 8 × 10 × 2.0 = 160
        t = task(image_gb=0, delay_cost_per_hour=1)
        offers = [offer("L", "home"), offer("S", "data", boot_hours=12)]
        out = evaluate(make_input(t, offers=offers))
        # L: 160 + 1 × (10 + 10) = 180; S: 160 + 1 × (1 + 12 + 10) = 183 (v1: 160 + 11 = 171)
        assert option_of(out, "L")["objective"] == 180.0
        assert option_of(out, "S")["objective"] == 183.0
        assert out["chosen"]["offer"] == "L"


# ---------------------------------------------------------------------------------------------
# Latency budgets guide, they do not veto


class TestM3BudgetsGuide:
    def _input(self, queue_budget: float, with_far: bool = True) -> dict[str, Any]:
        # Nothing moves (data at home, image 0); 8 GPUs × 10 h.
        t = task(image_gb=0, latency_budget_hours={"queue": queue_budget})
        offers = [
            offer("L", "home", price=1.0),  # queue 10 h, 8 × 10 × 1.0 = 80
            offer("X", "data", price=13.0),  # queue 1 h, 8 × 10 × 13.0 = 1040 (13 × 80)
        ]
        if with_far:
            offers.append(offer("Y", "far", price=20.0))  # queue 0 h, 8 × 10 × 20 = 1600
        return make_input(t, offers=offers)

    def test_M3_budget_missed_by_one_hour_does_not_buy_a_plan_13x_dearer(self):
        """v1 chose the least objective among options within budget: with a 9 h queue budget
        the 10 h local queue (missed by one hour) lost to X at 1040, 13 × the 80 of L."""
        out = evaluate(self._input(9))
        assert option_of(out, "L")["within_budget"] is False
        assert option_of(out, "X")["within_budget"] is True
        assert out["chosen"] == {"kind": "wait_local", "site": "home", "offer": "L"}
        assert out["metrics"]["over_budget"] == ["queue"]
        [m3] = findings_of(out, "M3")
        assert (m3["severity"], m3["key"]) == ("warn", "M3.alternative")
        # cheapest feasible option meeting every budget: X (1040 < Y's 1600);
        # extra cost 1040 − 80 = 960
        assert m3["data"]["segment"] == "queue"
        assert (m3["data"]["hours"], m3["data"]["budget"]) == (10.0, 9.0)
        assert (m3["data"]["kind"], m3["data"]["site"], m3["data"]["offer"]) == (
            "move_data",
            "data",
            "X",
        )
        assert m3["data"]["extra_cost"] == 960.0
        assert "P1" not in rules(out)

    def test_P1_only_when_no_feasible_option_meets_every_budget(self):
        # queue budget 0.5 h: L 10 h and X 1 h are both over
        out = evaluate(self._input(0.5, with_far=False))
        assert out["chosen"]["offer"] == "L"  # still the least objective, 80
        [p1] = findings_of(out, "P1")
        assert p1["severity"] == "warn"
        [m3] = findings_of(out, "M3")
        assert m3["key"] == "M3"  # no option to name


# ---------------------------------------------------------------------------------------------
# Migration cost on its own line


class TestMigrationCostLine:
    def _out(self, *, offer_effort=None, bench=None, **task_overrides: Any) -> dict[str, Any]:
        o = offer("local")
        if offer_effort is not None:
            o["migration_effort_hours"] = offer_effort
        return evaluate(
            make_input(
                task(**task_overrides),
                offers=[o],
                benchmarks=bench or [],
                thresholds={"engineer_hour_cost": 100},
            )
        )

    def test_T_migration_cost_one_off(self):
        """v1 had no migration line: the 40 h retrofit never reached the bill."""
        row = bill_row(self._out(offer_effort=40), "local")
        # 40 h × 100 ÷ 1 run (one_off) = 4000.0; total 8 × 10 × 2.0 = 160 + 4000 = 4160.0
        assert row["migration_effort_hours"] == 40.0
        assert row["migration_cost"] == 4000.0
        assert row["total"] == 4160.0

    def test_T_migration_cost_spread_over_a_year_of_runs(self):
        out = self._out(offer_effort=40, cadence="recurring", runs_per_quarter=2)
        row = bill_row(out, "local")
        # 40 × 100 ÷ (2 × 4 = 8 runs) = 500.0; total 160 + 500 = 660.0
        assert row["migration_cost"] == 500.0
        assert row["total"] == 660.0

    def test_T_migration_effort_from_the_largest_pilot(self):
        pilots = [
            {"kind": "pilot_migration", "offer": "local", "migration_effort_hours": h}
            for h in (30, 50)
        ]
        row = bill_row(self._out(bench=pilots), "local")
        # max(30, 50) = 50 h × 100 ÷ 1 = 5000.0; total 160 + 5000 = 5160.0
        assert row["migration_effort_hours"] == 50.0
        assert row["migration_cost"] == 5000.0
        assert row["total"] == 5160.0

    def test_T_a_pilot_without_effort_hours_adds_nothing(self):
        pilots = [
            {"kind": "pilot_migration", "offer": "local", "migration_effort_hours": 30},
            {"kind": "pilot_migration", "offer": "local"},
        ]
        row = bill_row(self._out(bench=pilots), "local")
        # 30 h × 100 ÷ 1 = 3000.0; total 160 + 3000 = 3160.0
        assert (row["migration_effort_hours"], row["total"]) == (30.0, 3160.0)

    def test_T_the_largest_pilot_wins_whatever_the_order_and_however_small(self):
        pilots = [
            {"kind": "pilot_migration", "offer": "local", "migration_effort_hours": h}
            for h in (50, 30)
        ]
        assert bill_row(self._out(bench=pilots), "local")["migration_effort_hours"] == 50.0
        half = [{"kind": "pilot_migration", "offer": "local", "migration_effort_hours": 0.5}]
        row = bill_row(self._out(bench=half), "local")
        # 0.5 h × 100 = 50.0; total 160 + 50 = 210.0
        assert (row["migration_cost"], row["total"]) == (50.0, 210.0)

    def test_T_no_effort_no_migration_line(self):
        row = bill_row(self._out(), "local")
        assert (row["migration_effort_hours"], row["migration_cost"], row["total"]) == (
            None,
            0.0,
            160.0,
        )

    def test_T_one_run_a_quarter_is_four_runs_a_year(self):
        row = bill_row(self._out(offer_effort=40, cadence="recurring", runs_per_quarter=1), "local")
        # 40 × 100 ÷ (1 × 4) = 1000.0; total 160 + 1000 = 1160.0
        assert (row["migration_cost"], row["total"]) == (1000.0, 1160.0)


class TestBillRowInFull:
    def test_every_line_of_the_cheapest_row(self):
        # three_way M: 8 GPUs × (10 h / 2 = 5 h) × 2.0 = 80.0 compute, 10 % fee = 8.0, transfer
        # 0.3 (placement tests), nothing else → 88.3; L and M share the lowest unit price 2.0
        [m] = [r for r in evaluate(three_way_input())["bill"] if r["offer"] == "M"]
        assert m == {
            "offer": "M",
            "feasible": True,
            "unit_price": 2.0,
            "compute_cost": 80.0,
            "scheduling_cost": 8.0,
            "transfer_cost": 0.3,
            "rerun_cost": 0.0,
            "migration_effort_hours": None,
            "migration_cost": 0.0,
            "preemption_cost": 0.0,
            "total": 88.3,
            "preprocess_cost": 0.0,
            "scheduler_ops_cost": 0.0,  # SPEC 7.11: no self-hosted distributed layer
            "rank_unit": 1,
            "rank_total": 1,
        }

    def test_J3_data_in_full(self):
        # M at 20 / 8 = 2.5 per GPU-hour totals 110.3; L at 2.0 totals 165 (rules tests)
        data = three_way_input()
        data["offers"][1]["price"] = 20
        [j3] = findings_of(evaluate(data), "J3")
        assert j3["data"] == {
            "unit_offer": "L",
            "unit_price": 2.0,
            "unit_offer_total": 165.0,
            "total_offer": "M",
            "total": 110.3,
            "total_offer_unit_price": 2.5,
        }


# ---------------------------------------------------------------------------------------------
# T / J3 rank feasible candidates only


class TestTJ3FeasibleOnly:
    def test_T_infeasible_cheapest_is_never_named(self):
        """v1 ranked every candidate: `tiny` (a 4-GPU pool for an 8-GPU job, 8 × 10 × 0.5 = 40)
        was named cheapest by T and J3 could never compare the feasible ones."""
        offers = [
            offer("tiny", gpus_per_machine=4, max_machines=1, price=0.5),
            offer("A", price=1.0, relative_speed=0.5),  # 8 × (10 / 0.5 = 20 h) × 1.0 = 160
            offer("B", price=1.5),  # 8 × 10 × 1.5 = 120
        ]
        out = evaluate(make_input(offers=offers))
        assert option_of(out, "tiny")["reason"] == "pool_too_small"  # 8 > 1 × 4
        [t] = findings_of(out, "T")
        assert (t["data"]["offer"], t["data"]["total"]) == ("B", 120.0)
        [j3] = findings_of(out, "J3")
        # cheapest unit among feasible: A at 1.0 (total 160); cheapest total: B at 120
        assert (j3["data"]["unit_offer"], j3["data"]["unit_price"]) == ("A", 1.0)
        assert j3["data"]["unit_offer_total"] == 160.0
        assert (j3["data"]["total_offer"], j3["data"]["total"]) == ("B", 120.0)
        tiny = bill_row(out, "tiny")
        assert tiny["feasible"] is False
        assert (tiny["rank_unit"], tiny["rank_total"]) == (None, None)
        assert tiny["total"] == 40.0  # still shown in the table
        assert (bill_row(out, "A")["rank_unit"], bill_row(out, "A")["rank_total"]) == (1, 2)
        assert (bill_row(out, "B")["rank_unit"], bill_row(out, "B")["rank_total"]) == (2, 1)


# ---------------------------------------------------------------------------------------------
# A candidate without checklist answers


class TestCChecklistMissing:
    def test_C_candidate_without_answers_is_six_unanswered(self):
        """v1 let the engine input omit a candidate's checklist (API, CLI) and nothing
        blocked it, while the web showed six unanswered."""
        offers = [offer("answered"), offer("silent")]
        out = evaluate(make_input(offers=offers, checklists={"answered": ANSWERED}))
        gate = out["checklists"]["silent"]
        assert gate["unanswered"] == 6
        assert gate["ready_to_sign"] is False
        assert gate["unanswered_questions"] == ["q1", "q2", "q3", "q4", "q5", "q6"]
        blocks = [(f["offer"], f["severity"]) for f in findings_of(out, "C")]
        assert blocks == [("silent", "block")]
        assert "C" in out["signoff"]["silent"]["rules"]
        assert "C" not in out["signoff"]["answered"]["rules"]


# ---------------------------------------------------------------------------------------------
# 6.2 strict input contract (smoke)


class TestStrictContract:
    def test_input_typo_is_an_error_naming_its_path(self):
        """v1 ignored unknown fields: `offsite_alowed: true` silently left offsite_allowed
        false and changed the decision."""
        t = task()
        t["offsite_alowed"] = True
        with pytest.raises(EngineInputError) as err:
            evaluate(make_input(t))
        assert {"field": "task.offsite_alowed", "message": "unknown field"} in err.value.errors

    def test_input_offer_in_another_currency_is_an_error(self):
        data = make_input(offers=[offer("local", currency="USD")])
        data["currency"] = "CNY"
        with pytest.raises(EngineInputError) as err:
            evaluate(data)
        assert [e["field"] for e in err.value.errors] == ["offers[0].currency"]

    def test_input_same_currency_is_accepted(self):
        data = make_input(offers=[offer("local", currency="CNY")])
        data["currency"] = "CNY"
        assert evaluate(data)["currency"] == "CNY"
