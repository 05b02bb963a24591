"""SPEC B: benchmark verdicts of a single-machine vs multi-machine pair."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .schema import Benchmark, EngineInput


@dataclass(slots=True)
class BenchmarkPair:
    single: Benchmark
    multi: Benchmark


@dataclass(slots=True)
class BenchmarkVerdict:
    speedup: float | None = None
    scaling_efficiency: float | None = None
    net_gain_positive: bool | None = None
    non_compute_share: float | None = None
    hours_saved: float | None = None  # per run: e2e single − e2e multi
    single_benchmark: str | None = None  # the compared records' ids, when the input gives them
    multi_benchmark: str | None = None
    single_index: int | None = None  # positions in the input's benchmarks list
    multi_index: int | None = None


def _fastest(records: list[Benchmark]) -> Benchmark | None:
    # Ties keep the first record in input order.
    best: Benchmark | None = None
    for record in records:
        if best is None or record.e2e_hours < best.e2e_hours:
            best = record
    return best


def find_pair(inp: EngineInput) -> BenchmarkPair | None:
    """SPEC R0/B: the fastest single run and the fastest multi run of the task, if both exist."""
    single = _fastest([b for b in inp.benchmarks if b.kind == "single"])
    multi = _fastest([b for b in inp.benchmarks if b.kind == "multi"])
    if single is None or multi is None:
        return None
    return BenchmarkPair(single, multi)


def judge_benchmarks(
    inp: EngineInput, pair: BenchmarkPair | None
) -> tuple[BenchmarkVerdict, list[Finding]]:
    if pair is None:
        return BenchmarkVerdict(), []
    single, multi = pair.single, pair.multi
    speedup = single.e2e_hours / multi.e2e_hours if multi.e2e_hours > 0 else None
    efficiency = None
    if speedup is not None:
        efficiency = speedup / (multi.gpus / single.gpus)
    if multi.e2e_hours <= 0:
        non_compute = None
    elif multi.comm_hours is not None:
        non_compute = multi.comm_hours / multi.e2e_hours
    else:
        non_compute = 1 - multi.compute_hours / multi.e2e_hours
    hours_saved = single.e2e_hours - multi.e2e_hours
    # A zero-hour multi run that beats a positive single run is a (degenerate) positive gain.
    gain = speedup > 1 if speedup is not None else hours_saved > 0
    verdict = BenchmarkVerdict(
        speedup=speedup,
        scaling_efficiency=efficiency,
        net_gain_positive=gain,
        non_compute_share=non_compute,
        hours_saved=hours_saved,
        single_benchmark=single.id,
        multi_benchmark=multi.id,
        single_index=single.index,
        multi_index=multi.index,
    )

    found: list[Finding] = []
    if not gain:
        # SPEC B1: cross-machine gain is negative.
        data = {"single_e2e": single.e2e_hours, "multi_e2e": multi.e2e_hours, "speedup": speedup}
        found.append(finding("B1", "warn", "B1", data))
        return verdict, found
    # B2 and B3 weigh costs against a gain, so they are judged only when there is one.
    rerun_loss = multi.failure_reruns * multi.hours_lost_per_rerun
    if rerun_loss >= hours_saved:
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
