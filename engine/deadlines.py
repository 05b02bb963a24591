"""SPEC 7.7: budgets in money (cost_budget, P4) and what meeting the compute budget costs on each
offer that misses it (deadline_plans[], read by M3)."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .placement import PlacementOption, tie_key
from .pricing import billed_gpus, compute_bill
from .run_losses import OfferRecords, fabric, failure_terms
from .schema import EngineInput
from .sizing import Sizing


@dataclass(slots=True)
class DeadlinePlan:
    """One offer's plan to meet the compute budget at `gpus` GPUs (SPEC 7.7), or, with `reason`
    set, why it gets none (`preemptible`: its hours are not its to promise, 7.10)."""

    offer: str
    reason: str | None = None
    gpus: int | None = None
    billed_gpus: int | None = None
    compute_hours: float | None = None
    compute_cost: float | None = None
    scheduling_cost: float | None = None
    rerun_cost: float | None = None
    total_cost: float | None = None
    extra_cost: float | None = None  # total_cost − the chosen option's total_cost
    efficiency: float | None = None  # the scaling efficiency counted (1 within one machine)
    efficiency_source: str | None = None  # measured | threshold, as for gpus_for_budget
    extrapolated: bool | None = None


def cost_budget_finding(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption | None
) -> list[Finding]:
    """SPEC 7.7 P4 (warn): the chosen option's total_cost exceeds the task's cost_budget; names
    the least-objective feasible option within it and the hours it adds (P4.none: there is
    none)."""
    budget = inp.task.cost_budget
    if budget is None or chosen is None or chosen.within_cost_budget is not False:
        return []
    data: dict = {"cost_budget": budget, "total_cost": chosen.total_cost}
    within = [o for o in options if o.feasible and o.within_cost_budget]
    if not within:
        return [finding("P4", "warn", "P4.none", data)]
    best = min(within, key=lambda o: (o.objective, *tie_key(o)))
    data.update(
        kind=best.kind,
        site=best.site,
        offer=best.offer.id,
        alternative_cost=best.total_cost,
        # Both have total hours: within_cost_budget is set only with a total (placement).
        extra_hours=best.total_hours - chosen.total_hours,  # type: ignore[operator]
    )
    return [finding("P4", "warn", "P4", data)]


def deadline_plans(
    inp: EngineInput,
    sizing: Sizing,
    options: list[PlacementOption],
    chosen: PlacementOption | None,
    records: dict[str, OfferRecords],
) -> list[DeadlinePlan]:
    """SPEC 7.7 and 7.10: per offer whose option misses the compute budget (compute + preemption
    hours) at the planned GPUs: the plan at gpus_for_budget, its compute cost in whole machines
    as billed (SPEC 6.1, a package as 7.6 bills it), the scheduling fee and rerun cost worked
    out again at those GPUs, the option's other lines; none for a preemptible offer (reason
    `preemptible`), nor for an option refused for anything more GPUs do not mend, nor where those
    GPUs would span machines a tight job may not (SPEC 7.4)."""
    task = inp.task
    budget = task.latency_budget_hours.compute
    if budget is None or task.gpus is None:
        return []
    base = None if chosen is None else chosen.total_cost
    plans: list[DeadlinePlan] = []
    for option in options:
        run = option.run_hours
        if run is not None and run <= budget:
            continue  # meets it already
        offer = option.offer
        if offer.preemptible:
            plans.append(DeadlinePlan(offer.id, "preemptible"))
            continue
        row = sizing.by_offer[offer.id]
        gpus = row.gpus_for_budget
        if gpus is None or option.transfer_cost is None or not _mended(option, gpus, row):
            continue
        if fabric(task, offer, gpus, records.get(offer.id)) == "refused":
            continue  # SPEC 7.4: at those GPUs a tight job would span machines joined by ethernet
        work = task.compute_hours * task.gpus  # GPU-hours at speed 1.0, as gpus_for_budget
        plans.append(_plan(inp, sizing, option, gpus, work, records.get(offer.id), base))
    return plans


def _mended(option: PlacementOption, gpus: int, row) -> bool:
    """More GPUs mend only `too_few_gpus`, once they hold one replica."""
    for reason in option.reasons:
        if reason != "too_few_gpus" or gpus < row.gpus_needed:
            return False
    return True


def _plan(
    inp: EngineInput,
    sizing: Sizing,
    option: PlacementOption,
    gpus: int,
    work: float,
    records: OfferRecords | None,
    base: float | None,
) -> DeadlinePlan:
    task = inp.task
    offer = option.offer
    # More than one machine (⌈GPUs ÷ gpus_per_machine⌉ > 1, SPEC 7.10) is more GPUs than one holds.
    spans = gpus > offer.gpus_per_machine
    # SPEC 6.3 deadline sizing: every GPU counts at e beyond one machine (size_for_budget set e
    # with the compute budget, and gpus_for_budget is None when e is 0).
    efficiency = 1.0
    if spans:
        assert sizing.budget_efficiency is not None
        efficiency = sizing.budget_efficiency
    hours = work / (gpus * efficiency * offer.relative_speed)
    billed = billed_gpus(offer, gpus)
    compute_cost, price, package = compute_bill(task, offer, gpus, billed, hours)
    burn_price = price if package is None else package.burn_price
    scheduling_cost = compute_cost * offer.scheduling_fee_pct / 100
    rate, per_failure = failure_terms(inp, records)
    # SPEC 7.2: expected failures (rate × billed GPUs × hours) × hours lost by each, at the burn.
    rerun_cost = rate * billed * hours * per_failure * billed * burn_price
    total = (
        compute_cost
        + scheduling_cost
        + (option.transfer_cost or 0.0)
        + option.preprocess_cost
        + option.migration_cost
        + option.scheduler_ops_cost  # SPEC 7.11: a run's upkeep, whatever its GPUs
        + rerun_cost
    )
    source = sizing.budget_efficiency_source
    measured = sizing.budget_measured_gpus  # None unless source is "measured" (size_for_budget)
    # SPEC 7.10: beyond one machine, extrapolated unless measured at that size or larger.
    extrapolated = spans and (measured is None or gpus > measured)
    return DeadlinePlan(
        offer.id,
        None,
        gpus,
        billed,
        hours,
        compute_cost,
        scheduling_cost,
        rerun_cost,
        total,
        None if base is None else total - base,
        efficiency,
        source,
        extrapolated,
    )


def cheapest_plan(plans: list[DeadlinePlan]) -> DeadlinePlan | None:
    """SPEC 7.7 M3: the deadline plan of least total cost (ties: offer order)."""
    costed = [p for p in plans if p.total_cost is not None]
    if not costed:
        return None
    return min(costed, key=lambda p: p.total_cost or 0.0)
