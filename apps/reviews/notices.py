"""Who hears of what happens to a review (issue 20): the review's side of the notifications.

Each function is called by the service that made the event happen, inside its transaction, with
the audit event (or snapshot) that records it, whose id keys the event: a retried or repeated
call never tells anyone twice. apps.notifications drops the actor and anyone not in the team.
"""

from __future__ import annotations

from django.urls import reverse

from apps.accounts.models import Membership, Role
from apps.notifications.models import Kind
from apps.notifications.services import notify

from .four_eyes import CONTRIBUTING_ACTIONS
from .models import AuditEvent, Review

DECIDING_ROLES = (Role.REVIEWER, Role.OWNER)  # the roles that may approve (four_eyes)


def deciders(review: Review) -> list[int]:
    """The team's members whose role may decide on the review."""
    return list(
        Membership.objects.filter(team_id=review.team_id, role__in=DECIDING_ROLES).values_list(
            "user_id", flat=True
        )
    )


def author_and_contributors(review: Review) -> list[int]:
    """The author and whoever contributed an edit to the review (audit trail)."""
    contributors = (
        AuditEvent.objects.filter(review=review, action__in=CONTRIBUTING_ACTIONS)
        .exclude(actor__isnull=True)
        .values_list("actor_id", flat=True)
        .distinct()
    )
    return [review.author_id, *contributors]


def _notify(review: Review, *, kind: str, recipients, event_key: str, actor=None, **params) -> None:
    names = {"actor": actor.get_username()} if actor is not None else {}
    notify(
        kind=kind,
        team=review.team,
        recipients=recipients,
        params={"review": review.title, "team": review.team.name, **names, **params},
        url=reverse("reviews:detail", args=[review.pk]),
        event_key=event_key,
        actor=actor,
    )


def notice_submitted(review: Review, *, actor, event: AuditEvent) -> None:
    """Submitted: the team's deciders hear of it (not the submitter)."""
    _notify(
        review,
        kind=Kind.REVIEW_SUBMITTED,
        recipients=deciders(review),
        event_key=f"review-submitted:{event.pk}",
        actor=actor,
    )


def notice_decided(review: Review, *, actor, event: AuditEvent) -> None:
    """Approved, rejected or sent back for changes: the author and contributors hear of it."""
    if event.action == "changes_requested":
        kind, params = Kind.CHANGES_REQUESTED, {}
    else:
        kind, params = Kind.DECISION_TAKEN, {"decision": event.action}
    _notify(
        review,
        kind=kind,
        recipients=author_and_contributors(review),
        event_key=f"review-{event.action}:{event.pk}",
        actor=actor,
        **params,
    )


def notice_stale(review: Review) -> None:
    """A submitted review's inputs changed, so its snapshot is no longer the one to decide on:
    the author and the deciders hear of it once per round (the next changes wait for the
    next round)."""
    _notify(
        review,
        kind=Kind.SNAPSHOT_STALE,
        recipients=[review.author_id, *deciders(review)],
        event_key=f"review-stale:{review.pk}:round-{review.round}",
    )
