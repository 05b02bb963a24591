"""Reads for the accounts app: the home dashboard, the team settings page, the calibration page.

Every function here runs a fixed number of queries, whatever the number of reviews, snapshots or
members: lists are limited, headline figures come from denormalised columns, and JSON is read only
for the few rows shown.
"""

from __future__ import annotations

from django.apps import apps
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from apps.accounts.models import Membership, Role, Team

from . import calibration, thresholds

DASHBOARD_ROWS = 10
LATEST_SNAPSHOTS = 5
SETTINGS_AUDIT_ROWS = 15
PILOTS_SHOWN = 20
THRESHOLD_ACTIONS = (
    "team.threshold_set",
    "team.threshold_reset",
    "team.threshold_adopted_from_calibration",
)


def _model(label: str):
    return apps.get_model(label)


# Home dashboard


def home_summary(*, user, team: Team | None) -> dict:
    """Counts for the home page of the current team: one query, whatever the sizes."""
    if team is None:
        return {"summary": None}
    counters = {}
    for key, label in (
        ("sites", "catalog.Site"),
        ("offers", "catalog.Offer"),
        ("profiles", "profiles.TaskProfile"),
        ("benchmarks", "benchmarks.BenchmarkRecord"),
        ("reviews", "reviews.Review"),
    ):
        rows = _model(label).objects.filter(team=OuterRef("pk")).order_by().values("team")
        # Prefixed: the plain names are the reverse relations of Team.
        counters[f"n_{key}"] = Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)
    row = Team.objects.filter(pk=team.pk).annotate(**counters).values(*counters).get()
    counts = {key[2:]: value for key, value in row.items()}
    return {"summary": counts}


def waiting_for_decision(*, user):
    """Submitted reviews the user may decide on and has not decided in the current round
    (every team where they review; never their own): the reviews app's approvals queue."""
    from apps.reviews.selectors import approvals_queue

    return approvals_queue(user).only(
        "id", "title", "state", "round", "submitted_at", "updated_at", "approvals_required",
        "team__name", "task__name", "author__username",
    )


def _drafts(*, user, team_ids: list[int]) -> tuple[list, int]:
    """The user's open drafts (10 most recent) with their latest snapshot's blocking findings."""
    Review = _model("reviews.Review")
    Snapshot = _model("scoring.EvaluationSnapshot")
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


def _decisions_since_last_visit(*, user, memberships: list[Membership]) -> list:
    """Sign-offs by others on the user's reviews since the user last saw each team's dashboard."""
    SignOff = _model("reviews.SignOff")
    since = Q(pk__in=[])
    for m in memberships:
        if m.last_seen_at is None:
            since |= Q(review__team_id=m.team_id)
        else:
            since |= Q(review__team_id=m.team_id, created_at__gt=m.last_seen_at)
    return list(
        SignOff.objects.filter(since, review__author=user)
        .exclude(reviewer=user)
        .select_related("review", "review__team", "reviewer")
        .only(
            "id", "decision", "comment", "created_at", "round", "review__id", "review__title",
            "review__state", "review__team__name", "reviewer__username",
        )
        .order_by("-created_at", "-id")[:DASHBOARD_ROWS]
    )


def latest_team_snapshots(*, team: Team) -> list:
    Snapshot = _model("scoring.EvaluationSnapshot")
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
            "decisions": _decisions_since_last_visit(user=user, memberships=memberships),
            "snapshots": latest_team_snapshots(team=team),
            "steps": steps,
            "show_guide": not all(s["done"] for s in steps),
            "several_teams": len(memberships) > 1,
        }
    )
    return context


# Team settings


def members(*, team: Team) -> list[Membership]:
    return list(
        Membership.objects.filter(team=team)
        .select_related("user")
        .order_by("user__username")
    )


def tier_evidence(*, team: Team) -> list[dict]:
    """Per rollout tier, narrowest first: validated or not, the pilot migrations recorded on it,
    and what still stands in the way of validating it (SPEC H, 6.1 rollout order)."""
    from apps.benchmarks.models import BenchmarkRecord
    from apps.catalog.models import Tier

    from .services import (
        ALWAYS_VALIDATED,
        PILOTS_TO_VALIDATE,
        tier_below,
        tier_label,
        tier_validation_problems,
        tiers_wider_than,
        validated_set,
    )

    pilots = BenchmarkRecord.objects.filter(team=team, kind="pilot_migration")
    counts: dict[tuple[str, object], int] = {
        (row["tier"], row["succeeded"]): row["n"]
        for row in pilots.values("tier", "succeeded").annotate(n=Count("id")).order_by()
    }
    recent: dict[str, list] = {}
    for record in (
        pilots.exclude(tier="")
        .select_related("task", "offer")
        .only(
            "id", "tier", "succeeded", "recorded_at", "migration_effort_hours", "notes",
            "task__id", "task__name", "offer__id", "offer__name",
        )
        .order_by("-recorded_at", "-id")[:PILOTS_SHOWN]
    ):
        recent.setdefault(record.tier, []).append(record)
    validated = validated_set(team)
    rows = []
    for tier in Tier:
        succeeded = counts.get((tier.value, True), 0)
        problems = tier_validation_problems(
            validated=validated, tier=tier.value, succeeded=succeeded
        )
        below = tier_below(tier.value)
        rows.append(
            {
                "tier": tier.value,
                "label": tier.label,
                "validated": tier.value in validated,
                "always": tier.value == ALWAYS_VALIDATED,
                "succeeded": succeeded,
                "failed": counts.get((tier.value, False), 0),
                "pending": counts.get((tier.value, None), 0),
                "can_validate": not problems,
                "problems": problems,
                "needed": max(0, PILOTS_TO_VALIDATE - succeeded),
                # Validated under method 1, before the rollout order: kept, and said so.
                "out_of_order": tier.value in validated
                and below is not None
                and below not in validated,
                # What withdrawing this tier also withdraws.
                "wider_validated": ", ".join(
                    tier_label(t) for t in tiers_wider_than(tier.value) if t in validated
                ),
                "pilots": recent.get(tier.value, []),
            }
        )
    return rows


def threshold_changes(*, team: Team) -> dict:
    """{key: the latest audit event of that threshold} in one query."""
    AuditEvent = _model("reviews.AuditEvent")
    events = AuditEvent.objects.filter(team=team, review=None, action__in=THRESHOLD_ACTIONS)
    latest = events.filter(target=OuterRef("target")).order_by("-created_at", "-id")
    return {
        event.target: event
        for event in events.filter(pk=Subquery(latest.values("pk")[:1])).select_related("actor")
    }


def threshold_row(key: str, team: Team, last_change=None) -> dict:
    spec = thresholds.SPECS[key]
    overrides = team.thresholds or {}
    value = thresholds.effective(overrides)[key]
    return {
        "key": key,
        "spec": spec,
        "unit": spec.unit_for(team.currency),
        "default": thresholds.default(key),
        "default_text": thresholds.show(thresholds.default(key)),
        "value": value,
        "value_text": thresholds.show(value),
        "overridden": key in overrides,
        "last_change": last_change,
        "errors": [],
    }


def threshold_rows(*, team: Team) -> list[dict]:
    changes = threshold_changes(team=team)
    return [threshold_row(key, team, changes.get(key)) for key in thresholds.SPECS]


def one_threshold_row(*, team: Team, key: str) -> dict:
    AuditEvent = _model("reviews.AuditEvent")
    last = (
        AuditEvent.objects.filter(team=team, review=None, action__in=THRESHOLD_ACTIONS, target=key)
        .select_related("actor")
        .order_by("-created_at", "-id")
        .first()
    )
    return threshold_row(key, team, last)


def _tier_label(tier) -> str:
    from apps.catalog.models import Tier

    return str(dict(Tier.choices).get(tier, tier))


def _role_label(role) -> str:
    return str(dict(Role.choices).get(role, role or "—"))


def describe_settings_event(event) -> str:
    """One line, in the user's language, of what a settings change did."""
    changes = event.changes or {}
    action = event.action
    if action in THRESHOLD_ACTIONS:
        old, new = changes.get(event.target, [None, None])
        spec = thresholds.SPECS.get(event.target)
        values = {
            "threshold": spec.label if spec else event.target,
            "old": thresholds.show(old),
            "new": thresholds.show(new),
        }
        if action == "team.threshold_reset":
            return _("reset %(threshold)s to its default (%(old)s → %(new)s)") % values
        if action == "team.threshold_adopted_from_calibration":
            return _("adopted %(threshold)s from calibration (%(old)s → %(new)s)") % values
        return _("set %(threshold)s (%(old)s → %(new)s)") % values
    if action == "team.tier_validated":
        return _("marked the tier %(tier)s validated") % {"tier": _tier_label(event.target)}
    if action == "team.tier_unvalidated":
        old, new = changes.get("validated_tiers", [[], []])
        also = [t for t in old if t not in new and t != event.target]
        if also:
            # SPEC 6.1: the wider tiers rest on this one and were withdrawn with it.
            return _(
                "withdrew the validation of the tier %(tier)s, and with it of %(wider)s"
            ) % {"tier": _tier_label(event.target), "wider": ", ".join(map(_tier_label, also))}
        return _("withdrew the validation of the tier %(tier)s") % {
            "tier": _tier_label(event.target)
        }
    if action in ("team.member_added", "team.member_role_changed", "team.member_removed"):
        old, new = changes.get("role", [None, None])
        values = {"user": event.target, "old": _role_label(old), "new": _role_label(new)}
        if action == "team.member_added":
            return _("added %(user)s as %(new)s") % values
        if action == "team.member_removed":
            return _("removed %(user)s (%(old)s)") % values
        return _("changed the role of %(user)s (%(old)s → %(new)s)") % values
    if action == "team.settings_updated":
        parts = []
        if "approvals_required" in changes:
            old, new = changes["approvals_required"]
            parts.append(_("approvals %(old)s → %(new)s") % {"old": old, "new": new})
        if "currency" in changes:
            old, new = changes["currency"]
            parts.append(_("currency %(old)s → %(new)s") % {"old": old, "new": new})
        return _("changed %(what)s") % {"what": ", ".join(str(p) for p in parts)}
    return action


def settings_audit(*, team: Team) -> list:
    AuditEvent = _model("reviews.AuditEvent")
    events = list(
        AuditEvent.objects.filter(team=team, review=None, action__startswith="team.")
        .select_related("actor")
        .order_by("-created_at", "-id")[:SETTINGS_AUDIT_ROWS]
    )
    for event in events:
        event.description = describe_settings_event(event)
    return events


def settings_overview(*, team: Team) -> dict:
    member_rows = members(team=team)
    return {
        "members": member_rows,
        "owner_count": sum(1 for m in member_rows if m.role == Role.OWNER),
        "tiers": tier_evidence(team=team),
        "threshold_rows": threshold_rows(team=team),
        "audit": settings_audit(team=team),
    }


# Calibration


def calibration_points(*, team: Team) -> list[calibration.TaskPoint]:
    """One point per task of the team with a snapshot: its figures and what happened after.

    The figures are those of the review that decided the task when there is one (the approved
    review's signed snapshot, else a rejected one), otherwise of the task's newest snapshot.
    """
    Snapshot = _model("scoring.EvaluationSnapshot")
    BenchmarkRecord = _model("benchmarks.BenchmarkRecord")
    rows = list(
        Snapshot.objects.filter(team=team)
        .values(
            "pk", "task_id", "task__name", "review_id", "review__title", "review__state",
            "review__decided_at", "created_at", "chosen_offer", "chosen_total_hours",
        )
        .order_by("task_id", "-created_at", "-pk")
    )
    chosen: dict[int, dict] = {}
    for row in rows:
        current = chosen.get(row["task_id"])
        if current is None or calibration.decisive_rank(row["review__state"]) < (
            calibration.decisive_rank(current["review__state"])
        ):
            chosen[row["task_id"]] = row
    if not chosen:
        return []
    figures = {
        row["pk"]: row
        for row in Snapshot.objects.filter(pk__in=[r["pk"] for r in chosen.values()]).values(
            "pk", "output__metrics", "input__task__interruption_cost_hours"
        )
    }
    records: dict[int, list[dict]] = {}
    for record in BenchmarkRecord.objects.filter(
        team=team, task_id__in=list(chosen), kind__in=("single", "multi", "pilot_migration")
    ).values(
        "task_id", "offer_id", "kind", "succeeded", "e2e_hours", "nodes", "gpus_per_node",
        "failure_reruns", "recovery", "recorded_at", "tier",
    ):
        records.setdefault(record["task_id"], []).append(record)
    points = []
    for task_id, row in sorted(chosen.items(), key=lambda item: item[1]["task__name"]):
        figure = figures.get(row["pk"], {})
        points.append(
            calibration.task_point(
                task_id=task_id,
                task_name=row["task__name"],
                review_id=row["review_id"],
                review_title=row["review__title"],
                review_state=row["review__state"],
                reference_time=row["review__decided_at"] or row["created_at"],
                chosen_offer=row["chosen_offer"],
                planned_hours=row["chosen_total_hours"],
                metrics=figure.get("output__metrics") or {},
                interruption_cost_hours=figure.get("input__task__interruption_cost_hours"),
                records=records.get(task_id, []),
            )
        )
    return points


def calibration_overview(*, team: Team) -> dict:
    points = calibration_points(team=team)
    current = thresholds.effective(team.thresholds)
    labelled = sum(1 for p in points if p.label != calibration.UNKNOWN)
    return {
        "points": points,
        "indicators": calibration.indicators(points, current),
        "labelled": labelled,
        "min_labelled": calibration.MIN_LABELLED,
        "needed": max(0, calibration.MIN_LABELLED - labelled),
    }
