"""The pipeline: sizing → checklists → eligibility → placement → hints → benchmark pairs →
platform → benchmark verdicts → indicators → rollout → bill, then findings in a fixed rule order.
(Placement comes before the platform since 2.0: the reported benchmark pair breaks ties by the
chosen offer, and R7 reads the chosen plan.)"""

from __future__ import annotations

from typing import Any

from .bench_verdicts import (
    BenchmarkVerdict,
    find_pairs,
    judge_benchmarks,
    pair_verdict,
    reported_pair,
)
from .bill import total_bill
from .checklist import checklist_gates
from .cross_domain import CrossDomain, judge_cross_domain, preemption_warnings
from .deadlines import cost_budget_finding, deadline_plans
from .findings import Finding, finding, ordered, render_messages
from .hints import spread_hint, staged_plan_hint, staging_hint
from .indicators import indicators
from .network import Network
from .output import EngineOutput
from .placement import SIZE_REASONS, PlacementOption, build_option, choose_option
from .platform import PlatformChoice, choose_platform
from .rollout import rollout
from .run_losses import OfferRecords, offer_records
from .scheduler_ops import scheduler_ops_cost, self_hosting_note
from .schema import ENGINE_VERSION, EngineInput
from .sensitivity import sensitivity, tell
from .sizing import Sizing, size_for_budget, size_task, sizing_note
from .validation import parse_input


def evaluate_input(inp: EngineInput, *, with_sensitivity: bool = True) -> EngineOutput:
    """Evaluate parsed input. Pure: reads nothing but its argument and changes nothing.
    `with_sensitivity=False` leaves out SPEC 6.3's break-even values (`sensitivity` is [])."""
    sizing = size_task(inp)
    gates, found = checklist_gates(inp)
    cross = judge_cross_domain(inp)
    found += cross.findings
    found += preemption_warnings(inp)

    options, chosen, placed, records = _place(inp, sizing, cross)
    platform, verdict, verdicts, more = _platform_and_benchmarks(inp, sizing, chosen)
    # SPEC 7.11: a self-hosted distributed layer prices its upkeep on the distributed
    # candidates, and the choice is made again with it (the layer itself was decided above).
    ops = scheduler_ops_cost(inp, platform)
    if ops > 0 and any(o.offer.kind == "distributed" for o in options):
        options, chosen, placed, records = _place(inp, sizing, cross, ops)
        more += self_hosting_note(inp, options, ops, platform)
    found += placed
    # SPEC 7.8: A counts the offers where the task is not refused for its size.
    fits = sum([1 for o in options if SIZE_REASONS.isdisjoint(o.reasons)])
    found.append(sizing_note(inp.task, sizing, fits))
    found += more

    # SPEC 7.7: what meeting the compute budget costs on each offer that misses it.
    plans = deadline_plans(inp, sizing, options, chosen, records)

    metrics, more = indicators(inp, options, chosen, cross.eligible, plans)
    found += more
    readiness, more = rollout(inp, chosen)
    found += more
    bill, more = total_bill(inp, options)
    found += more
    names = {o.id: o.name for o in inp.offers if o.name}
    second, flips = sensitivity(inp, options, chosen) if with_sensitivity else (None, [])
    tell(flips, names)

    # Positional, in EngineOutput's field order (a third of the cost of keywords).
    return EngineOutput(
        ENGINE_VERSION,
        inp.thresholds,  # copied by to_dict (the input's own: nothing here changes it)
        inp.currency,
        sizing,
        platform,
        verdict,  # benchmark
        verdicts,  # pairs
        cross,  # cross_domain
        options,
        chosen,
        metrics,
        readiness,
        gates,  # checklists
        ordered(render_messages(found, names)),  # findings
        bill,
        [o.id for o in inp.offers],  # offer_ids
        second,  # runner_up
        flips,  # sensitivity
        plans,  # deadline_plans
    )


def _place(
    inp: EngineInput, sizing: Sizing, cross: CrossDomain, ops: float = 0.0
) -> tuple[list[PlacementOption], PlacementOption | None, list[Finding], dict[str, OfferRecords]]:
    """P placement of every offer, the chosen option, P4, then the D2, K2 and K3 hints; and the
    offers' records (SPEC 7.7's deadline plans read them again). `ops`: SPEC 7.11's scheduler
    operations a run, added to the distributed candidates."""
    net = Network(inp.sites, inp.links)
    plans: dict = {}
    records = offer_records(inp)
    options = [
        build_option(
            inp,
            net,
            cross,
            offer,
            sizing.by_offer[offer.id],
            plans,
            records.get(offer.id),
            ops if offer.kind == "distributed" else 0.0,
        )
        for offer in inp.offers
    ]
    chosen, found = choose_option(options, inp.task.cost_budget)
    found += cost_budget_finding(inp, options, chosen)  # SPEC 7.7 P4
    if chosen is None:
        found += too_few_gpus(sizing, options)
    elif chosen.fabric_unconfirmed:
        # SPEC 7.4 K3: a tight job over machines whose interconnect nobody recorded.
        machines = -(-chosen.gpus // chosen.offer.gpus_per_machine)
        data = {"offer": chosen.offer.id, "machines": machines, "gpus": chosen.gpus}
        found.append(finding("K3", "warn", "K3", data, chosen.offer.id))
    if inp.task.gpus is None:
        # SPEC 6.1 P3: compute hours without the GPU count they were measured on.
        found.append(finding("P3", "block", "P3", {}))
    found += staging_hint(inp, options, chosen)
    found += staged_plan_hint(inp, options, chosen)
    found += spread_hint(inp, net, cross, options)
    return options, chosen, found, records


def too_few_gpus(sizing: Sizing, options: list[PlacementOption]) -> list[Finding]:
    """SPEC 7.1 A2: no option is feasible and some are refused only for too few GPUs: plan at
    least N GPUs, N the least gpus_needed among those; the fix rounds N up to whole machines of
    that offer when N exceeds one machine."""
    short = [o for o in options if o.reasons == ["too_few_gpus"]]
    if not short:
        return []
    best = min(short, key=lambda o: sizing.by_offer[o.offer.id].gpus_needed)
    need = sizing.by_offer[best.offer.id].gpus_needed
    per_machine = best.offer.gpus_per_machine
    fix = need if need <= per_machine else -(-need // per_machine) * per_machine
    data = {"planned": best.gpus, "gpus": need, "offer": best.offer.id, "fix_gpus": fix}
    return [finding("A2", "block", "A2", data)]


def _platform_and_benchmarks(
    inp: EngineInput, sizing: Sizing, chosen: PlacementOption | None
) -> tuple[PlatformChoice, BenchmarkVerdict, list[BenchmarkVerdict], list[Finding]]:
    """Benchmark pairs, 6.3 deadline sizing, R platform, then B benchmark verdicts."""
    # SPEC 6.1: like-for-like pairs per offer; the reported one breaks ties by the chosen offer.
    pairs = find_pairs(inp)
    pair = reported_pair(pairs, chosen.offer.id if chosen is not None else None)
    if pair is None:
        size_for_budget(inp, sizing, None)
    else:
        size_for_budget(inp, sizing, pair.scaling_efficiency, pair.multi.gpus)
    platform, found = choose_platform(inp, sizing, pair, chosen)
    verdicts = [pair_verdict(p) for p in pairs]
    by_offer = {v.offer: v for v in verdicts}  # the reported pair's verdict is among them
    verdict, more = judge_benchmarks(inp, pair, by_offer.get(pair.offer) if pair else None)
    found += more
    return platform, verdict, verdicts, found


def evaluate(data: Any, *, with_sensitivity: bool = True) -> dict[str, Any]:
    """evaluate(input JSON) → output JSON (SPEC 4). Raises EngineInputError on bad input."""
    return evaluate_input(parse_input(data), with_sensitivity=with_sensitivity).to_dict()
