"""SPEC R (which platform layer to buy), its modifiers, and misjudgements J1, J2 and J4."""

from __future__ import annotations

from .bench_verdicts import BenchmarkPair
from .findings import Finding, finding
from .schema import EngineInput
from .sizing import Sizing

NEEDS_SCHEDULER = frozenset({"distributed_platform", "both"})


def choose_platform(
    inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None
) -> tuple[str, str, list[Finding]]:
    """Return (platform, rule id that set it, findings). The first matching rule wins."""
    task = inp.task
    team = task.team
    found: list[Finding] = []
    platform: str
    rule: str

    if pair is not None and pair.multi.e2e_hours >= pair.single.e2e_hours:
        # SPEC R0: multi-machine is not faster end to end; stay single.
        platform, rule = "compute_platform", "R0"
        data = {"single_e2e": pair.single.e2e_hours, "multi_e2e": pair.multi.e2e_hours}
        found.append(finding("R0", "info", "R0", data))
    elif not sizing.any_fits_single_machine:
        wanted = set(task.parallelism)
        splittable = bool(wanted) and any(wanted & set(o.parallelism) for o in inp.offers)
        if not splittable:
            # SPEC R1a: no offer fits one machine and nothing can split the task.
            platform, rule = "not_feasible", "R1a"
            data = {"parallelism": list(task.parallelism)}
            found.append(finding("R1a", "block", "R1a", data))
        elif task.cadence == "one_off" and not team.can_maintain_scheduler:
            # SPEC R1b: one-off job, nobody to maintain a scheduler: rent capacity.
            platform, rule = "compute_platform", "R1b"
            found.append(finding("R1b", "info", "R1b", {}))
        elif not team.has_machines:
            # SPEC R1c: no machines either: both layers.
            platform, rule = "both", "R1c"
            found.append(finding("R1c", "info", "R1c", {}))
        else:
            # SPEC R1d: machines in hand, the split is what is missing.
            platform, rule = "distributed_platform", "R1d"
            found.append(finding("R1d", "info", "R1d", {}))
    elif sizing.source != "measured" and all(
        s.near_capacity for s in sizing.offers if s.fits_single_machine
    ):
        # SPEC R2: only just fits everywhere and nothing measured: baseline first.
        platform, rule = "baseline_first", "R2"
        band_pct = inp.thresholds["near_capacity_band"] * 100
        found.append(finding("R2", "info", "R2", {"band_pct": band_pct}))
    elif team.pain == "queueing":
        # SPEC R3: queueing means a scheduling layer is missing.
        rule = "R3"
        if team.can_maintain_scheduler:
            platform = "distributed_platform"
            found.append(finding("R3", "info", "R3.distributed", {}))
        else:
            platform = "compute_platform"
            found.append(finding("R3", "info", "R3.compute", {}))
    elif team.has_machines and team.has_scheduler and team.pain == "slow":
        # SPEC R4: machines and scheduler in place but slow: look at both.
        platform, rule = "both", "R4"
        found.append(finding("R4", "info", "R4", {}))
    else:
        # SPEC R5: otherwise a compute platform.
        platform, rule = "compute_platform", "R5"
        found.append(finding("R5", "info", "R5", {}))

    if platform in NEEDS_SCHEDULER:
        if task.cadence == "recurring":
            # SPEC R modifier: recurring distributed work becomes a template.
            found.append(finding("R-mod", "info", "R-mod", {"cadence": task.cadence}))
        if not team.has_machines and not any(o.kind in ("compute", "managed") for o in inp.offers):
            # SPEC J1: a distributed platform produces no compute.
            found.append(finding("J1", "warn", "J1", {"platform": platform}))
        if pair is None:
            # SPEC J2 (also the R modifier "without a multi benchmark"): no single-vs-multi pair.
            kinds = {b.kind for b in inp.benchmarks}
            data = {"has_single": "single" in kinds, "has_multi": "multi" in kinds}
            found.append(finding("J2", "warn", "J2", data))
    if not team.can_maintain_scheduler and (
        platform in NEEDS_SCHEDULER or (rule == "R3" and platform == "compute_platform")
    ):
        # SPEC J4: the plan needs a scheduler; using is not maintaining.
        found.append(finding("J4", "warn", "J4", {"platform": platform, "rule": rule}))
    return platform, rule, found
