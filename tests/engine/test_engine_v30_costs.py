"""SPEC 7.2 (the total that decides is the whole bill) and 7.3 (preemption as it behaves), engine
3.0: each test names the case 2.2 got wrong and the number it must give now, worked by hand.

Offers bill 2.0 or 3.0 a GPU-hour on 8-GPU machines; the task (engine_fixtures.task) plans 8 GPUs
for 10 compute hours at home, is resumable with a 1 h checkpoint interval unless a test says
otherwise, and moves nothing.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    bill_row,
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


class TestTheWholeBillDecides:
    """SPEC 7.2: migration and rerun lines join total_cost, so the choice and T agree."""

    @staticmethod
    def _input() -> dict[str, Any]:
        # current: 8 × 10 × 3.0 = 240; new: 8 × 10 × 2.0 = 160 plus 40 h of migration effort
        # × 100 per engineer hour over 1 run (one-off) = 4,000 → 4,160
        offers = [offer("current", price=3.0), offer("new", price=2.0, migration_effort_hours=40)]
        return make_input(
            task(),
            offers=offers,
            checklists=answered("current", "new"),
            thresholds={"engineer_hour_cost": 100},
        )

    def test_the_choice_reads_the_migration_line(self):
        out = evaluate(self._input())
        # 2.2 chose new (objective 160 without the 4,000) while its T named current
        assert out["chosen"]["offer"] == "current"
        new = option_of(out, "new")
        assert (new["migration_cost"], new["total_cost"], new["objective"]) == (
            4000.0,
            4160.0,
            4160.0,
        )
        assert bill_row(out, "new")["total"] == new["total_cost"]
        [t] = findings_of(out, "T")
        assert (t["data"]["offer"], t["data"]["total"]) == ("current", 240.0)

    def test_J3_still_fires_when_unit_price_and_total_disagree(self):
        [j3] = findings_of(evaluate(self._input()), "J3")
        # cheapest by unit price: new (2.0, total 4,160); by total: current (240)
        assert (j3["data"]["unit_offer"], j3["data"]["total_offer"]) == ("new", "current")
        assert (j3["data"]["unit_offer_total"], j3["data"]["total"]) == (4160.0, 240.0)


class TestRerunCost:
    """SPEC 7.2: expected failures × lost hours per failure × hourly burn, for this run."""

    def test_the_teams_fleet_rate_prices_a_large_run(self):
        # Llama 3's training: 419 unexpected interruptions in 54 days on 16,384 GPUs ≈ 2e-5 a
        # GPU-hour. 1,024 GPUs × 100 h × 2e-5 = 2.048 expected failures; not resumable, each
        # loses the 5 h interruption cost; burn 1,024 × 2.0 = 2,048 an hour
        # → 2.048 × 5 × 2,048 = 20,971.52 (2.2: 0, no failure record)
        t = task(gpus=1024, compute_hours=100, resumable=False, interruption_cost_hours=5)
        data = make_input(t, thresholds={"failure_rate_per_gpu_hour": 2e-5})
        local = option_of(evaluate(data), "local")
        assert local["rerun_cost"] == pytest.approx(20971.52, abs=1e-6)
        # compute 1,024 × 100 × 2.0 = 204,800; total 204,800 + 20,971.52 = 225,771.52
        assert local["total_cost"] == pytest.approx(225771.52, abs=1e-6)

    def test_a_resumable_run_loses_half_an_interval_and_its_restart(self):
        t = task(gpus=1024, compute_hours=100, checkpoint_interval_hours=2, restart_hours=0.25)
        data = make_input(t, thresholds={"failure_rate_per_gpu_hour": 2e-5})
        # 2.048 failures × (2 / 2 + 0.25 = 1.25 h) × 2,048 = 5,242.88
        assert option_of(evaluate(data), "local")["rerun_cost"] == pytest.approx(5242.88)

    def test_records_with_enough_gpu_hours_set_the_rate_and_the_loss(self):
        # 2 nodes × 8 GPUs × 40 h = 640 GPU-hours + 1 × 8 × 50 = 400 → 1,040 ≥ 1,000: counted.
        # failures 3 + 1 = 4 → 4 / 1,040 a GPU-hour; losses 3 × 2 h + 1 × 6 h = 12 h over 4
        # failures = 3 h each (not resumable). Run: 8 GPUs × 10 h → 80 × 4 / 1,040 = 0.307692
        # failures × 3 h × burn 16 = 14.769231 (2.2: (6 + 6) h × 16 = 192 whatever the run)
        bench = [
            multi(40, failure_reruns=3, hours_lost_per_rerun=2),
            single(50, failure_reruns=1, hours_lost_per_rerun=6),
        ]
        t = task(resumable=False, interruption_cost_hours=9)
        local = option_of(evaluate(make_input(t, benchmarks=bench)), "local")
        assert local["rerun_cost"] == pytest.approx(80 * 4 / 1040 * 3 * 16, abs=1e-6)
        assert local["rerun_cost"] == pytest.approx(14.769231, abs=1e-6)

    def test_records_short_of_the_evidence_give_way_to_the_team(self):
        # 1 × 8 × 50 = 400 GPU-hours < 1,000: the team's rate 0.001 and the interruption cost
        # 9 h: 8 × 10 × 0.001 = 0.08 failures × 9 h × 16 = 11.52
        bench = [single(50, failure_reruns=5, hours_lost_per_rerun=6)]
        t = task(resumable=False, interruption_cost_hours=9)
        limits = {"failure_rate_per_gpu_hour": 0.001}
        out = evaluate(make_input(t, benchmarks=bench, thresholds=limits))
        assert option_of(out, "local")["rerun_cost"] == pytest.approx(11.52)
        assert bill_row(out, "local")["rerun_cost"] == pytest.approx(11.52)

    def test_no_rate_prices_nothing(self):
        bench = [single(50, failure_reruns=5, hours_lost_per_rerun=6)]
        out = evaluate(make_input(task(resumable=False), benchmarks=bench))
        # the default rate is 0 and 400 GPU-hours are short of 1,000
        assert option_of(out, "local")["rerun_cost"] == 0.0

    def test_bad_thresholds_are_refused_by_name(self):
        limits = {"failure_rate_per_gpu_hour": -1, "failure_evidence_gpu_hours": 0.5}
        assert parse_errors(make_input(thresholds=limits)) == [
            {"field": "thresholds.failure_rate_per_gpu_hour", "message": "must be ≥ 0"},
            {"field": "thresholds.failure_evidence_gpu_hours", "message": "must be ≥ 1"},
        ]


def _spot_and_on_demand(**task_fields: Any) -> dict[str, Any]:
    """spot: 2.0 a GPU-hour, preempted 1.5 times a day a machine; on demand: 3.0."""
    fields = {"compute_hours": 24, **task_fields}
    offers = [
        offer("spot", price=2.0, preemptible=True, preemptions_per_day=1.5),
        offer("demand", price=3.0),
    ]
    return make_input(task(**fields), offers=offers, checklists=answered("spot", "demand"))


class TestPreemption:
    """SPEC 7.3: λ = preemptions_per_day × machines ÷ 24; renewal for runs that cannot resume."""

    def test_a_run_that_restarts_from_zero_costs_its_expected_wall_time(self):
        out = evaluate(_spot_and_on_demand(resumable=False, interruption_cost_hours=2))
        spot = option_of(out, "spot")
        # λ = 1.5 × 1 machine ÷ 24 = 0.0625 an hour; T = 24 h, λT = 1.5 ≤ 2: feasible.
        # Expected wall time (e^1.5 − 1) ÷ 0.0625 = 16 × 3.4816891 = 55.707025 h; lost
        # 31.707025 h × burn 16 = 507.312402; total 384 + 507.312402 = 891.312402
        # (2.2: 1.5 preemptions × 2 h × 16 = 48, total 432, chosen over 576 on demand)
        lost = 16 * math.expm1(1.5) - 24
        assert spot["preemption_hours"] == pytest.approx(lost, abs=1e-6)
        assert spot["preemption_hours"] == pytest.approx(31.707025, abs=1e-6)
        assert spot["preemption_cost"] == pytest.approx(507.312402, abs=1e-6)
        assert spot["total_cost"] == pytest.approx(891.312402, abs=1e-6)
        # total hours: queue 10 + compute 24 + preemption 31.707025 = 65.707025
        assert spot["total_hours"] == pytest.approx(65.707025, abs=1e-6)
        assert spot["compute_hours"] == 24.0  # unchanged
        assert out["chosen"]["offer"] == "demand"  # 8 × 24 × 3.0 = 576

    def test_lambda_t_of_exactly_two_is_feasible_and_more_is_not(self):
        at_two = _spot_and_on_demand(resumable=False)
        at_two["offers"][0]["preemptions_per_day"] = 2  # λT = 2 / 24 × 24 = 2
        assert option_of(evaluate(at_two), "spot")["feasible"] is True
        past = _spot_and_on_demand(resumable=False)
        past["offers"][0]["preemptions_per_day"] = 2.01  # λT = 2.01 > 2
        spot = option_of(evaluate(past), "spot")
        assert (spot["feasible"], spot["reasons"]) == (False, ["preempted_before_done"])
        # still reported: 24 ÷ 2.01 × (e^2.01 − 1) − 24 h
        assert spot["preemption_hours"] == pytest.approx(24 / 2.01 * math.expm1(2.01) - 24)

    def test_preemptions_count_per_machine(self):
        # 16 GPUs on 8-GPU machines: 2 machines, λ = 1.5 × 2 ÷ 24 = 0.125; resumable: lost
        # 0.125 × 24 × (1 h ÷ 2 + 0) = 1.5 h (2.2: 1.5 × 24 ÷ 24 × 0.5 = 0.75 h)
        spot = option_of(evaluate(_spot_and_on_demand(gpus=16)), "spot")
        assert spot["preemption_hours"] == pytest.approx(1.5)
        # burn 16 × 2.0 = 32 → 48
        assert spot["preemption_cost"] == pytest.approx(48.0)

    def test_restart_hours_add_to_each_resumed_preemption(self):
        spot = option_of(evaluate(_spot_and_on_demand(restart_hours=0.5)), "spot")
        # λT = 1.5; 1.5 × (0.5 + 0.5) = 1.5 h × 16 = 24
        assert (spot["preemption_hours"], spot["preemption_cost"]) == (1.5, 24.0)

    def test_the_compute_budget_reads_compute_and_preemption_hours(self):
        t = {"restart_hours": 0.5, "latency_budget_hours": {"compute": 25}}
        out = evaluate(_spot_and_on_demand(**t))
        # spot: 24 + 1.5 = 25.5 h > 25: over; demand: 24 h within
        assert option_of(out, "spot")["within_budget"] is False
        assert option_of(out, "demand")["within_budget"] is True
        # deadline sizing ignores preemption: 24 h × 8 GPUs = 192 GPU-hours ÷ 25 h → 8 GPUs
        assert out["sizing"]["offers"][0]["gpus_for_budget"] == 8

    def test_M3_names_the_compute_segment_with_its_preemption_hours(self):
        t = {"restart_hours": 0.5, "latency_budget_hours": {"compute": 25}}
        data = _spot_and_on_demand(**t)
        data["offers"][1]["price"] = 2.5  # demand 8 × 24 × 2.5 = 480 > spot 384 + 24 = 408
        out = evaluate(data)
        assert out["chosen"]["offer"] == "spot"
        [m3] = findings_of(out, "M3")
        assert (m3["data"]["segment"], m3["data"]["hours"]) == ("compute", 25.5)
        assert m3["data"]["extra_cost"] == pytest.approx(480 - 408)
        assert "G4" not in rules(out)  # resumable

    def test_a_bad_restart_hours_is_refused_by_name(self):
        assert parse_errors(_spot_and_on_demand(restart_hours=-1)) == [
            {"field": "task.restart_hours", "message": "must be ≥ 0"}
        ]
