"""SPEC T: the total bill (总账) per candidate, and misjudgement J3 (unit price vs total)."""

from __future__ import annotations

from bisect import bisect_left
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
    rerun_cost: float  # SPEC 7.2: expected rerun loss of this run (was 2.x's rerun_loss)
    migration_effort_hours: float | None
    migration_cost: float  # SPEC 6.1: its own line (Q5), spread over the runs
    preemption_cost: float | None  # SPEC 7.3: expected loss to preemptions (spot capacity)
    total: float | None  # SPEC 7.2: the option's total_cost; None when it cannot be costed
    preprocess_cost: float = 0.0  # SPEC 6.4: a staged plan's preprocessing, per run
    rank_unit: int | None = None
    rank_total: int | None = None
    scheduler_ops_cost: float = 0.0  # SPEC 7.11: a self-hosted distributed layer's upkeep


def _ranks(values: dict[str, float]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): equal values share a rank, one more than the values below
    them."""
    ordered = sorted(values.values())
    return {key: bisect_left(ordered, value) + 1 for key, value in values.items()}


def total_bill(
    inp: EngineInput, options: list[PlacementOption]
) -> tuple[list[BillRow], list[Finding]]:
    """SPEC T as corrected by 7.2: one row per option, its total the option's total_cost (the
    rerun and migration lines are the option's, so the choice and T read the same numbers)."""
    rows = [_bill_row(option) for option in options]
    ranked = _rank(rows)
    return rows, _bill_findings(ranked) + _paid_packages(options)


def _paid_packages(options: list[PlacementOption]) -> list[Finding]:
    """SPEC 7.6 T.paid: a feasible option run (in part) on a package already paid costs only
    what it displaces (the other work those package hours would have done)."""
    return [
        finding("T", "info", "T.paid", {"offer": o.offer.id, "paid_gpu_hours": o.paid_gpu_hours})
        for o in options
        if o.feasible and o.paid_gpu_hours > 0
    ]


def _bill_row(option: PlacementOption) -> BillRow:
    # Positional, in BillRow's field order: a third of the cost of keywords.
    return BillRow(
        option.offer.id,
        option.feasible,
        option.effective_price,  # unit price
        option.compute_cost,
        option.scheduling_cost,
        option.transfer_cost,
        option.rerun_cost,
        option.migration_effort_hours,
        option.migration_cost,
        None if option.preemption_hours is None else option.preemption_cost,
        option.total_cost,
        option.preprocess_cost,
        None,  # rank_unit
        None,  # rank_total
        option.scheduler_ops_cost,
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
