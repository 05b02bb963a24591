"""The email outbox: every email the site sends is rendered when it is queued, stored as an
`OutgoingEmail` row and sent after commit by a Celery task (apps.accounts.tasks), never in the
request.

- `email_queue` is idempotent on `key`: a second call with the same key returns the first row and
  sends nothing new (callers derive the key from the event: "invitation-12-sent").
- `email_claim` takes a row pending -> sending with a conditional update: of two deliveries of the
  same task only one sends.
- A failed attempt (SMTP or network error) puts the row back to pending and the task retries with
  backoff; after `EMAIL_MAX_ATTEMPTS` the row is `failed` with the last error.
- `email_sweep` (Celery beat) re-queues rows left pending (the broker was down at commit) or
  sending (the worker died mid-send) for longer than `EMAIL_STUCK_AFTER`. A worker killed after the
  SMTP server accepted a message but before the row was marked sent can therefore send it twice:
  the outbox is at least once for crashes, exactly once for retries and duplicate deliveries.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.utils import timezone, translation

from .models import EmailStatus, OutgoingEmail

EMAIL_MAX_ATTEMPTS = 5
EMAIL_STUCK_AFTER = timedelta(minutes=15)


def _render(template: str, context: dict, language: str) -> tuple[str, str, str]:
    with translation.override(language):
        subject = render_to_string(f"email/{template}.subject.txt", context)
        text = render_to_string(f"email/{template}.txt", context)
        try:
            html = render_to_string(f"email/{template}.html", context)
        except TemplateDoesNotExist:
            html = ""
    # A subject is one line (a header): newlines from template whitespace would break it.
    return " ".join(subject.split())[:255], text, html


def email_queue(*, key: str, to: str, template: str, context: dict, language: str) -> OutgoingEmail:
    """Render `templates/email/<template>.{subject.txt,txt,html}` in `language` and queue it."""
    existing = OutgoingEmail.objects.filter(key=key).first()
    if existing is not None:
        return existing
    subject, text, html = _render(template, context, language)
    return email_queue_rendered(key=key, to=to, subject=subject, text=text, html=html)


def email_queue_rendered(
    *, key: str, to: str, subject: str, text: str, html: str = ""
) -> OutgoingEmail:
    """Queue an email whose content is already rendered (allauth renders its own messages)."""
    try:
        with transaction.atomic():
            email, created = OutgoingEmail.objects.get_or_create(
                key=key[:200],
                defaults={"to": to, "subject": subject[:255], "text": text, "html": html},
            )
    except IntegrityError:  # queued by a concurrent request between the lookup and the insert
        return OutgoingEmail.objects.get(key=key[:200])
    if created:
        transaction.on_commit(lambda: _publish(email.pk))
    return email


def _publish(email_id: int) -> None:
    from .tasks import publish, send_email_task

    publish(send_email_task, email_id, "email")


def email_claim(*, email_id: int) -> OutgoingEmail | None:
    """Take a pending email for sending; None when another delivery has it or it is done."""
    claimed = OutgoingEmail.objects.filter(pk=email_id, status=EmailStatus.PENDING).update(
        status=EmailStatus.SENDING, attempts=F("attempts") + 1, updated_at=timezone.now()
    )
    if not claimed:
        return None
    return OutgoingEmail.objects.get(pk=email_id)


def email_deliver(*, email: OutgoingEmail) -> None:
    """Send a claimed email through Django's email backend and mark it sent."""
    message = EmailMultiAlternatives(
        subject=email.subject,
        body=email.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[email.to],
        headers={"X-Outbox-Key": email.key},
    )
    if email.html:
        message.attach_alternative(email.html, "text/html")
    message.send(fail_silently=False)
    now = timezone.now()
    OutgoingEmail.objects.filter(pk=email.pk).update(
        status=EmailStatus.SENT, sent_at=now, updated_at=now
    )


def email_release(*, email_id: int, error: str) -> bool:
    """After a failed attempt: back to pending (True, retry) or failed after the last attempt."""
    email = OutgoingEmail.objects.get(pk=email_id)
    final = email.attempts >= EMAIL_MAX_ATTEMPTS
    OutgoingEmail.objects.filter(pk=email_id, status=EmailStatus.SENDING).update(
        status=EmailStatus.FAILED if final else EmailStatus.PENDING,
        last_error=error[:2000],
        updated_at=timezone.now(),
    )
    return not final


def email_sweep(*, now=None) -> list[int]:
    """Re-queue emails stuck pending or sending for longer than EMAIL_STUCK_AFTER."""
    cutoff = (now or timezone.now()) - EMAIL_STUCK_AFTER
    stuck = OutgoingEmail.objects.filter(
        Q(status=EmailStatus.PENDING) | Q(status=EmailStatus.SENDING), updated_at__lt=cutoff
    )
    ids = list(stuck.values_list("pk", flat=True))
    OutgoingEmail.objects.filter(pk__in=ids, status=EmailStatus.SENDING).update(
        status=EmailStatus.PENDING, updated_at=timezone.now()
    )
    for email_id in ids:
        _publish(email_id)
    return ids
