"""Writes of notifications: the fan-out of one event, read marks, preferences.

`notify` is called by the service that made the event happen, after its write and inside its
transaction: the inbox rows commit with the event or not at all, and the emails are queued in the
outbox (apps.accounts.outbox), which sends them only after that commit.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.accounts.outbox import email_queue

from .messages import notification_text
from .models import WEBHOOK_EVENTS, EmailLanguage, Kind, Notification, Preference
from .webhooks import webhooks_queue

EMAIL_TEMPLATE = "notification_event"


def _channels(user_ids: list[int], kind: str) -> dict[int, tuple[bool, bool]]:
    """(inbox, email) per user for one kind; no stored choice means both on."""
    stored = Preference.objects.filter(user_id__in=user_ids, kind=kind).values_list(
        "user_id", "inbox", "email"
    )
    channels = dict.fromkeys(user_ids, (True, True))
    channels.update({user_id: (inbox, email) for user_id, inbox, email in stored})
    return channels


def _email(
    *, user, kind: str, team: Team, params: dict, url: str, event_key: str, language: str
) -> None:
    # Rendered now, in the language the reader chose for their emails.
    with translation.override(language):
        text = notification_text(kind, params)
    email_queue(
        key=f"notification:{event_key}:{user.pk}",
        to=user.email,
        template=EMAIL_TEMPLATE,
        context={
            "text": text,
            "team_name": team.name,
            "url": f"{settings.SITE_URL}{url}" if url else settings.SITE_URL,
            "preferences_url": f"{settings.SITE_URL}/notifications/preferences/",
            "username": user.get_username(),
        },
        language=language,
    )


@transaction.atomic
def notify(
    *,
    kind: str,
    team: Team,
    recipients: Iterable,
    params: dict,
    url: str,
    event_key: str,
    actor=None,
) -> list[int]:
    """Tell `recipients` (users or user ids) of one event of `team`.

    Only current members of the team are told, never the actor, each through the channels
    they chose for `kind`. The same `event_key` never tells one person twice (inbox: unique row;
    email: the outbox key). Returns the ids of the people told by at least one channel.
    """
    if kind not in Kind.values:
        raise ValidationError({"kind": f"unknown notification kind {kind!r}"})
    if kind in WEBHOOK_EVENTS:  # the team's webhooks hear of it whoever the people told are
        webhooks_queue(team=team, kind=kind, params=params, url=url, event_key=event_key)
    ids = {getattr(r, "pk", r) for r in recipients} - {getattr(actor, "pk", actor)}
    users = list(
        get_user_model()
        .objects.filter(pk__in=ids, memberships__team=team, is_active=True)
        .only("id", "email", "username")
    )
    if not users:
        return []
    channels = _channels([u.pk for u in users], kind)
    rows = [
        Notification(recipient=u, team=team, kind=kind, event_key=event_key, params=params, url=url)
        for u in users
        if channels[u.pk][0]
    ]
    # The unique (recipient, event_key) drops a second fan-out of the same event.
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    told = {row.recipient_id for row in rows}
    mailed = [u for u in users if channels[u.pk][1] and u.email]
    languages = dict(
        EmailLanguage.objects.filter(user__in=mailed).values_list("user_id", "language")
    )
    for user in mailed:
        language = languages.get(user.pk, settings.LANGUAGE_CODE)
        _email(
            user=user,
            kind=kind,
            team=team,
            params=params,
            url=url,
            event_key=event_key,
            language=language,
        )
        told.add(user.pk)
    return sorted(told)


def notification_mark_read(*, notification: Notification) -> Notification:
    """Idempotent: a second read keeps the first time."""
    if notification.read_at is None:
        now = timezone.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(read_at=now)
        notification.read_at = now
    return notification


def notifications_mark_all_read(*, user) -> int:
    count = Notification.objects.filter(recipient=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    return count


@transaction.atomic
def preferences_set(*, user, choices: dict[str, dict[str, bool]], language: str) -> None:
    """Store each kind's channels (a kind left out: both off) and the language of emails."""
    unknown = set(choices) - set(Kind.values)
    if unknown:
        raise ValidationError(_("Unknown kinds: %(kinds)s") % {"kinds": ", ".join(sorted(unknown))})
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": _("Choose one of the site's languages.")})
    EmailLanguage.objects.update_or_create(user=user, defaults={"language": language})
    for kind in Kind.values:
        chosen = choices.get(kind, {})
        Preference.objects.update_or_create(
            user=user,
            kind=kind,
            defaults={"inbox": bool(chosen.get("inbox")), "email": bool(chosen.get("email"))},
        )
