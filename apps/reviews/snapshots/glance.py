"""The decision at a glance (issue 35): what the summary band at the top of a review page says,
read from a snapshot's display rows (apps.reviews.snapshots.selectors.snapshot_display).

The chosen option with its total and hours, the runner-up and the best excluded option with what
separates each from the chosen one, and the nearest flips. No figure is computed here that the
table below does not show: the band only picks and subtracts.
"""

from __future__ import annotations

from typing import Any

from . import flips

FLIPS_SHOWN = 2  # the band keeps to what fits on a phone's first screen; the rest is below


def _delta(row: dict | None, chosen: dict | None, field: str) -> float | None:
    if not row or not chosen or row.get(field) is None or chosen.get(field) is None:
        return None
    return row[field] - chosen[field]


def decision_glance(rows: list[dict], excluded: list[dict], output: dict) -> dict[str, Any]:
    """{chosen, runner_up, runner_cost_delta, runner_hours_delta, excluded (the best excluded
    option's entry, its `cost_delta`/`hours_delta` against the chosen), flips}."""
    options = [r for r in rows if r.get("row_type") == "option"]
    chosen = next((r for r in options if r.get("chosen")), None)
    runner = next((r for r in options if r.get("runner_up")), None)
    return {
        "chosen": chosen,
        "runner_up": runner,
        "runner_cost_delta": _delta(runner, chosen, "total_cost"),
        "runner_hours_delta": _delta(runner, chosen, "total_hours"),
        "excluded": excluded[0] if excluded else None,
        "flips": flips.nearest_flips(output)[:FLIPS_SHOWN],
        "money": money_budget(output),
    }


def money_budget(output: dict) -> dict[str, Any] | None:
    """SPEC 7.7: the chosen option against the task's cost budget, beside its total: {within,
    budget, over_by} (budget and over_by from P4 when it is over), or None without a budget."""
    chosen = output.get("chosen") or {}
    option = next(
        (o for o in output.get("options", []) if o.get("offer") == chosen.get("offer")), None
    )
    if option is None or option.get("within_cost_budget") is None:
        return None
    p4 = next((f for f in output.get("findings", []) if f.get("rule") == "P4"), None)
    budget = over_by = None
    if p4 is not None:
        budget = p4["data"].get("cost_budget")
        total = p4["data"].get("total_cost")
        if budget is not None and total is not None:
            over_by = total - budget
    return {"within": option["within_cost_budget"], "budget": budget, "over_by": over_by}
