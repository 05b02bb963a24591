"""SPEC T bill rows as evaluate_input returns them (the engine's public Python API: EngineOutput
carries BillRow objects), every line of a row, and T's choice when a total is zero. (The row's
preprocessing cost was built into the rank_total slot, leaving preprocess_cost None.)

Every expected figure is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from engine import evaluate, evaluate_input, parse_input
from engine.bill import BillRow

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    findings_of,
    make_input,
    offer,
    single,
    staged_task,
    task,
)


def _rows(data):
    return {r.offer: r for r in evaluate_input(parse_input(data), with_sensitivity=False).bill}


class TestBillRow:
    def test_every_line_of_a_staged_row(self):
        # test_engine_v22_staged's world: F at far, staged: 8 × 10 × 1.0 = 80 compute, 200 GB ×
        # 0.02 = 4 transfer, preprocessing 2 h × 5 = 10; 10 % scheduling fee = 8; SPEC 7.2: the
        # record holds 1 × 8 × 3 = 24 GPU-hours < 1000, so the team's rate 0.01 a GPU-hour
        # counts: 0.01 × 8 GPUs × 10 h = 0.8 failures × 0.5 h (resumable: half the 1 h
        # interval) × the hourly burn 8 × 1.0 = 3.2 (2.2: the record's 0.5 h × 8 = 4); Q5
        # effort 6 h × 50 per engineer hour over 1 run (one-off) = 300.
        # Total 80 + 8 + 4 + 0 + 10 + 3.2 + 300 = 405.2.
        t = staged_task()
        f = offer("F", "far", price=1.0, scheduling_fee_pct=10, migration_effort_hours=6)
        bench = [single(3, "F", failure_reruns=1, hours_lost_per_rerun=0.5)]
        data = make_input(
            t,
            offers=[f],
            benchmarks=bench,
            checklists=answered("F"),
            thresholds={"engineer_hour_cost": 50, "failure_rate_per_gpu_hour": 0.01},
        )
        row = _rows(data)["F"]
        assert row == BillRow(
            offer="F",
            feasible=True,
            unit_price=1.0,  # gpu_hour: the price itself (the fee is its own line)
            compute_cost=approx(80.0),
            scheduling_cost=approx(8.0),
            transfer_cost=approx(4.0),
            rerun_cost=approx(3.2),
            migration_effort_hours=6.0,
            migration_cost=approx(300.0),
            preemption_cost=0.0,
            total=approx(405.2),
            preprocess_cost=approx(10.0),
            rank_unit=1,
            rank_total=1,
        )

    def test_a_recurring_job_without_runs_spreads_the_migration_over_one_run(self):
        # runs_per_quarter 0: no year of runs to spread over → 1 run: 10 h × 50 / 1 = 500
        t = task(cadence="recurring", runs_per_quarter=0)
        data = make_input(
            t,
            offers=[offer("local", migration_effort_hours=10)],
            thresholds={"engineer_hour_cost": 50},
        )
        assert _rows(data)["local"].migration_cost == approx(500.0)
        # 2 runs a quarter: 8 a year → 500 / 8 = 62.5
        t["runs_per_quarter"] = 2
        assert _rows(data)["local"].migration_cost == approx(62.5)


class TestCheapestTotal:
    def test_a_zero_total_is_the_cheapest(self):
        # free: 8 × 10 × 0 = 0; cheap: 8 × 10 × 0.00625 = 0.5. T names the free one.
        offers = [offer("cheap", price=0.00625), offer("free", price=0)]
        out = evaluate(make_input(offers=offers, checklists=answered("cheap", "free")))
        [t] = findings_of(out, "T")
        assert (t["data"]["offer"], t["data"]["total"]) == ("free", 0.0)
