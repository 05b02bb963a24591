"""Reads of the scoring app: what the history, a snapshot page, the comparison of two snapshots
and the quarterly review show (what the review page shows of its evaluation, and the display of
one snapshot: apps/reviews/snapshots/selectors.py). Query counts do not grow with rows."""

from __future__ import annotations

from apps.accounts.access import get_scoped_or_404
from apps.accounts.models import Team
from apps.reviews.snapshots import chart_labels, charts, flips
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.tables import row_key
from apps.scoring.models import QuarterlyCostReview


def snapshot_for_user(user, pk: int) -> EvaluationSnapshot:
    return get_scoped_or_404(
        EvaluationSnapshot.objects.select_related("review", "task", "team"), user, pk=pk
    )


def previous_snapshot_id(snapshot: EvaluationSnapshot) -> int | None:
    """The review's snapshot just before this one (for "compare with previous")."""
    return (
        EvaluationSnapshot.objects.filter(review_id=snapshot.review_id)
        .filter(created_at__lte=snapshot.created_at)
        .exclude(pk=snapshot.pk)
        .exclude(created_at=snapshot.created_at, id__gt=snapshot.pk)
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)
        .first()
    )


# --- two snapshots side by side -----------------------------------------------------------

COMPARE_COLUMNS = [
    ("transfer_hours", "hours"),
    ("queue_hours", "hours"),
    ("compute_hours", "hours"),
    ("total_hours", "hours"),
    ("compute_cost", "money"),
    ("scheduling_cost", "money"),
    ("transfer_cost", "money"),
    ("preemption_cost", "money"),
    ("preprocess_cost", "money"),
    ("scheduler_ops_cost", "money"),
    ("rerun_cost", "money"),
    ("unit_price", "money"),
    ("total_cost", "money"),
    ("speedup", "number"),
    ("verdict", "text"),
]


def _keyed(rows: list[dict]) -> dict[tuple, dict]:
    """Rows by (row_type, offer, placement, site), numbered when a key repeats (two runs)."""
    out: dict[tuple, dict] = {}
    seen: dict[tuple, int] = {}
    for row in rows:
        key = row_key(row)
        n = seen.get(key, 0)
        seen[key] = n + 1
        out[(*key, n)] = row
    return out


def _differs(a, b) -> bool:
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return abs(a - b) > 1e-6
    return a != b


def _finding_key(finding: dict) -> tuple:
    return (finding.get("rule"), str(finding.get("offer") or ""), finding.get("key") or "")


def _row_differs(row: dict) -> bool:
    return row["added"] or row["removed"] or any(c["changed"] for c in row["cells"])


def _chosen_offer_label(snapshot: EvaluationSnapshot) -> str:
    """The chosen offer as people name it (its table row's label), not its id."""
    for row in snapshot.table_rows or []:
        if row.get("chosen") and row.get("offer_label"):
            return row["offer_label"]
    return snapshot.chosen_offer


def snapshot_comparison(
    a: EvaluationSnapshot, b: EvaluationSnapshot, *, differences_only: bool = False
) -> dict:
    """Aligned table rows with changed cells, the headline differences and the findings added
    (in b, not in a) and removed (in a, not in b). `differences_only` keeps the headline figures
    and rows that differ (a row in one snapshot only differs)."""
    rows_a, rows_b = _keyed(a.table_rows or []), _keyed(b.table_rows or [])
    keys = list(rows_a) + [k for k in rows_b if k not in rows_a]
    aligned = []
    for key in keys:
        ra, rb = rows_a.get(key), rows_b.get(key)
        cells = []
        for column, kind in COMPARE_COLUMNS:
            va = ra.get(column) if ra else None
            vb = rb.get(column) if rb else None
            cells.append(
                {"column": column, "kind": kind, "a": va, "b": vb,
                 "changed": ra is not None and rb is not None and _differs(va, vb)}
            )
        aligned.append({"key": key, "a": ra, "b": rb, "cells": cells,
                        "added": ra is None, "removed": rb is None})
    headline = []
    for field, kind in (
        ("platform", "platform"),
        ("chosen_kind", "placement"),
        ("chosen_site", "text"),
        ("chosen_offer", "text"),
        ("chosen_total_cost", "money"),
        ("chosen_total_hours", "hours"),
        ("block_count", "int"),
        ("warn_count", "int"),
        ("engine_version", "text"),
        ("input_hash", "hash"),
    ):
        if field == "chosen_offer":
            va, vb = _chosen_offer_label(a), _chosen_offer_label(b)
        else:
            va, vb = getattr(a, field), getattr(b, field)
        headline.append({"field": field, "kind": kind, "a": va, "b": vb,
                         "changed": _differs(va, vb)})
    changed_cells = sum(1 for r in aligned for c in r["cells"] if c["changed"])
    shown = [r for r in aligned if not differences_only or _row_differs(r)]
    if differences_only:
        headline = [h for h in headline if h["changed"]]
    findings_a = {_finding_key(f): f for f in (a.output or {}).get("findings", [])}
    findings_b = {_finding_key(f): f for f in (b.output or {}).get("findings", [])}
    return {
        "a": a,
        "b": b,
        "columns": COMPARE_COLUMNS,
        "aligned": shown,
        "rows_alike": len(aligned) - len(shown),
        "differences_only": differences_only,
        "headline": headline,
        "added": [f for k, f in findings_b.items() if k not in findings_a],
        "removed": [f for k, f in findings_a.items() if k not in findings_b],
        "changed_cells": changed_cells,
        # SPEC 6.3: inputs that moved past the value at which the decision flips.
        "crossed_flips": flips.crossed_flips(a.input, a.output, b.input, b.output),
    }


# --- quarterly cost review ----------------------------------------------------------------


def quarterly_for_team(team: Team) -> dict:
    rows = list(QuarterlyCostReview.objects.for_team(team).order_by("quarter"))
    figure = charts.quarterly(
        [
            {"quarter": r.quarter, "compute_saved": r.compute_saved,
             "transfer_fees": r.transfer_fees, "net": r.net}
            for r in rows
        ]
    )
    totals = {
        "compute_saved": sum(r.compute_saved for r in rows),
        "transfer_fees": sum(r.transfer_fees for r in rows),
        "net": sum(r.net for r in rows),
        "reviews_counted": sum(r.reviews_counted for r in rows),
    }
    return {
        "rows": rows,
        "totals": totals,
        "figure": chart_labels.localize_figure(figure) if figure else None,
        "computed_at": max((r.computed_at for r in rows), default=None),
    }
