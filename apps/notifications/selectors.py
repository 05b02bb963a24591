"""Reads of the inbox: a person's notifications in the teams they still belong to."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from apps.accounts.models import Membership

from .models import EmailLanguage, Kind, Notification, Preference


def _team_ids(user) -> QuerySet:
    # A person who left a team no longer reads what happened in it.
    return Membership.objects.filter(user=user).values("team_id")


def inbox(*, user) -> QuerySet:
    """Newest first, with the team's name (one query per page, whatever the rows)."""
    return (
        Notification.objects.filter(recipient=user, team_id__in=_team_ids(user))
        .select_related("team")
        .only("id", "recipient", "kind", "params", "url", "created_at", "read_at", "team__name")
        .order_by("-created_at", "-id")
    )


def unread(*, user, team_ids: list[int] | None = None) -> QuerySet:
    """`team_ids`: the user's teams, when the caller has their memberships at hand."""
    teams = _team_ids(user) if team_ids is None else team_ids
    return Notification.objects.filter(recipient=user, read_at__isnull=True, team_id__in=teams)


def unread_count(*, user) -> int:
    """The bell: one COUNT on the partial index of unread rows."""
    return unread(user=user).count()


def latest_unread(*, user, limit: int) -> list[Notification]:
    return list(inbox(user=user).filter(read_at__isnull=True)[:limit])


def notification_for(*, user, pk) -> Notification:
    """The user's own notification (another person's, even a teammate's, does not exist)."""
    return inbox(user=user).get(pk=pk)


def preferences(*, user) -> list[dict]:
    """One entry per kind with both channels (no row: both on)."""
    stored = {p.kind: p for p in Preference.objects.filter(user=user)}
    rows = []
    for kind, label in Kind.choices:
        pref = stored.get(kind)
        rows.append(
            {
                "kind": kind,
                "label": label,
                "inbox": pref.inbox if pref else True,
                "email": pref.email if pref else True,
            }
        )
    return rows


def email_language(*, user) -> str:
    chosen = EmailLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE
