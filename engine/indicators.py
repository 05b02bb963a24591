"""SPEC M: the four indicators (四个指标) of the chosen option."""

from __future__ import annotations

from dataclasses import dataclass, field

from .deadlines import DeadlinePlan, cheapest_plan
from .findings import Finding, finding
from .placement import PlacementOption, cheapest_within_budget, over_budget
from .schema import EngineInput


@dataclass(slots=True)
class Metrics:
    data_compute_ratio: float | None = None
    network_cost_share: float | None = None
    interruption_cost: float | None = None
    scheduling_benefit: float | None = None
    over_budget: list[str] = field(default_factory=list)


def best_wait_local(options: list[PlacementOption]) -> PlacementOption | None:
    """The feasible wait_local option of least objective (ties: site code, offer id)."""
    local = [o for o in options if o.kind == "wait_local" and o.feasible]
    if not local:
        return None
    return min(local, key=lambda o: (o.objective, o.site, o.offer.id))


def indicators(
    inp: EngineInput,
    options: list[PlacementOption],
    chosen: PlacementOption | None,
    eligible: bool,
    plans: list[DeadlinePlan] | None = None,
) -> tuple[Metrics, list[Finding]]:
    """SPEC M: the four indicators; `eligible`: the task may move (SPEC X), which M1 reads;
    `plans`: SPEC 7.7's deadline plans, whose cheapest M3 names."""
    metrics = Metrics()
    found = _data_compute_ratio(inp, metrics, eligible)
    if chosen is None:
        return metrics, found
    found += _interruption_vs_scheduling(inp, options, chosen, metrics)
    found += _over_budget(inp, options, chosen, metrics, plans or [])
    found += _network_cost_share(inp, chosen, metrics)
    return metrics, found


def _data_compute_ratio(inp: EngineInput, metrics: Metrics, eligible: bool) -> list[Finding]:
    """SPEC M1: data/compute ratio in GB per compute hour (null when there are no compute hours);
    SPEC 7.8: a light task that is not eligible to move is not told to schedule freely."""
    task = inp.task
    th = inp.thresholds
    found: list[Finding] = []
    if task.compute_hours > 0:
        ratio = task.input_gb * task.compress_ratio / task.compute_hours
        metrics.data_compute_ratio = ratio
        if ratio >= th["data_compute_high"]:
            data = {"ratio": ratio, "limit": th["data_compute_high"]}
            found.append(finding("M1", "info", "M1.high", data))
        elif ratio < th["data_compute_low"]:
            data = {"ratio": ratio, "limit": th["data_compute_low"]}
            found.append(finding("M1", "info", "M1.low" if eligible else "M1.low.stays", data))
    return found


def _interruption_vs_scheduling(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption, metrics: Metrics
) -> list[Finding]:
    """SPEC M2: interruption cost vs scheduling benefit."""
    interruption_cost = inp.task.interruption_cost_hours * chosen.hourly_burn
    metrics.interruption_cost = interruption_cost
    local = best_wait_local(options)
    if local is not None and local.objective is not None and chosen.objective is not None:
        benefit = local.objective - chosen.objective
        metrics.scheduling_benefit = benefit
        if interruption_cost > benefit and chosen.kind != "wait_local":
            data = {"interruption_cost": interruption_cost, "scheduling_benefit": benefit}
            return [finding("M2", "warn", "M2", data)]
    return []


def _over_budget(
    inp: EngineInput,
    options: list[PlacementOption],
    chosen: PlacementOption,
    metrics: Metrics,
    plans: list[DeadlinePlan],
) -> list[Finding]:
    """SPEC M3 / 6.1: each segment of the chosen option over its budget, with the cheapest
    feasible option that meets every budget and what it costs more; SPEC 7.7: the compute
    segment's warning also names the cheapest deadline plan."""
    found: list[Finding] = []
    metrics.over_budget = over_budget(inp, chosen)
    budget = inp.task.latency_budget_hours
    alternative = cheapest_within_budget(options) if metrics.over_budget else None
    for segment in metrics.over_budget:
        data = {
            "segment": segment,
            "hours": chosen.segment_hours(segment),
            "budget": budget.get(segment),
        }
        key = "M3"
        if alternative is not None and alternative.total_cost is not None:
            key = "M3.alternative"
            data.update(
                kind=alternative.kind,
                site=alternative.site,
                offer=alternative.offer.id,
                extra_cost=alternative.total_cost - (chosen.total_cost or 0.0),
            )
        plan = cheapest_plan(plans) if segment == "compute" else None
        if plan is not None:
            key += ".deadline"
            data.update(plan_offer=plan.offer, plan_gpus=plan.gpus, plan_extra_cost=plan.extra_cost)
        found.append(finding("M3", "warn", key, data))
    return found


def _network_cost_share(
    inp: EngineInput, chosen: PlacementOption, metrics: Metrics
) -> list[Finding]:
    """SPEC M4: network cost share of the chosen option (null when it costs nothing)."""
    if chosen.total_cost and chosen.transfer_cost is not None:
        share = chosen.transfer_cost / chosen.total_cost
        metrics.network_cost_share = share
        limit = inp.thresholds["network_cost_share"]
        if share > limit:
            data = {
                "share": share,
                "limit": limit,
                "share_pct": share * 100,
                "limit_pct": limit * 100,
            }
            return [finding("M4", "warn", "M4", data)]
    return []
