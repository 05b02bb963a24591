"""Celery tasks of the notifications app: sending webhook deliveries (notifications.webhooks)."""

from __future__ import annotations

from celery import shared_task

from apps.accounts.tasks import retry_countdown

from .webhooks import (
    DeliveryFailed,
    webhook_claim,
    webhook_deliver,
    webhook_release,
    webhook_sweep,
)


@shared_task(bind=True, name="notifications.send_webhook_task", max_retries=None)
def send_webhook_task(self, delivery_id: int) -> int | None:
    """Send one queued delivery; a second delivery of the same task finds it claimed and stops.
    Retries with the outbox's backoff (apps.accounts.tasks.retry_countdown)."""
    delivery = webhook_claim(delivery_id=delivery_id)
    if delivery is None:
        return None
    try:
        return webhook_deliver(delivery=delivery)
    except DeliveryFailed as exc:
        if webhook_release(delivery_id=delivery_id):
            raise self.retry(exc=exc, countdown=retry_countdown(delivery.attempts)) from exc
        return None


@shared_task(name="notifications.sweep_webhooks_task")
def sweep_webhooks_task() -> int:
    """Beat: re-queue deliveries left pending or sending too long."""
    return len(webhook_sweep())
