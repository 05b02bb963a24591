"""SPEC 7.2 (the rerun line), 7.3 (preemption, renewal) and 7.4 (the fabric a multi run proves) at
the inputs that tell each rule's boundary apart (issues 32 and 37: the live mutants of
run_losses.py). Every expected figure is worked out by hand beside it.

Offers bill 2.0 a GPU-hour on 8-GPU machines; the task (engine_fixtures.task) plans 8 GPUs for
10 compute hours at home and moves nothing, so the hourly burn is 8 × 2.0 = 16.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from typing import Any

import pytest

from engine import evaluate, evaluate_input, parse_input
from engine.run_losses import preemption_hours

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    make_input,
    multi,
    offer,
    option_of,
    single,
    task,
)


def _rerun_cost(task_data: dict[str, Any], bench: list[dict[str, Any]], **limits: Any) -> float:
    out = evaluate(make_input(task_data, benchmarks=bench, thresholds=limits or None))
    return option_of(out, "local")["rerun_cost"]


class RerunEvidenceTests:
    """SPEC 7.2 and 7.10: an offer's own records price its reruns once they hold
    failure_evidence_gpu_hours (default 1,000)."""

    def test_a_record_without_an_offer_does_not_hide_the_records_after_it(self):
        # The pilot record names no offer; the single run after it holds 1 × 8 × 125 = 1,000
        # GPU-hours, exactly the evidence: rate 2 ÷ 1,000 = 0.002 a GPU-hour; not resumable,
        # each failure loses the records' mean 3 h. Run: 8 GPUs × 10 h × 0.002 = 0.16
        # failures × 3 h = 0.48 h × burn 16 = 7.68 (the team's rate is 0: without the records
        # nothing would be priced).
        bench = [
            {"kind": "pilot_migration", "migration_effort_hours": 4},
            single(125, failure_reruns=2, hours_lost_per_rerun=3),
        ]
        assert _rerun_cost(task(resumable=False), bench) == approx(7.68)

    def test_failures_add_up_over_the_records(self):
        # 8 × 100 + 8 × 50 = 1,200 GPU-hours; failures 1 + 3 = 4 → 4 ÷ 1,200 a GPU-hour.
        # Resumable: each failure loses half the 1 h checkpoint interval, 0.5 h.
        # 8 × 10 × 4 ÷ 1,200 = 0.2666… failures × 0.5 h × 16 = 2.1333…
        bench = [
            single(100, failure_reruns=1, hours_lost_per_rerun=2),
            single(50, failure_reruns=3, hours_lost_per_rerun=6),
        ]
        assert _rerun_cost(task(), bench) == approx(80 * 4 / 1200 * 0.5 * 16)
        assert _rerun_cost(task(), bench) == approx(2.133333)

    def test_one_recorded_failure_sets_the_loss_per_failure(self):
        # 1,000 GPU-hours, 1 failure that lost 6 h: rate 0.001; not resumable, the records'
        # mean 6 h ÷ 1 failure counts, not the task's 9 h interruption cost:
        # 80 × 0.001 × 6 × 16 = 7.68 (with 9 h it would be 11.52).
        bench = [single(125, failure_reruns=1, hours_lost_per_rerun=6)]
        t = task(resumable=False, interruption_cost_hours=9)
        assert _rerun_cost(t, bench) == approx(7.68)

    def test_records_with_enough_hours_and_no_failure_price_no_rerun(self):
        # 1,000 GPU-hours without a failure: the records' rate 0 ÷ 1,000 = 0 counts, over the
        # team's 0.001 (which would give 80 × 0.001 × 9 × 16 = 11.52); nothing to average.
        bench = [single(125)]
        t = task(resumable=False, interruption_cost_hours=9)
        assert _rerun_cost(t, bench, failure_rate_per_gpu_hour=0.001) == 0.0


def _tight(gpus: int, bench: list[dict[str, Any]] | None = None, **limits: Any) -> dict[str, Any]:
    """A tight training job of `gpus` GPUs on E (ethernet, 8-GPU machines) alone."""
    t = task(workload="training", params_b=1, coupling="tight", gpus=gpus,
             parallelism=["data", "sharded"])  # fmt: skip
    e = offer("E", parallelism=["data", "sharded"], interconnect="ethernet")
    return make_input(t, offers=[e], benchmarks=bench, checklists=answered("E"),
                      thresholds=limits or None)  # fmt: skip


class ProvenFabricTests:
    """SPEC 7.4 and 7.10: on ethernet, a tight job on more than one machine is refused unless a
    multi run on the offer, with its own scaling efficiency ≥ scaling_efficiency_min, proves
    the fabric at that many machines."""

    def test_two_machines_without_records_are_refused(self):
        # 16 GPUs: ⌈16 ÷ 8⌉ = 2 machines > 1 on ethernet.
        e = option_of(evaluate(_tight(16)), "E")
        assert (e["feasible"], e["reasons"]) == (False, ["no_fast_interconnect"])

    def test_nine_gpus_are_two_machines(self):
        # ⌈9 ÷ 8⌉ = 2 machines: refused, like 16.
        assert option_of(evaluate(_tight(9)), "E")["reasons"] == ["no_fast_interconnect"]

    def test_a_single_run_on_two_nodes_proves_no_fabric(self):
        # Only a multi run proves the fabric; a single run's record (here on 2 nodes) does not.
        bench = [single(10, "E", nodes=2)]
        e = option_of(evaluate(_tight(16, bench)), "E")
        assert e["reasons"] == ["no_fast_interconnect"]

    def test_a_multi_run_exactly_at_the_least_efficiency_proves_its_size(self):
        # single: 1 × 8 GPUs in 10 h; multi: 2 × 8 = 16 GPUs in 10 h: speedup 10 ÷ 10 = 1 on
        # 16 ÷ 8 = 2× the GPUs, efficiency 1 ÷ 2 = 0.5 = scaling_efficiency_min: it counts,
        # so 16 GPUs (2 machines) run on E: 16 × 10 × 2.0 = 320.
        bench = [single(10, "E"), multi(10, "E", nodes=2)]
        e = option_of(evaluate(_tight(16, bench, scaling_efficiency_min=0.5)), "E")
        assert (e["feasible"], e["total_cost"]) == (True, approx(320.0))
        # but not beyond its size: 24 GPUs are 3 machines > 2
        e = option_of(evaluate(_tight(24, bench, scaling_efficiency_min=0.5)), "E")
        assert e["reasons"] == ["no_fast_interconnect"]

    def test_a_multi_run_just_below_the_least_efficiency_proves_nothing(self):
        # efficiency 0.5 < 0.51
        bench = [single(10, "E"), multi(10, "E", nodes=2)]
        e = option_of(evaluate(_tight(16, bench, scaling_efficiency_min=0.51)), "E")
        assert e["reasons"] == ["no_fast_interconnect"]

    def test_a_multi_run_without_a_single_run_on_its_offer_proves_nothing(self):
        # F's multi run has no baseline on F (E's single run is other hardware): no efficiency,
        # so 16 GPUs (⌈16 ÷ 8⌉ = 2 machines) on F's ethernet stay refused.
        data = _tight(16, [single(10, "E"), multi(10, "F", nodes=2)])
        data["offers"].append(offer("F", parallelism=["data", "sharded"], interconnect="ethernet"))
        f = option_of(evaluate(data), "F")
        assert (f["feasible"], f["reasons"]) == (False, ["no_fast_interconnect"])


def _spot(gpus: int = 8, compute_hours: float = 24, ppd: float = 1.5, **fields: Any):
    t = task(gpus=gpus, compute_hours=compute_hours, **fields)
    spot = offer("spot", preemptible=True, preemptions_per_day=ppd)
    return make_input(t, offers=[spot], checklists=answered("spot"))


class PreemptionRateTests:
    """SPEC 7.3 and 7.10: λ = preemptions_per_day × ⌈GPUs ÷ gpus_per_machine⌉ ÷ 24."""

    def test_a_part_machine_counts_as_a_whole_one(self):
        # 12 GPUs: ⌈12 ÷ 8⌉ = 2 machines, λ = 1.5 × 2 ÷ 24 = 0.125; T = 24: λT = 3;
        # resumable: 3 × (1 h ÷ 2 + 0) = 1.5 h × burn 12 × 2.0 = 36
        spot = option_of(evaluate(_spot(gpus=12)), "spot")
        assert spot["preemption_hours"] == approx(1.5)
        assert spot["preemption_cost"] == approx(36.0)

    def test_one_expected_preemption_loses_half_an_interval(self):
        # λ = 1 × 1 ÷ 24; T = 24: λT = 1 → 1 × 0.5 h = 0.5 h × 16 = 8
        spot = option_of(evaluate(_spot(ppd=1)), "spot")
        assert (spot["preemption_hours"], spot["preemption_cost"]) == (0.5, 8.0)


def _task(**fields: Any):
    return parse_input(make_input(task(**fields))).task


class RenewalTests:
    """SPEC 7.3: a run that cannot resume loses T·((e^x − 1) ÷ x − 1) hours, x = λT."""

    @staticmethod
    def _exact(x: float, hours: float) -> float:
        # The renewal loss to 40 digits (Decimal's exp is correctly rounded).
        with localcontext() as ctx:
            ctx.prec = 40
            big = Decimal(x)
            return float(Decimal(hours) * ((big.exp() - 1) / big - 1))

    def test_a_small_exposure_keeps_every_digit(self):
        # λ = 2^-14 an hour over T = 16 h: x = 2^-10 ≈ 0.000977, where e^x − 1 − x loses
        # three digits to cancellation; the loss is 16 × (x/2 + x²/6 + x³/24 + x⁴/120 + …)
        # = 16 × 0.000488440234532… = 0.0078150437525… h, to 1e-14 relative.
        lost = preemption_hours(_task(resumable=False), 2.0**-14, 16.0)
        assert lost == pytest.approx(self._exact(2.0**-10, 16.0), rel=1e-14, abs=0)
        assert lost == pytest.approx(0.0078150437525134, rel=1e-13, abs=0)

    def test_the_switch_over_point_keeps_every_digit_too(self):
        # λ = 1e-4 an hour over T = 10 h: x = 1e-3 (the float 0.001, exactly the switch-over).
        # The series x/2 + x²/6 + x³/24 + x⁴/120 = 5e-4 + 1.6666667e-7 + 4.1666667e-11 + 8.3e-15
        # = 5.0016670834167e-4 is exact to about 3e-15 relative (its first term left out, x⁵/720,
        # is 1.4e-18); the direct form expm1(x) ÷ x − 1 is off by about 1.5e-13 there (three
        # digits cancelled). The loss 10 × 5.0016670834167e-4 = 0.0050016670834167 h must hold
        # to 1e-14 relative.
        x = 1e-4 * 10.0
        assert x == 1e-3
        lost = preemption_hours(_task(resumable=False), 1e-4, 10.0)
        assert lost == pytest.approx(self._exact(x, 10.0), rel=1e-14, abs=0)
        assert lost == pytest.approx(0.0050016670834167, rel=1e-13, abs=0)

    def test_an_exposure_of_seven_hundred_is_still_a_number(self):
        # λ = 1 an hour over 700 h: 700 × ((e^700 − 1) ÷ 700 − 1) = e^700 − 701 ≈ 1.0142e304,
        # finite (e^x overflows only past about 709.78).
        lost = preemption_hours(_task(resumable=False), 1.0, 700.0)
        assert lost == pytest.approx(math.exp(700) - 701, rel=1e-12)

    def test_no_exposure_loses_nothing(self):
        assert preemption_hours(_task(resumable=False), 0.0, 700.0) == 0.0
        assert preemption_hours(_task(), 0.5, 0.0) == 0.0


class RenewalPastAFloatTests:
    """SPEC 7.8 and 7.10: past any finite figure (λT beyond about 700) the option is infeasible
    and its renewal figures and totals are null, on the option and on its bill row."""

    def test_lambda_t_of_seven_hundred_and_one(self):
        # λ = 24 a day × 1 machine ÷ 24 = 1 an hour; T = 701 h: x = 701 > 700.
        data = _spot(compute_hours=701, ppd=24, resumable=False)
        spot = option_of(evaluate(data), "spot")
        assert (spot["feasible"], spot["reasons"]) == (False, ["preempted_before_done"])
        assert (spot["preemption_hours"], spot["preemption_cost"]) == (None, None)
        assert (spot["total_hours"], spot["total_cost"], spot["objective"]) == (None, None, None)
        assert spot["compute_cost"] == approx(8 * 701 * 2.0)  # 11,216: still shown
        [row] = evaluate_input(parse_input(data), with_sensitivity=False).bill
        assert (row.preemption_cost, row.total) == (None, None)


class RenewalBeyondMoneyTests:
    """SPEC 7.3 and 7.8: renewal hours that are a finite number whose money (× the burn) or
    objective (+ delay × hours) is not: shown null, never infinite, and never priced."""

    @staticmethod
    def _far_spot(price: float, delay: float) -> dict[str, Any]:
        # λ = 0.0167 a day × 1 machine ÷ 24 = 6.958e-4 an hour; T = 1e6 h: λT = 695.83 (≤ 700,
        # so the renewal figure is worked out): lost = T × (e^695.83 ÷ 695.83 − 1)
        # = 1e6 × (1.0142e304 × e^-4.1667 ÷ 695.83) = 1e6 × (1.572e302 ÷ 695.83) ≈ 2.26e305 h.
        t = task(compute_hours=1e6, resumable=False, delay_cost_per_hour=delay)
        spot = offer("spot", preemptible=True, preemptions_per_day=0.0167, price=price)
        return make_input(t, offers=[spot], checklists=answered("spot"))

    def test_hours_whose_money_is_beyond_any_float_are_shown_null(self):
        # burn 8 GPUs × 1e6 = 8e6 an hour: 2.26e305 × 8e6 ≈ 1.8e312 > 1.8e308 (no float).
        s = option_of(evaluate(self._far_spot(1e6, 0)), "spot")
        assert (s["preemption_hours"], s["preemption_cost"], s["total_cost"]) == (None, None, None)
        assert s["reasons"] == ["preempted_before_done"]  # λT = 695.83 > 2, not resumable

    def test_an_objective_beyond_any_float_is_left_out(self):
        # burn 8 × 1e-9 = 8e-9 an hour: 2.26e305 × 8e-9 ≈ 1.8e297, a number; but the delay
        # cost 1e4 × 2.26e305 h ≈ 2.3e309 is not: no total hours, total cost or objective.
        s = option_of(evaluate(self._far_spot(1e-9, 1e4)), "spot")
        assert s["preemption_hours"] == pytest.approx(2.26e305, rel=1e-2)
        assert s["preemption_cost"] == pytest.approx(1.81e297, rel=1e-2)
        assert (s["total_hours"], s["total_cost"], s["objective"]) == (None, None, None)
