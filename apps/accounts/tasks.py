"""Celery tasks of the accounts app: sending the outbox (apps.accounts.outbox)."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.conf import settings

from .outbox import email_claim, email_deliver, email_release, email_sweep


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
