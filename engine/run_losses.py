"""What a run loses on one offer beyond its compute: preemptions (SPEC 7.3, renewal theory),
failures that force a rerun (SPEC 7.2) and the migration line (SPEC 6.1), each per run."""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter

from .bench_verdicts import fastest_per_offer, run_scaling_efficiency, run_speedup
from .schema import EngineInput, Offer, Task

# A benchmark record's offer, kind and hours, for fastest_per_offer (attrgetter: no Python call).
_OFFER, _KIND, _E2E = attrgetter("offer"), attrgetter("kind"), attrgetter("e2e_hours")

# SPEC 7.3: a run that cannot resume is refused when λT exceeds this (it finishes without a
# preemption e^-2 ≈ 14 % of the time); λT exactly 2 is feasible.
MAX_PREEMPTION_EXPOSURE = 2.0
# e^x overflows a float beyond about 709.78: past this the renewal figures are not finite.
_EXP_LIMIT = 700.0
# Up to this x the series of e^x − 1 − x keeps every digit the subtraction would lose; at 1e-3
# itself it is still the more exact form (3e-15 relative against expm1's 1.5e-13).
_SERIES_UP_TO = 1e-3


@dataclass(slots=True)
class OfferRecords:
    """One offer's benchmark records, as SPEC 7.2 and 6.1 read them."""

    gpu_hours: float = 0.0  # Σ nodes × gpus_per_node × e2e_hours over single and multi runs
    failures: int = 0  # Σ failure_reruns over those runs
    lost_hours: float = 0.0  # Σ failure_reruns × hours_lost_per_rerun over those runs
    pilot_effort: float | None = None  # the largest migration effort of its pilot records
    # SPEC 7.4 and 7.10: the node count of the largest multi run whose own scaling efficiency
    # meets scaling_efficiency_min (0: the fabric is proven at no size).
    fabric_nodes: int = 0


def offer_records(inp: EngineInput) -> dict[str, OfferRecords]:
    """Per offer id: the GPU-hours, failures and losses its single/multi runs hold, and its
    largest pilot migration effort."""
    records: dict[str, OfferRecords] = {}
    for b in inp.benchmarks:
        offer = b.offer
        if offer is None:
            continue
        row = records.get(offer)
        if row is None:
            row = records[offer] = OfferRecords()
        kind = b.kind
        if kind == "single" or kind == "multi":
            row.gpu_hours += b.nodes * b.gpus_per_node * b.e2e_hours
            reruns = b.failure_reruns
            row.failures += reruns
            row.lost_hours += reruns * b.hours_lost_per_rerun
        elif kind == "pilot_migration" and b.migration_effort_hours:
            row.pilot_effort = max(row.pilot_effort or 0.0, b.migration_effort_hours)
    if inp.task.coupling == "tight":
        # SPEC 7.4: only a tight task asks for a proven fabric (fabric() reads it for no other).
        _proven_fabric(inp, records)
    return records


def _proven_fabric(inp: EngineInput, records: dict[str, OfferRecords]) -> None:
    """SPEC 7.4: each multi run's own scaling efficiency against the offer's fastest single run
    (the baseline of SPEC 6.1's pairs); the largest run meeting scaling_efficiency_min proves
    the offer's fabric up to its node count."""
    singles = fastest_per_offer(
        inp.benchmarks, "single", offer_of=_OFFER, kind_of=_KIND, e2e_of=_E2E
    )
    if not singles:
        return
    least = inp.thresholds["scaling_efficiency_min"]
    for b in inp.benchmarks:
        if b.kind != "multi" or b.offer is None or b.offer not in singles:
            continue
        single = singles[b.offer]
        speedup = run_speedup(single.e2e_hours, b.e2e_hours)
        efficiency = run_scaling_efficiency(speedup, b.gpus, single.gpus)
        if efficiency is not None and efficiency >= least:
            row = records[b.offer]
            row.fabric_nodes = max(row.fabric_nodes, b.nodes)


def fabric(task: Task, offer: Offer, gpus: int, records: OfferRecords | None) -> str | None:
    """SPEC 7.4: a tight task on more than one machine (⌈GPUs ÷ gpus_per_machine⌉, 7.10) needs
    a fast fabric: `refused` on ethernet, `unconfirmed` when the interconnect is unknown (K3 if
    chosen), else None (no doubt). A measured multi run proves the fabric up to its node
    count."""
    if task.coupling != "tight" or offer.interconnect in ("infiniband", "roce"):
        return None
    # Machines used ⌈GPUs ÷ gpus_per_machine⌉ ≤ n exactly when GPUs ≤ n × gpus_per_machine
    # (n whole): one machine, or the proven node count when larger.
    proven = 1 if records is None else max(1, records.fabric_nodes)
    if gpus <= offer.gpus_per_machine * proven:
        return None
    return "refused" if offer.interconnect == "ethernet" else "unconfirmed"


def failure_terms(inp: EngineInput, records: OfferRecords | None) -> tuple[float, float]:
    """SPEC 7.2 and 7.10: (failures per GPU-hour, hours lost per failure) on one offer. Its
    records count once they hold `failure_evidence_gpu_hours`; below that the team's
    `failure_rate_per_gpu_hour`, and a non-resumable task loses `interruption_cost_hours`."""
    task = inp.task
    thresholds = inp.thresholds
    # failure_evidence_gpu_hours is at least 1 (its field's range), so evidence never divides
    # by zero GPU-hours.
    evidence = records is not None and records.gpu_hours >= thresholds["failure_evidence_gpu_hours"]
    if evidence:
        assert records is not None
        rate = records.failures / records.gpu_hours
    else:
        rate = thresholds["failure_rate_per_gpu_hour"]
    if task.resumable:
        lost = task.checkpoint_interval_hours / 2 + task.restart_hours
    elif evidence and records is not None and records.failures > 0:
        # The records' mean loss per rerun, weighted by their failures.
        lost = records.lost_hours / records.failures
    else:
        lost = task.interruption_cost_hours
    return rate, lost


def preemption_rate(offer: Offer, gpus: int) -> float:
    """SPEC 7.3 and 7.10: λ per hour of a preemptible offer = preemptions_per_day × machines
    used ÷ 24, machines used = ⌈GPUs ÷ gpus_per_machine⌉ (each machine is preempted on its
    own)."""
    machines = -(-gpus // offer.gpus_per_machine)
    return offer.preemptions_per_day * machines / 24


def preemption_hours(task: Task, rate: float, compute_hours: float) -> float | None:
    """SPEC 7.3: expected hours lost to preemptions over a run of T = `compute_hours`.

    Resumable: λ·T·(checkpoint_interval_hours ÷ 2 + restart_hours). Not resumable, every
    preemption restarts from zero (renewal theory): the expected wall time is (e^(λT) − 1) ÷ λ,
    so the loss is T·((e^x − 1) ÷ x − 1) with x = λT; None when that is not a finite number."""
    x = rate * compute_hours
    if x == 0:
        return 0.0
    if task.resumable:
        return x * (task.checkpoint_interval_hours / 2 + task.restart_hours)
    if x > _EXP_LIMIT:
        return None
    if x <= _SERIES_UP_TO:
        # e^x − 1 − x over x, by its series: the direct form cancels most digits here.
        excess = x / 2 + x * x / 6 + x**3 / 24 + x**4 / 120
    else:
        excess = math.expm1(x) / x - 1
    return compute_hours * excess


def preempted_before_done(task: Task, rate: float, compute_hours: float) -> bool:
    """SPEC 7.3: a run that cannot resume and is preempted λT > 2 times on average."""
    return not task.resumable and rate * compute_hours > MAX_PREEMPTION_EXPOSURE


def migration_line(
    inp: EngineInput, offer: Offer, records: OfferRecords | None
) -> tuple[float | None, float]:
    """SPEC 6.1 and 7.2: (effort hours, migration cost per run): the candidate's Q5 effort, else
    the largest of its pilot records; × engineer_hour_cost ÷ the runs it is spread over."""
    effort = offer.migration_effort_hours
    if effort is None and records is not None:
        effort = records.pilot_effort
    task = inp.task
    # SPEC 6.1: the runs the effort is spread over: a year of a recurring job, never fewer than
    # one (a run never carries more than the whole effort).
    runs = 1.0 if task.cadence == "one_off" else max(1.0, task.runs_per_quarter * 4)
    return effort, (effort or 0.0) * inp.thresholds["engineer_hour_cost"] / runs
