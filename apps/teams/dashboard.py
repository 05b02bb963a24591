"""Reads for the home dashboard: what waits for me, my drafts, my latest unread notifications.

Every function here runs a fixed number of queries, whatever the number of reviews, snapshots or
members: lists are limited, headline figures come from denormalised columns, and JSON is read only
for the few rows shown.
"""

from __future__ import annotations

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from apps.accounts.models import Membership, Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Offer, Site
from apps.notifications.selectors import latest_unread
from apps.profiles.models import TaskProfile
from apps.reviews.models import Review
from apps.reviews.selectors import approvals_queue_rows
from apps.reviews.snapshots.models import EvaluationSnapshot

DASHBOARD_ROWS = 10
LATEST_SNAPSHOTS = 5
NOTIFICATION_ROWS = 5


def home_summary(*, user, team: Team | None) -> dict:
    """Counts for the home page of the current team: one query, whatever the sizes."""
    if team is None:
        return {"summary": None}
    counters = {}
    for key, model in (
        ("sites", Site),
        ("offers", Offer),
        ("profiles", TaskProfile),
        ("benchmarks", BenchmarkRecord),
        ("reviews", Review),
    ):
        rows = model.objects.filter(team=OuterRef("pk")).order_by().values("team")
        # Prefixed: the plain names are the reverse relations of Team.
        counters[f"n_{key}"] = Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)
    row = Team.objects.filter(pk=team.pk).annotate(**counters).values(*counters).get()
    counts = {key[2:]: value for key, value in row.items()}
    return {"summary": counts}


def waiting_for_decision(*, user):
    """Submitted reviews the user may decide on and has not decided in the current round
    (every team where they review; never their own): the reviews app's approvals queue."""
    return approvals_queue_rows(user)  # the row's fields only (reviews.selectors.ROW_FIELDS)


def _drafts(*, user, team_ids: list[int]) -> tuple[list, int]:
    """The user's open drafts (10 most recent) with their latest snapshot's blocking findings."""
    Snapshot = EvaluationSnapshot
    latest = Snapshot.objects.filter(review=OuterRef("pk")).order_by("-created_at", "-id")
    queryset = Review.objects.filter(
        author=user, team_id__in=team_ids, state__in=("draft", "changes_requested")
    )
    drafts = list(
        queryset.select_related("team", "task")
        .only(
            "id", "title", "state", "updated_at", "inputs_generation", "team__name",
            "team__settings_generation", "task__name",
        )
        .annotate(snapshot_id=Subquery(latest.values("pk")[:1]))
        .order_by("-updated_at", "-id")[:DASHBOARD_ROWS]
    )
    total = queryset.count()
    snapshot_ids = [d.snapshot_id for d in drafts if d.snapshot_id]
    snapshots = {}
    if snapshot_ids:
        # Only the findings of these few rows: never the whole input/output JSON.
        for row in Snapshot.objects.filter(pk__in=snapshot_ids).values(
            "pk", "block_count", "warn_count", "created_at", "inputs_generation",
            "settings_generation", "output__findings",
        ):
            snapshots[row["pk"]] = row
    for draft in drafts:
        snap = snapshots.get(draft.snapshot_id)
        draft.snapshot = snap
        draft.block_findings = [
            f for f in (snap or {}).get("output__findings") or [] if f.get("severity") == "block"
        ]
        draft.snapshot_outdated = bool(snap) and (
            snap["inputs_generation"] != draft.inputs_generation
            or snap["settings_generation"] != draft.team.settings_generation
        )
    return drafts, total


def latest_team_snapshots(*, team: Team) -> list:
    Snapshot = EvaluationSnapshot
    return list(
        Snapshot.objects.filter(team=team)
        .select_related("review")
        .only(
            "id", "created_at", "review_state", "platform", "chosen_kind", "chosen_site",
            "chosen_total_cost", "chosen_total_hours", "block_count", "warn_count",
            "review__id", "review__title", "review__state",
        )
        .order_by("-created_at", "-id")[:LATEST_SNAPSHOTS]
    )


def guided_start(summary: dict) -> list[dict]:
    """The four first steps of a new team, each done once the team has one of its objects."""
    steps = [
        {"key": "site", "done": summary["sites"] > 0, "url_name": "catalog:site_create"},
        {"key": "offer", "done": summary["offers"] > 0, "url_name": "catalog:offer_create"},
        {"key": "profile", "done": summary["profiles"] > 0, "url_name": "profiles:create"},
        {"key": "review", "done": summary["reviews"] > 0, "url_name": "reviews:create"},
    ]
    upcoming = next((s for s in steps if not s["done"]), None)
    for step in steps:
        step["next"] = step is upcoming
    return steps


def home_dashboard(*, user, team: Team | None, memberships: list[Membership]) -> dict:
    """Everything the home page shows. A fixed number of queries, whatever the sizes."""
    context = home_summary(user=user, team=team)
    if team is None:
        return context
    team_ids = [m.team_id for m in memberships]
    waiting_qs = waiting_for_decision(user=user)
    waiting = list(waiting_qs[:DASHBOARD_ROWS])
    waiting_total = waiting_qs.count()
    drafts, drafts_total = _drafts(user=user, team_ids=team_ids)
    steps = guided_start(context["summary"])
    context.update(
        {
            "waiting": waiting,
            "waiting_total": waiting_total,
            "drafts": drafts,
            "drafts_total": drafts_total,
            "notifications": latest_unread(user=user, limit=NOTIFICATION_ROWS),
            "snapshots": latest_team_snapshots(team=team),
            "steps": steps,
            "show_guide": not all(s["done"] for s in steps),
            "several_teams": len(memberships) > 1,
        }
    )
    return context
