"""Webhooks: a team's events posted to the endpoints its owner added (issue 40).

Each event becomes one `WebhookDelivery` per subscribed endpoint, queued inside the transaction
that made the event happen and sent after commit by a Celery task (apps.notifications.tasks),
the way the email outbox (apps.accounts.outbox) sends emails: idempotent on the event key, claimed
with a conditional update so two deliveries of the task send once, a failed attempt back to
pending and retried with backoff, `failed` after `WEBHOOK_MAX_ATTEMPTS`, a sweep for rows left
behind. Every attempt is logged with the status code it got (the endpoint's delivery log).

The body is JSON signed with HMAC-SHA256: `X-Webhook-Signature: sha256=<hex>` over
`<X-Webhook-Timestamp>.<body>` with the endpoint's secret; or, for chat, Slack's shape (`text` and
`blocks`). Calls go through apps.web.outbound (the address rule, at send time and on every
redirect). An endpoint whose attempts have all failed for `PAUSE_AFTER` is paused and the owner
who added it (or the team's owners) told.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.accounts.models import Role, Team
from apps.accounts.tasks import publish
from apps.web import outbound

from .messages import notification_text
from .models import (
    WEBHOOK_EVENTS,
    DeliveryStatus,
    Kind,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookShape,
)

WEBHOOK_MAX_ATTEMPTS = 8
WEBHOOK_STUCK_AFTER = timedelta(minutes=15)
PAUSE_AFTER = timedelta(days=1)
TEST_EVENT = "test"
SIGNATURE_HEADER = "X-Webhook-Signature"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
EVENT_HEADER = "X-Webhook-Event"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The signature header's value: what a receiver recomputes with the secret to trust a call."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def webhook_endpoint_create(
    *, team: Team, url: str, events: list[str], shape: str, created_by
) -> WebhookEndpoint:
    """Add an endpoint; its `secret` is on the returned row, to be shown once."""
    errors = {}
    try:
        outbound.check_url(url)
    except outbound.OutboundRefused as exc:
        errors["url"] = exc.message
    unknown = [e for e in events if e not in WEBHOOK_EVENTS]
    if unknown or not events:
        errors["events"] = _("Choose one or more of the listed events.")
    if errors:
        raise ValidationError(errors)
    endpoint = WebhookEndpoint(
        team=team, url=url.strip(), events=list(dict.fromkeys(events)), shape=shape,
        secret="whsec_" + secrets.token_urlsafe(32), created_by=created_by,
    )  # fmt: skip
    endpoint.full_clean()
    endpoint.save()
    return endpoint


def webhook_endpoint_resume(*, endpoint: WebhookEndpoint) -> None:
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        active=True, paused_at=None, failing_since=None
    )


def webhook_endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    endpoint.delete()  # its deliveries and their log go with it


def _payload(endpoint: WebhookEndpoint, event: str, params: dict, url: str, key: str) -> str:
    link = f"{settings.SITE_URL}{url}" if url else settings.SITE_URL
    with translation.override(settings.LANGUAGE_CODE):
        text = (
            _("Test delivery from %(team)s: the webhook works.") % {"team": endpoint.team.name}
            if event == TEST_EVENT
            else notification_text(event, {**params, "team": endpoint.team.name})
        )
    if endpoint.shape == WebhookShape.SLACK:
        body = {
            "text": f"{text} {link}",
            "blocks": [
                {"type": "section", "text": {"type": "mrkdwn", "text": f"{text}\n<{link}|{link}>"}}
            ],
        }
    else:
        body = {
            "id": key, "event": event, "team": endpoint.team.slug, "text": text, "url": link,
            "data": params, "occurred_at": timezone.now().isoformat(),
        }  # fmt: skip
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def _queue(endpoint: WebhookEndpoint, event: str, params: dict, url: str, key: str):
    try:
        with transaction.atomic():
            delivery, created = WebhookDelivery.objects.get_or_create(
                endpoint=endpoint,
                event_key=key[:200],
                defaults={"event": event, "body": _payload(endpoint, event, params, url, key)},
            )
    except IntegrityError:  # queued by a concurrent call between the lookup and the insert
        return WebhookDelivery.objects.get(endpoint=endpoint, event_key=key[:200])
    if created:
        transaction.on_commit(lambda: _publish(delivery.pk))
    return delivery


def webhooks_queue(*, team: Team, kind: str, params: dict, url: str, event_key: str) -> list[int]:
    """Queue the event for each active endpoint of the team subscribed to it; the delivery ids."""
    endpoints = WebhookEndpoint.objects.filter(team=team, active=True).select_related("team")
    return [
        _queue(endpoint, kind, params, url, event_key).pk
        for endpoint in endpoints
        if kind in endpoint.events
    ]


def webhook_send_test(*, endpoint: WebhookEndpoint) -> WebhookDelivery:
    """The "send test" button: one delivery of a test event, whatever the subscriptions."""
    key = f"test:{timezone.now().isoformat()}:{secrets.token_hex(4)}"
    return _queue(endpoint, TEST_EVENT, {}, "", key)


def _publish(delivery_id: int) -> None:
    from .tasks import send_webhook_task

    publish(send_webhook_task, delivery_id, "webhook delivery")


def webhook_claim(*, delivery_id: int) -> WebhookDelivery | None:
    """Take a pending delivery of an active endpoint; None when another worker has it or done."""
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id, status=DeliveryStatus.PENDING, endpoint__active=True
    ).update(status=DeliveryStatus.SENDING, attempts=F("attempts") + 1, updated_at=timezone.now())
    if not claimed:
        return None
    return WebhookDelivery.objects.select_related("endpoint__team").get(pk=delivery_id)


class DeliveryFailed(Exception):
    """An attempt the receiver did not accept (a non-2xx answer, a refused address, no answer)."""


def webhook_deliver(*, delivery: WebhookDelivery) -> int:
    """Post a claimed delivery; mark it delivered on a 2xx, else log and raise DeliveryFailed."""
    endpoint = delivery.endpoint
    body = delivery.body.encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "compute-reviews-webhooks/1",
        EVENT_HEADER: delivery.event,
        TIMESTAMP_HEADER: timestamp,
        SIGNATURE_HEADER: sign(endpoint.secret, timestamp, body),
    }
    code, error = None, ""
    try:
        code = outbound.request("POST", endpoint.url, body=body, headers=headers).status
    except outbound.OutboundRefused as exc:
        error = f"refused: {exc.message}"
    except OSError as exc:
        error = f"{type(exc).__name__}: {exc}"
    WebhookAttempt.objects.create(delivery=delivery, status_code=code, error=error[:500])
    now = timezone.now()
    if code is not None and 200 <= code < 300:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=DeliveryStatus.DELIVERED, last_status_code=code, last_error="",
            delivered_at=now, updated_at=now,
        )  # fmt: skip
        WebhookEndpoint.objects.filter(pk=endpoint.pk, failing_since__isnull=False).update(
            failing_since=None
        )
        return code
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        last_status_code=code, last_error=error or f"HTTP {code}", updated_at=now
    )
    raise DeliveryFailed(error or f"HTTP {code}")


def webhook_release(*, delivery_id: int, now=None) -> bool:
    """After a failed attempt: back to pending (True: retry) or failed after the last attempt;
    an endpoint failing for PAUSE_AFTER is paused and its owner told."""
    now = now or timezone.now()
    delivery = WebhookDelivery.objects.select_related("endpoint__team").get(pk=delivery_id)
    endpoint = delivery.endpoint
    WebhookEndpoint.objects.filter(pk=endpoint.pk, failing_since__isnull=True).update(
        failing_since=now
    )
    endpoint.refresh_from_db(fields=["failing_since", "active"])
    paused = endpoint.active and endpoint.failing_since <= now - PAUSE_AFTER
    if paused:
        _pause(endpoint, now)
    final = paused or delivery.attempts >= WEBHOOK_MAX_ATTEMPTS
    WebhookDelivery.objects.filter(pk=delivery_id, status=DeliveryStatus.SENDING).update(
        status=DeliveryStatus.FAILED if final else DeliveryStatus.PENDING, updated_at=now
    )
    return not final


def _pause(endpoint: WebhookEndpoint, now) -> None:
    from .services import notify

    if not WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).update(
        active=False, paused_at=now
    ):
        return  # paused by another worker, who told the owner
    WebhookDelivery.objects.filter(endpoint=endpoint, status=DeliveryStatus.PENDING).update(
        status=DeliveryStatus.FAILED, last_error="endpoint paused", updated_at=now
    )
    owners = get_user_model().objects.filter(
        memberships__team=endpoint.team, memberships__role=Role.OWNER
    )
    recipients = [endpoint.created_by_id] if endpoint.created_by_id else []
    recipients = recipients if owners.filter(pk__in=recipients).exists() else list(owners)
    notify(
        kind=Kind.WEBHOOK_PAUSED, team=endpoint.team, recipients=recipients,
        params={"url": endpoint.url, "team": endpoint.team.name},
        url=reverse("teams:webhook_detail", args=[endpoint.pk]),
        event_key=f"webhook-paused:{endpoint.pk}:{now.isoformat()}",
    )  # fmt: skip


def webhook_sweep(*, now=None) -> list[int]:
    """Re-queue deliveries left pending or sending for longer than WEBHOOK_STUCK_AFTER."""
    cutoff = (now or timezone.now()) - WEBHOOK_STUCK_AFTER
    stuck = WebhookDelivery.objects.filter(
        Q(status=DeliveryStatus.PENDING) | Q(status=DeliveryStatus.SENDING),
        updated_at__lt=cutoff,
        endpoint__active=True,
    )
    ids = list(stuck.values_list("pk", flat=True))
    WebhookDelivery.objects.filter(pk__in=ids, status=DeliveryStatus.SENDING).update(
        status=DeliveryStatus.PENDING, updated_at=timezone.now()
    )
    for delivery_id in ids:
        _publish(delivery_id)
    return ids
