"""SPEC T: the total bill (总账) per candidate, and misjudgement J3 (unit price vs total)."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .placement import PlacementOption
from .schema import EngineInput


@dataclass(slots=True)
class BillRow:
    offer: str
    feasible: bool
    unit_price: float
    compute_cost: float
    scheduling_cost: float
    transfer_cost: float | None
    rerun_loss: float
    migration_effort_hours: float | None
    migration_cost: float  # SPEC 6.1: its own line (Q5), spread over the runs
    preemption_cost: float  # SPEC 6.3: expected loss to preemptions (spot capacity)
    total: float | None  # None when a transfer leg has no link
    preprocess_cost: float = 0.0  # SPEC 6.4: a staged plan's preprocessing, per run
    rank_unit: int | None = None
    rank_total: int | None = None


def _ranks(values: dict[str, float]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): equal values share a rank."""
    ordered = sorted(values.values())
    first: dict[float, int] = {}
    for position, value in enumerate(ordered, start=1):
        first.setdefault(value, position)
    return {key: first[value] for key, value in values.items()}


def total_bill(
    inp: EngineInput, options: list[PlacementOption]
) -> tuple[list[BillRow], list[Finding]]:
    reruns, pilot_effort = _reruns_and_pilot_effort(inp)
    runs = _runs_served(inp)
    hour_cost = inp.thresholds["engineer_hour_cost"]
    rows = [_bill_row(option, reruns, pilot_effort, hour_cost, runs) for option in options]
    ranked = _rank(rows)
    return rows, _bill_findings(ranked)


def _reruns_and_pilot_effort(inp: EngineInput) -> tuple[dict[str, float], dict[str, float]]:
    """Per offer: rerun hours lost over its benchmarks, and its largest pilot migration effort."""
    reruns: dict[str, float] = {}
    pilot_effort: dict[str, float] = {}
    for b in inp.benchmarks:
        if b.offer is not None:
            reruns[b.offer] = reruns.get(b.offer, 0.0) + b.failure_reruns * b.hours_lost_per_rerun
            if b.kind == "pilot_migration" and b.migration_effort_hours:
                pilot_effort[b.offer] = max(
                    pilot_effort.get(b.offer, 0.0), b.migration_effort_hours
                )
    return reruns, pilot_effort


def _runs_served(inp: EngineInput) -> float:
    """SPEC 6.1: the runs a migration cost is spread over (a year of a recurring job)."""
    task = inp.task
    return (
        1.0
        if task.cadence == "one_off" or task.runs_per_quarter <= 0
        else (task.runs_per_quarter * 4)
    )


def _bill_row(
    option: PlacementOption,
    reruns: dict[str, float],
    pilot_effort: dict[str, float],
    hour_cost: float,
    runs: float,
) -> BillRow:
    oid = option.offer.id
    # SPEC T: expected rerun loss = reruns × hours lost × hourly burn (billed GPUs × price).
    rerun_loss = reruns.get(oid, 0.0) * option.hourly_burn
    # SPEC 6.1: the candidate's Q5 effort, else the largest of its pilot migration records.
    effort = option.offer.migration_effort_hours
    if effort is None:
        effort = pilot_effort.get(oid)
    migration = (effort or 0.0) * hour_cost / runs
    total = None
    if option.transfer_cost is not None:
        total = (
            option.compute_cost
            + option.scheduling_cost
            + option.transfer_cost
            + option.preemption_cost
            + option.preprocess_cost
            + rerun_loss
            + migration
        )
    # Positional, in BillRow's field order: a third of the cost of keywords.
    return BillRow(
        oid,
        option.feasible,
        option.effective_price,  # unit price
        option.compute_cost,
        option.scheduling_cost,
        option.transfer_cost,
        rerun_loss,
        effort,  # migration_effort_hours
        migration,  # migration_cost
        option.preemption_cost,
        total,
        option.preprocess_cost,
        None,  # rank_unit
        None,  # rank_total
    )


def _rank(rows: list[BillRow]) -> list[BillRow]:
    """SPEC 6.1: T and J3 rank feasible candidates only; infeasible rows stay, unranked.
    Returns the ranked (feasible) rows."""
    ranked = [r for r in rows if r.feasible]
    rank_unit = _ranks({r.offer: r.unit_price for r in ranked})
    rank_total = _ranks({r.offer: r.total for r in ranked if r.total is not None})
    for row in rows:
        row.rank_unit = rank_unit.get(row.offer)
        row.rank_total = rank_total.get(row.offer)
    return ranked


def _bill_findings(ranked: list[BillRow]) -> list[Finding]:
    """SPEC T (the cheapest total bill) and J3 (unit price vs total) over the ranked rows."""
    found: list[Finding] = []
    known = [r for r in ranked if r.total is not None]
    if not known:
        return found
    cheapest_total = min(known, key=lambda r: r.total or 0.0)
    # SPEC T: state the cheapest total bill.
    data = {
        "offer": cheapest_total.offer,
        "total": cheapest_total.total,
        "unit_price": cheapest_total.unit_price,
    }
    found.append(finding("T", "info", "T", data))
    # SPEC J3: among candidates with a known total, no cheapest-by-unit-price candidate is also
    # cheapest by total.
    low_unit = min(r.unit_price for r in known)
    low_total = cheapest_total.total
    by_unit = [r for r in known if r.unit_price == low_unit]
    if len(known) > 1 and not any(r.total == low_total for r in by_unit):
        data = {
            "unit_offer": by_unit[0].offer,
            "unit_price": low_unit,
            "unit_offer_total": by_unit[0].total,
            "total_offer": cheapest_total.offer,
            "total": low_total,
            "total_offer_unit_price": cheapest_total.unit_price,
        }
        found.append(finding("J3", "warn", "J3", data))
    return found
