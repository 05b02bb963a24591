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
    platform, rule, first = _first_matching_rule(inp, sizing, pair)
    found = [first]
    platform, rule, more = _long_run_without_resume(inp, sizing, chosen, platform, rule)
    found += more
    delivery: str | None = None
    if platform in NEEDS_SCHEDULER:
        delivery = "self_hosted" if inp.task.team.can_maintain_scheduler else "managed"
        found += _distributed_layer_findings(inp, pair, platform, delivery)
    found += _scheduler_upkeep(inp, platform, rule)
    return PlatformChoice(platform, rule, delivery), found


# A rule's match: the platform, the rule id and its finding.
Match = tuple[str, str, Finding]


def _first_matching_rule(inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None) -> Match:
    """SPEC R0–R6 in order: the first that matches; else R5, a compute platform."""
    for rule_of in (
        _multi_not_faster,
        _model_cannot_be_split,
        _no_offer_fits_one_machine,
        _measured_gain,
        _baseline_first,
        _queueing,
        _slow_with_scheduler,
    ):
        match = rule_of(inp, sizing, pair)
        if match is not None:
            return match
    # SPEC R5: otherwise a compute platform.
    return "compute_platform", "R5", finding("R5", "info", "R5", {})


def _multi_not_faster(inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None) -> Match | None:
    if pair is not None and pair.multi.e2e_hours >= pair.single.e2e_hours:
        # SPEC R0: multi-machine is not faster end to end (same offer); stay single.
        data = {
            "single_e2e": pair.single.e2e_hours,
            "multi_e2e": pair.multi.e2e_hours,
            "offer": pair.offer,
        }
        return "compute_platform", "R0", finding("R0", "info", "R0", data)
    return None


def _model_cannot_be_split(
    inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None
) -> Match | None:
    if _model_cannot_be_placed(inp, sizing) and inp.offers:
        # SPEC 6.1 R1a v2: the model must be split and no shared strategy can split it.
        data = {"parallelism": list(inp.task.parallelism)}
        return "not_feasible", "R1a", finding("R1a", "block", "R1a.split", data)
    return None


def _no_offer_fits_one_machine(
    inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None
) -> Match | None:
    if sizing.any_fits_single_machine:
        return None
    task = inp.task
    team = task.team
    wanted = set(task.parallelism)
    splittable = bool(wanted) and any(wanted & set(o.parallelism) for o in inp.offers)
    if not splittable:
        # SPEC R1a: no offer fits one machine and nothing can split the task.
        data = {"parallelism": list(task.parallelism)}
        return "not_feasible", "R1a", finding("R1a", "block", "R1a", data)
    if task.cadence == "one_off" and not team.can_maintain_scheduler:
        # SPEC R1b: one-off job, nobody to maintain a scheduler: rent capacity.
        return "compute_platform", "R1b", finding("R1b", "info", "R1b", {})
    if not team.has_machines:
        # SPEC R1c: no machines either: both layers.
        return "both", "R1c", finding("R1c", "info", "R1c", {})
    # SPEC R1d: machines in hand, the split is what is missing.
    return "distributed_platform", "R1d", finding("R1d", "info", "R1d", {})


def _measured_gain(inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None) -> Match | None:
    th = inp.thresholds
    if (
        pair is not None
        and (pair.speedup or 0) > 1
        and (pair.scaling_efficiency or 0) >= th["scaling_efficiency_min"]
        and not rerun_loss_eats_gain(pair)
        and inp.task.cadence == "recurring"
    ):
        # SPEC 6.1 R6: a clear measured cross-machine gain on a recurring job.
        platform = "distributed_platform" if inp.task.team.has_machines else "both"
        data = {
            "offer": pair.offer,
            "speedup": pair.speedup,
            "scaling_efficiency": pair.scaling_efficiency,
            "limit": th["scaling_efficiency_min"],
        }
        return platform, "R6", finding("R6", "info", "R6", data)
    return None


def _baseline_first(inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None) -> Match | None:
    any_pair = pair is not None
    if (
        sizing.source != "measured"
        and all(s.near_capacity for s in sizing.offers if s.fits_single_machine)
    ) or (not any_pair and _exceeds_one_machine(inp, sizing)):
        # SPEC R2 / 6.1 R2 v2: only just fits everywhere and nothing measured, or the planned
        # GPUs exceed one machine with no single/multi pair: baseline first.
        if _exceeds_one_machine(inp, sizing) and not any_pair:
            return "baseline_first", "R2", finding("R2", "info", "R2.gpus", {"gpus": inp.task.gpus})
        band_pct = inp.thresholds["near_capacity_band"] * 100
        return "baseline_first", "R2", finding("R2", "info", "R2", {"band_pct": band_pct})
    return None


def _queueing(inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None) -> Match | None:
    team = inp.task.team
    if team.pain == "queueing":
        # SPEC R3: queueing means a scheduling layer is missing.
        if team.can_maintain_scheduler:
            return "distributed_platform", "R3", finding("R3", "info", "R3.distributed", {})
        return "compute_platform", "R3", finding("R3", "info", "R3.compute", {})
    return None


def _slow_with_scheduler(
    inp: EngineInput, sizing: Sizing, pair: BenchmarkPair | None
) -> Match | None:
    team = inp.task.team
    if team.has_machines and team.has_scheduler and team.pain == "slow":
        # SPEC R4: machines and scheduler in place but slow: look at both.
        return "both", "R4", finding("R4", "info", "R4", {})
    return None


def _long_run_without_resume(
    inp: EngineInput, sizing: Sizing, chosen: PlacementOption | None, platform: str, rule: str
) -> tuple[str, str, list[Finding]]:
    task = inp.task
    th = inp.thresholds
    if (
        platform != "not_feasible"
        and task.compute_hours >= th["long_run_hours"]
        and not task.resumable
        and _plan_spans_machines(sizing, chosen)
    ):
        # SPEC 6.1 R7: a long multi-machine run without resume: the distributed layer must give
        # resume or partial retry; a compute platform alone becomes both.
        data = {"compute_hours": task.compute_hours, "limit": th["long_run_hours"]}
        if platform == "compute_platform":
            platform, rule = "both", "R7"
        return platform, rule, [finding("R7", "warn", "R7", data)]
    return platform, rule, []


def _distributed_layer_findings(
    inp: EngineInput, pair: BenchmarkPair | None, platform: str, delivery: str
) -> list[Finding]:
    """What buying a distributed layer brings with it: R-mod, J1, J2, R1e and J4."""
    task = inp.task
    team = task.team
    found: list[Finding] = []
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
    return found


def _scheduler_upkeep(inp: EngineInput, platform: str, rule: str) -> list[Finding]:
    if not inp.task.team.can_maintain_scheduler and (
        platform in NEEDS_SCHEDULER or (rule == "R3" and platform == "compute_platform")
    ):
        # SPEC J4: the plan needs a scheduler; using is not maintaining.
        return [finding("J4", "warn", "J4", {"platform": platform, "rule": rule})]
    return []
