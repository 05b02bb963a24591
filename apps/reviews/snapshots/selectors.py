"""Reads of a review's snapshots: what the review page shows of its evaluation (the snapshot of
the current inputs, or the job computing it, with its table, charts, exclusions, fixes and flips),
and the display of one snapshot that the snapshot page and the decision record reuse.
Query counts do not grow with rows."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import get_language

import engine
from apps.profiles.engine_input import fingerprint, team_links_query
from apps.reviews.checklists.selectors import checklist_cards
from apps.reviews.models import Review
from apps.web.fragments import release

from . import chart_labels, charts, exclusions, fixes, glance
from .jobs import snapshot_request
from .models import EvaluationSnapshot, JobStatus, SnapshotJob
from .services import build_review_input, latest_snapshot, signed_snapshot

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

    `rows` carry, on each excluded option, its `causes` and `saving` (.exclusions);
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


def review_with_input(review: Review) -> tuple[list, list, dict]:
    """A review's checklist cards, reserved links and engine input, each loaded once and shared
    (the review page and the decision record show all three beside the evaluation)."""
    cards = checklist_cards(review)
    links = None
    if review.frozen_input is not None:  # the input is frozen: the team's links are not read
        reserved = list(review.reserved_links.select_related("from_site", "to_site").order_by("id"))
    else:
        # One read for the team's links (the engine input) and which of them the review reserved
        # (only the team's own links can be reserved: services.candidates.review_reserve_links).
        through = Review.reserved_links.through
        links = list(
            team_links_query(review.team_id).annotate(
                reserved=Exists(
                    through.objects.filter(review_id=review.pk, networklink_id=OuterRef("pk"))
                )
            )
        )
        reserved = sorted((link for link in links if link.reserved), key=lambda link: link.pk)
    review_input = build_review_input(
        review,
        links=links,
        candidates=[card.candidate for card in cards],
        answers=[
            (card.candidate.offer_id, item.answer.question, item.answer.status)
            for card in cards
            for item in card.items
            if item.answer is not None
        ],
        reserved_link_ids={link.pk for link in reserved},
    )
    return cards, reserved, review_input


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
