"""The pipeline: sizing → platform → checklists → benchmarks → eligibility → placement →
indicators → rollout → bill, then findings in a fixed rule order."""

from __future__ import annotations

from typing import Any

from .bench_verdicts import find_pair, judge_benchmarks
from .bill import total_bill
from .checklist import checklist_gates
from .cross_domain import judge_cross_domain
from .findings import name_offers, ordered
from .indicators import indicators
from .network import Network
from .output import EngineOutput
from .placement import build_option, choose_option
from .platform import choose_platform
from .rollout import rollout
from .schema import ENGINE_VERSION, EngineInput
from .sizing import size_task
from .validation import parse_input


def evaluate_input(inp: EngineInput) -> EngineOutput:
    """Evaluate parsed input. Pure: reads nothing but its argument and changes nothing."""
    sizing, found = size_task(inp)
    pair = find_pair(inp)
    platform, platform_rule, more = choose_platform(inp, sizing, pair)
    found += more
    gates, more = checklist_gates(inp)
    found += more
    verdict, more = judge_benchmarks(inp, pair)
    found += more
    cross = judge_cross_domain(inp)
    found += cross.findings

    net = Network(inp.sites, inp.links)
    options = [
        build_option(inp, net, cross, offer, sizing.by_offer[offer.id]) for offer in inp.offers
    ]
    chosen, more = choose_option(options)
    found += more
    metrics, more = indicators(inp, options, chosen)
    found += more
    readiness, more = rollout(inp, chosen)
    found += more
    bill, more = total_bill(inp, options)
    found += more

    return EngineOutput(
        engine_version=ENGINE_VERSION,
        thresholds=dict(inp.thresholds),
        sizing=sizing,
        platform=platform,
        platform_rule=platform_rule,
        benchmark=verdict,
        cross_domain=cross,
        options=options,
        chosen=chosen,
        metrics=metrics,
        readiness=readiness,
        checklists=gates,
        findings=ordered(name_offers(found, {o.id: o.name for o in inp.offers if o.name})),
        bill=bill,
        offer_ids=[o.id for o in inp.offers],
    )


def evaluate(data: Any) -> dict[str, Any]:
    """evaluate(input JSON) → output JSON (SPEC 4). Raises EngineInputError on bad input."""
    return evaluate_input(parse_input(data)).to_dict()
