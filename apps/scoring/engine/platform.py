"""SPEC R with the corrections of 6.1 (which platform layer to buy, and how to get the distributed
layer), its modifiers, and misjudgements J1, J2 and J4."""

from __future__ import annotations

from dataclasses import dataclass

from .bench_verdicts import BenchmarkPair, rerun_loss_eats_gain
from .findings import Finding, finding
from .placement import PlacementOption
from .schema import MODEL_SPLITTING, EngineInput
from .sizing import Sizing

NEEDS_SCHEDULER = frozenset({"distributed_platform", "both"})


@dataclass(slots=True)
class PlatformChoice:
    platform: str
    rule: str  # the rule id that set it
    delivery: str | None  # SPEC 6.1 R1e: managed | self_hosted when a distributed layer is bought


def _model_cannot_be_placed(inp: EngineInput, sizing: Sizing) -> bool:
    """SPEC 6.1 R1a v2: on no offer does one replica fit one GPU or split over GPUs with a
    strategy that both the task and the offer support (plain data copies the whole model)."""
    wanted = MODEL_SPLITTING.intersection(inp.task.parallelism)
    return not any(
        sizing.by_offer[o.id].fits_single_gpu or wanted.intersection(o.parallelism)
        for o in inp.offers
    )


def _exceeds_one_machine(inp: EngineInput, sizing: Sizing) -> bool:
    """SPEC 6.1 R2 v2: the planned GPUs exceed one machine of every fitting candidate."""
    gpus = inp.task.gpus
    fitting = [o for o in inp.offers if sizing.by_offer[o.id].fits_single_machine]
    return gpus is not None and bool(fitting) and all(gpus > o.gpus_per_machine for o in fitting)


def _plan_spans_machines(sizing: Sizing, chosen: PlacementOption | None) -> bool:
    """SPEC 6.1 R7: the plan needs more than one machine (the chosen option's GPUs, or memory)."""
    if chosen is not None:
        return chosen.gpus > chosen.offer.gpus_per_machine or (
            sizing.by_offer[chosen.offer.id].machines_needed > 1
        )
    return bool(sizing.offers) and not sizing.any_fits_single_machine


def choose_platform(
    inp: EngineInput,
    sizing: Sizing,
    pair: BenchmarkPair | None,
    chosen: PlacementOption | None,
) -> tuple[PlatformChoice, list[Finding]]:
    """The first matching rule sets the platform; R7 may then add the distributed layer."""
    task = inp.task
    team = task.team
    th = inp.thresholds
    found: list[Finding] = []
    platform: str
    rule: str
    any_pair = pair is not None

    if pair is not None and pair.multi.e2e_hours >= pair.single.e2e_hours:
        # SPEC R0: multi-machine is not faster end to end (same offer); stay single.
        platform, rule = "compute_platform", "R0"
        data = {
            "single_e2e": pair.single.e2e_hours,
            "multi_e2e": pair.multi.e2e_hours,
            "offer": pair.offer,
        }
        found.append(finding("R0", "info", "R0", data))
    elif _model_cannot_be_placed(inp, sizing) and inp.offers:
        # SPEC 6.1 R1a v2: the model must be split and no shared strategy can split it.
        platform, rule = "not_feasible", "R1a"
        data = {"parallelism": list(task.parallelism)}
        found.append(finding("R1a", "block", "R1a.split", data))
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
    elif (
        pair is not None
        and (pair.speedup or 0) > 1
        and (pair.scaling_efficiency or 0) >= th["scaling_efficiency_min"]
        and not rerun_loss_eats_gain(pair)
        and task.cadence == "recurring"
    ):
        # SPEC 6.1 R6: a clear measured cross-machine gain on a recurring job.
        platform = "distributed_platform" if team.has_machines else "both"
        rule = "R6"
        data = {
            "offer": pair.offer,
            "speedup": pair.speedup,
            "scaling_efficiency": pair.scaling_efficiency,
            "limit": th["scaling_efficiency_min"],
        }
        found.append(finding("R6", "info", "R6", data))
    elif (
        sizing.source != "measured"
        and all(s.near_capacity for s in sizing.offers if s.fits_single_machine)
    ) or (not any_pair and _exceeds_one_machine(inp, sizing)):
        # SPEC R2 / 6.1 R2 v2: only just fits everywhere and nothing measured, or the planned
        # GPUs exceed one machine with no single/multi pair: baseline first.
        platform, rule = "baseline_first", "R2"
        if _exceeds_one_machine(inp, sizing) and not any_pair:
            found.append(finding("R2", "info", "R2.gpus", {"gpus": task.gpus}))
        else:
            band_pct = th["near_capacity_band"] * 100
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

    if (
        platform != "not_feasible"
        and task.compute_hours >= th["long_run_hours"]
        and not task.resumable
        and _plan_spans_machines(sizing, chosen)
    ):
        # SPEC 6.1 R7: a long multi-machine run without resume: the distributed layer must give
        # resume or partial retry; a compute platform alone becomes both.
        data = {"compute_hours": task.compute_hours, "limit": th["long_run_hours"]}
        found.append(finding("R7", "warn", "R7", data))
        if platform == "compute_platform":
            platform, rule = "both", "R7"

    delivery: str | None = None
    if platform in NEEDS_SCHEDULER:
        delivery = "self_hosted" if team.can_maintain_scheduler else "managed"
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
        if delivery == "managed":
            # SPEC 6.1 R1e: buy the distributed layer managed; self-hosting it is J4, a block.
            found.append(finding("R1e", "info", "R1e", {"platform": platform}))
            for offer in inp.offers:
                if offer.kind == "distributed":
                    data = {"offer": offer.id, "platform": platform}
                    found.append(finding("J4", "block", "J4.self_hosted", data, offer.id))
    if not team.can_maintain_scheduler and (
        platform in NEEDS_SCHEDULER or (rule == "R3" and platform == "compute_platform")
    ):
        # SPEC J4: the plan needs a scheduler; using is not maintaining.
        found.append(finding("J4", "warn", "J4", {"platform": platform, "rule": rule}))
    return PlatformChoice(platform, rule, delivery), found
