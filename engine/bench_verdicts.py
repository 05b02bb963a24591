"""SPEC B: benchmark verdicts of a single-machine vs multi-machine pair."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import TypeVar

from .findings import Finding, finding
from .schema import Benchmark, EngineInput

Run = TypeVar("Run")


def fastest_per_offer(
    runs: Iterable[Run],
    kind: str,
    *,
    offer_of: Callable[[Run], object],
    kind_of: Callable[[Run], str],
    e2e_of: Callable[[Run], float],
) -> dict:
    """SPEC 6.1 like for like: {offer: its fastest run of `kind`} (ties: the first given).

    The one place that picks a baseline: the engine's pairs, the comparison table and the
    benchmarks page all call it. Runs without an offer are never a baseline (their hardware is
    unknown), nor runs of zero hours (no measurement).
    """
    fastest: dict = {}
    e2e_hours: dict = {}  # the fastest run's hours, per offer
    for run in runs:
        if kind_of(run) != kind:
            continue
        offer = offer_of(run)
        e2e = e2e_of(run)
        if offer is None or not e2e > 0:
            continue
        if offer not in fastest or e2e < e2e_hours[offer]:
            fastest[offer], e2e_hours[offer] = run, e2e
    return fastest


def run_speedup(baseline_e2e_hours: float, e2e_hours: float) -> float | None:
    """A run's speedup: the fastest single run's end-to-end hours on the same offer ÷ its own."""
    return baseline_e2e_hours / e2e_hours if e2e_hours > 0 else None


def run_scaling_efficiency(
    speedup: float | None, gpus: float, baseline_gpus: float
) -> float | None:
    """Speedup ÷ the GPU ratio to the baseline run (1.0 = perfect linear scaling)."""
    if speedup is None or not gpus > 0 or not baseline_gpus > 0:
        return None
    return speedup / (gpus / baseline_gpus)


@dataclass(slots=True)
class BenchmarkPair:
    """SPEC 6.1: the fastest single and the fastest multi run of one offer (same hardware)."""

    offer: str
    single: Benchmark
    multi: Benchmark
    runs: int  # single and multi runs recorded on the offer

    @property
    def speedup(self) -> float | None:
        return run_speedup(self.single.e2e_hours, self.multi.e2e_hours)

    @property
    def scaling_efficiency(self) -> float | None:
        return run_scaling_efficiency(self.speedup, self.multi.gpus, self.single.gpus)


@dataclass(slots=True)
class BenchmarkVerdict:
    offer: str | None = None  # SPEC 6.1: the offer whose pair is reported
    speedup: float | None = None
    scaling_efficiency: float | None = None
    net_gain_positive: bool | None = None
    non_compute_share: float | None = None
    hours_saved: float | None = None  # per run: e2e single − e2e multi
    single_benchmark: str | None = None  # the compared records' ids, when the input gives them
    multi_benchmark: str | None = None
    single_index: int | None = None  # positions in the input's benchmarks list
    multi_index: int | None = None


def _id_order(offer_id: str) -> tuple[int, int, str]:
    # "Lowest id": numerically for numeric ids (as the database gives them), else by text.
    # ASCII digits only: str.isdigit() also holds for "²", which int() refuses.
    numeric = offer_id.isascii() and offer_id.isdigit()
    return (0, int(offer_id), "") if numeric else (1, 0, offer_id)


# A benchmark record's offer, kind and hours, for fastest_per_offer (attrgetter: no Python call).
_OFFER, _KIND, _E2E = attrgetter("offer"), attrgetter("kind"), attrgetter("e2e_hours")


def find_pairs(inp: EngineInput) -> list[BenchmarkPair]:
    """SPEC 6.1: one like-for-like pair per offer with both kinds of run, in offer input order.
    Runs on different hardware are never divided by each other."""
    def fastest(kind: str) -> dict[str, Benchmark]:
        return fastest_per_offer(
            inp.benchmarks, kind,
            offer_of=_OFFER, kind_of=_KIND, e2e_of=_E2E,
        )

    singles, multis = fastest("single"), fastest("multi")
    runs: dict[str, int] = {}
    for b in inp.benchmarks:
        if b.kind in ("single", "multi") and b.offer is not None:
            runs[b.offer] = runs.get(b.offer, 0) + 1
    if not singles or not multis:
        return []
    return [
        BenchmarkPair(o.id, singles[o.id], multis[o.id], runs[o.id])
        for o in inp.offers
        if o.id in singles and o.id in multis
    ]


def reported_pair(pairs: list[BenchmarkPair], chosen_offer: str | None) -> BenchmarkPair | None:
    """SPEC 6.1: the pair of the offer with the most recorded runs; ties: the chosen option's
    offer, then the lowest id. R0, R6 and B1–B3 read this pair."""
    if not pairs:
        return None
    return min(pairs, key=lambda p: (-p.runs, p.offer != chosen_offer, _id_order(p.offer)))


def pair_verdict(pair: BenchmarkPair) -> BenchmarkVerdict:
    """SPEC B: speedup, scaling efficiency, net gain and non-compute share of one pair."""
    single, multi = pair.single, pair.multi
    speedup = pair.speedup
    if multi.e2e_hours <= 0:
        non_compute = None
    elif multi.comm_hours is not None:
        non_compute = multi.comm_hours / multi.e2e_hours
    else:
        non_compute = 1 - multi.compute_hours / multi.e2e_hours
    hours_saved = single.e2e_hours - multi.e2e_hours
    # A zero-hour multi run that beats a positive single run is a (degenerate) positive gain.
    gain = speedup > 1 if speedup is not None else hours_saved > 0
    # Positional, in BenchmarkVerdict's field order (a third of the cost of keywords); the
    # scaling efficiency as pair.scaling_efficiency gives it, from the speedup just taken.
    return BenchmarkVerdict(
        pair.offer,
        speedup,
        run_scaling_efficiency(speedup, multi.gpus, single.gpus),
        gain,  # net_gain_positive
        non_compute,  # non_compute_share
        hours_saved,
        single.id,  # single_benchmark
        multi.id,  # multi_benchmark
        single.index,
        multi.index,
    )


def rerun_loss_eats_gain(pair: BenchmarkPair) -> bool:
    """SPEC B2: the multi run's expected rerun loss is at least the hours it saves."""
    saved = pair.single.e2e_hours - pair.multi.e2e_hours
    return pair.multi.failure_reruns * pair.multi.hours_lost_per_rerun >= saved


def judge_benchmarks(
    inp: EngineInput, pair: BenchmarkPair | None, verdict: BenchmarkVerdict | None = None
) -> tuple[BenchmarkVerdict, list[Finding]]:
    """SPEC B1–B3 on the reported pair (its verdict may be passed in when already computed)."""
    if pair is None:
        return BenchmarkVerdict(), []
    if verdict is None:
        verdict = pair_verdict(pair)
    single, multi = pair.single, pair.multi
    speedup, gain, hours_saved = verdict.speedup, verdict.net_gain_positive, verdict.hours_saved

    found: list[Finding] = []
    if not gain:
        # SPEC B1: cross-machine gain is negative.
        data = {"single_e2e": single.e2e_hours, "multi_e2e": multi.e2e_hours, "speedup": speedup}
        found.append(finding("B1", "warn", "B1", data))
        return verdict, found
    # B2 and B3 weigh costs against a gain, so they are judged only when there is one.
    rerun_loss = multi.failure_reruns * multi.hours_lost_per_rerun
    if rerun_loss_eats_gain(pair):
        # SPEC B2: expected rerun loss of the multi run eats the hours saved.
        data = {"rerun_loss_hours": rerun_loss, "hours_saved": hours_saved}
        found.append(finding("B2", "warn", "B2", data))
    efforts = [b.migration_effort_hours for b in inp.benchmarks if b.migration_effort_hours]
    if efforts:
        effort = max(efforts)
        task = inp.task
        runs_per_year = task.runs_per_quarter * 4 if task.cadence == "recurring" else 1.0
        yearly = hours_saved * runs_per_year
        if effort > yearly:
            # SPEC B3: retrofit costs more than a year of gains.
            data = {
                "migration_effort_hours": effort,
                "runs_per_year": runs_per_year,
                "yearly_hours_saved": yearly,
            }
            found.append(finding("B3", "warn", "B3", data))
    return verdict, found
