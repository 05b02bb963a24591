"""Reads for the team settings page: members, rollout tiers with their pilots, thresholds, audit.

Every function here runs a fixed number of queries, whatever the number of reviews, snapshots or
members: lists are limited, headline figures come from denormalised columns, and JSON is read only
for the few rows shown.
"""

from __future__ import annotations

from django.db.models import Count, OuterRef, Subquery
from django.utils.translation import gettext as _

from apps.accounts.models import Membership, Role, Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Tier
from apps.reviews.models import AuditEvent

from . import thresholds
from .tiers import (
    ALWAYS_VALIDATED,
    PILOTS_TO_VALIDATE,
    tier_below,
    tier_label,
    tier_validation_problems,
    tiers_wider_than,
    validated_set,
)

SETTINGS_AUDIT_ROWS = 15
PILOTS_SHOWN = 20
THRESHOLD_ACTIONS = (
    "team.threshold_set",
    "team.threshold_reset",
    "team.threshold_adopted_from_calibration",
)


def members(*, team: Team) -> list[Membership]:
    return list(
        Membership.objects.filter(team=team)
        .select_related("user")
        .order_by("user__username")
    )


def tier_evidence(*, team: Team) -> list[dict]:
    """Per rollout tier, narrowest first: validated or not, the pilot migrations recorded on it,
    and what still stands in the way of validating it (SPEC H, 6.1 rollout order)."""
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
    last = (
        AuditEvent.objects.filter(team=team, review=None, action__in=THRESHOLD_ACTIONS, target=key)
        .select_related("actor")
        .order_by("-created_at", "-id")
        .first()
    )
    return threshold_row(key, team, last)


def _tier_label(tier) -> str:
    return str(dict(Tier.choices).get(tier, tier))


def _role_label(role) -> str:
    return str(dict(Role.choices).get(role, role or "—"))


WEBHOOK_ACTIONS = {  # the sentence in the user's language, asked for when drawn
    "team.webhook_added": lambda: _("added the webhook %(url)s"),
    "team.webhook_resumed": lambda: _("resumed the webhook %(url)s"),
    "team.webhook_deleted": lambda: _("deleted the webhook %(url)s"),
}


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
    if action in WEBHOOK_ACTIONS:
        return WEBHOOK_ACTIONS[action]() % {"url": event.target}
    if action == "team.settings_updated":
        parts = []
        if "approvals_required" in changes:
            old, new = changes["approvals_required"]
            parts.append(_("approvals %(old)s → %(new)s") % {"old": old, "new": new})
        if "currency" in changes:
            old, new = changes["currency"]
            parts.append(_("currency %(old)s → %(new)s") % {"old": old, "new": new})
        if "approvals_from_two_roles" in changes:
            on = changes["approvals_from_two_roles"][1]
            parts.append(
                _("approvals from two roles on") if on else _("approvals from two roles off")
            )
        if "sso_only" in changes:
            on = changes["sso_only"][1]
            parts.append(_("single sign-on only on") if on else _("single sign-on only off"))
        return _("changed %(what)s") % {"what": ", ".join(str(p) for p in parts)}
    return action


def settings_audit(*, team: Team) -> list:
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
