"""Celery tasks of the accounts app: sending the outbox (apps.accounts.outbox)."""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from celery.exceptions import Retry
from django.conf import settings

from .outbox import email_claim, email_deliver, email_release, email_sweep

log = logging.getLogger(__name__)


def publish(task, row_id: int, what: str) -> None:
    """Hand one outbox row (an email, a webhook delivery) to the workers; the row stays pending
    for the sweep when that fails. With no broker (eager mode, the embedded default) the task runs
    here, so a failed first attempt comes back as the task's Retry: that is the send failing, not
    the broker, and the row is already pending again for its next attempt."""
    try:
        task.delay(row_id)
    except Retry as retry:
        log.warning("%s %s: the attempt failed (%s); it waits for its next attempt",
                    what, row_id, retry.exc)  # fmt: skip
    except Exception:  # noqa: BLE001 - the broker is down: the row stays pending for the sweep
        log.exception("could not publish %s %s; the sweep will retry", what, row_id)


def retry_countdown(attempt: int) -> int:
    """Seconds before the next attempt: EMAIL_RETRY_BASE_SECONDS doubling, at most ten minutes."""
    return min(600, settings.EMAIL_RETRY_BASE_SECONDS * 2 ** max(0, attempt - 1))


@shared_task(bind=True, name="accounts.send_email_task", max_retries=None)
def send_email_task(self, email_id: int) -> int | None:
    """Send one queued email; a second delivery of the same task finds it claimed and stops."""
    email = email_claim(email_id=email_id)
    if email is None:
        return None
    try:
        email_deliver(email=email)
    except (smtplib.SMTPException, OSError) as exc:
        if email_release(email_id=email_id, error=f"{type(exc).__name__}: {exc}"):
            raise self.retry(exc=exc, countdown=retry_countdown(email.attempts)) from exc
        return None
    return email.pk


@shared_task(name="accounts.sweep_outbox_task")
def sweep_outbox_task() -> int:
    """Beat: re-queue emails left pending or sending too long."""
    return len(email_sweep())


@shared_task(name="accounts.password_reset_mail_task")
def password_reset_mail_task(*, email: str, base_url: str, language: str) -> None:
    """A password reset's mail, known address or not (apps.accounts.password_reset)."""
    from .password_reset import password_reset_mail

    password_reset_mail(email=email, base_url=base_url, language=language)
