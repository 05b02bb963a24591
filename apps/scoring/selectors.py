"""Reads of the scoring app: what the review page, the history, a snapshot page, the comparison
of two snapshots and the quarterly review show. Query counts do not grow with rows."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language

import engine
from apps.accounts.access import get_scoped_or_404
from apps.accounts.models import Team
from apps.profiles.engine_input import fingerprint
from apps.reviews.models import Review
from apps.scoring import chart_labels, charts, exclusions, fixes, flips, glance
from apps.scoring.models import EvaluationSnapshot, JobStatus, QuarterlyCostReview, SnapshotJob
from apps.scoring.services.jobs import snapshot_request
from apps.scoring.services.snapshots import build_review_input, latest_snapshot, signed_snapshot
from apps.scoring.tables import row_key
from apps.web.fragments import release

CHART_ORDER = ("hours", "cost", "objective", "scaling", "indicators")


def snapshot_charts(snapshot: EvaluationSnapshot, *, with_history: bool = True) -> list[dict]:
    """The snapshot's figures in the active language, each with the id of its JSON script:
    [{"name", "id", "figure"}]. The task history chart costs one query."""
    labels = chart_labels.figure_labels()
    stored = snapshot.chart_data or {}
    out = [
        {
            "name": name,
            "id": f"chart-{name}-{snapshot.pk}",
            "figure": chart_labels.localize_figure(stored[name], labels),
        }
        for name in CHART_ORDER
        if stored.get(name)
    ]
    if with_history:
        points = list(
            EvaluationSnapshot.objects.filter(
                task_id=snapshot.task_id, created_at__lte=snapshot.created_at
            )
            .order_by("-created_at", "-id")
            .values_list("created_at", "chosen_total_cost", "chosen_total_hours")[
                : charts.HISTORY_POINTS
            ]
        )
        figure = charts.task_history(list(reversed(points)))
        if figure is not None:
            out.append(
                {
                    "name": "history",
                    "id": f"chart-history-{snapshot.pk}",
                    "figure": chart_labels.localize_figure(figure, labels),
                }
            )
    return out


def snapshot_summary(snapshot: EvaluationSnapshot) -> dict:
    """Headline figures and what the page highlights (chosen row, J3) of one snapshot."""
    output = snapshot.output or {}
    rows = snapshot.table_rows or []
    findings = output.get("findings", [])
    j3 = next((f for f in findings if f.get("rule") == "J3"), None)
    return {
        "chosen_row": next((r for r in rows if r.get("chosen")), None),
        "platform": output.get("platform", ""),
        "platform_rule": output.get("platform_rule", ""),
        "findings": findings,
        "j3": j3,
        "option_count": sum(1 for r in rows if r.get("row_type") == "option"),
        "readiness": output.get("readiness") or {},
    }


def snapshot_display(snapshot: EvaluationSnapshot) -> dict:
    """Everything the snapshot body partial needs (templates/scoring/_snapshot_body.html).

    `rows` carry, on each excluded option, its `causes` and `saving` (apps.scoring.exclusions);
    `excluded` lists those options best objective first and `rule_costs` what each rule cost."""
    rows = snapshot.table_rows or []
    excluded = exclusions.excluded_options(
        rows, snapshot.output or {}, snapshot.input, get_language() or "en"
    )
    annotated = exclusions.annotate_rows(rows, excluded, snapshot.output or {})
    return {
        "snapshot": snapshot,
        "rows": annotated,
        "glance": glance.decision_glance(annotated, excluded, snapshot.output or {}),
        "excluded": excluded,
        "rule_costs": exclusions.rule_costs(excluded),
        "snapshot_charts": snapshot_charts(snapshot),
        "summary": snapshot_summary(snapshot),
    }


def signed_display(snapshot: EvaluationSnapshot) -> dict:
    """`snapshot_display` of the snapshot an approved review was signed on, kept as data under
    the snapshot's id, the release and the language: a signed snapshot never changes (the
    database refuses it), so the key needs no generation (docs/architecture.md, "Caching")."""
    key = f"{release()}:signed-display:{snapshot.pk}:{get_language()}"
    try:
        kept = cache.get(key)
    except Exception:  # noqa: BLE001 - no cache: worked out
        kept = None
    if kept is None:
        kept = {k: v for k, v in snapshot_display(snapshot).items() if k != "snapshot"}
        try:
            cache.set(key, kept, SIGNED_DISPLAY_SECONDS)
        except Exception:  # noqa: BLE001 - shown all the same
            pass
    return {"snapshot": snapshot, **kept}


SIGNED_DISPLAY_SECONDS = 24 * 3600


# Issue 35: a job no worker has taken for this long turns the page's spinner into a notice (and
# its pollers stop); one running past the task's hard time limit (scoring.tasks) was lost.
WORKER_SILENT_SECONDS = 30
RUNNING_LOST_SECONDS = 150


def worker_silent(job: SnapshotJob | None) -> bool:
    """Whether the job waits on a worker that has not answered: pending (no broker) or queued for
    30 s, or running past the task's time limit."""
    if job is None or job.status not in (JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING):
        return False
    limit = RUNNING_LOST_SECONDS if job.status == JobStatus.RUNNING else WORKER_SILENT_SECONDS
    return job.updated_at < timezone.now() - timedelta(seconds=limit)


def review_evaluation(
    review: Review, *, review_input: dict | None = None, request_if_missing: bool = True
) -> dict:
    """What a review page shows of its evaluation.

    `snapshot`: the snapshot of the current inputs (None while it is being computed);
    `latest`: the newest snapshot (possibly stale); `job`: the job computing the current one;
    `stale`: the newest snapshot no longer matches the inputs; when `snapshot` is set, also
    `rows`, `snapshot_charts` and `summary` (see snapshot_display); `current_engine_version`.
    An approved review gets the snapshot it was signed on (`signed_snapshot`), never a
    recomputation. A caller that already built the review's engine input passes it, so it is
    not built twice.
    """
    signed = signed_snapshot(review)
    if signed is not None:
        # An approved review shows the figures it was signed on, whatever the engine is now.
        return {
            "snapshot": signed,
            "latest": signed,
            "job": None,
            "stale": False,
            "review": review,
            "current_engine_version": engine.ENGINE_VERSION,
            **signed_display(signed),
        }
    if review_input is None:
        review_input = build_review_input(review)
    key = fingerprint(review_input)
    current = EvaluationSnapshot.objects.select_related("team").filter(
        review=review, fingerprint=key
    )
    snapshot = current.first()
    job = None
    if snapshot is None:
        job = (
            snapshot_request(review=review, fingerprint=key)
            if request_if_missing
            else SnapshotJob.objects.filter(review=review).order_by("-created_at", "-id").first()
        )
        # In eager mode (no broker) the job has already run; look again.
        snapshot = current.first()
        if snapshot is None and job is not None:
            job.refresh_from_db()
    latest = snapshot or latest_snapshot(review)
    context = {
        "snapshot": snapshot,
        "latest": latest,
        "job": job if snapshot is None else None,
        "worker_silent": snapshot is None and worker_silent(job),
        "stale": snapshot is None and latest is not None,
        "review": review,
        "current_engine_version": engine.ENGINE_VERSION,
    }
    if snapshot is not None:
        context.update(snapshot_display(snapshot))
        summary = context["summary"]
        # Issue 15: each block finding of an editable review carries its fix.
        summary["findings"] = fixes.with_fixes(review, summary["findings"], snapshot.output or {})
    return context


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
