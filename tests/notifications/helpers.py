"""People of two teams for the notification tests, and what each was told."""

from __future__ import annotations

from apps.accounts.models import OutgoingEmail
from apps.notifications.models import Notification, Preference
from tests.factories import make_membership, make_user


def person(team, username: str, role: str = "member"):
    return make_membership(make_user(username), team, role).user


def prefer(user, kind: str, *, inbox: bool = True, email: bool = True) -> None:
    Preference.objects.update_or_create(
        user=user, kind=kind, defaults={"inbox": inbox, "email": email}
    )


def inboxed(kind: str) -> set[str]:
    """Usernames with an inbox row of `kind`."""
    return set(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def mailed(fragment: str = "") -> list[str]:
    """Addresses of the queued emails whose key holds `fragment`, one per email."""
    return sorted(OutgoingEmail.objects.filter(key__contains=fragment).values_list("to", flat=True))
