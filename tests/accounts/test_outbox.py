"""The email outbox in-process: rendering in the recipient's language, idempotent keys, a task
delivered twice, failures and retries, the sweep, and EMAIL_URL parsing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from apps.accounts.models import EmailStatus, OutgoingEmail
from apps.accounts.outbox import EMAIL_MAX_ATTEMPTS, email_queue, email_sweep
from apps.accounts.tasks import send_email_task
from config.settings import parse_email_url

pytestmark = pytest.mark.django_db

CONTEXT = {
    "inviter_name": "Ada",
    "team_name": "Platform",
    "role_label": "reviewer",
    "accept_url": "https://reviews.example.com/accounts/invitations/accept/abc/",
    "expires_at": timezone.now() + timedelta(days=7),
}


def _queue(key: str = "invitation-1", language: str = "en") -> OutgoingEmail:
    return email_queue(
        key=key, to="new@example.com", template="invitation", context=CONTEXT, language=language
    )


class OutboxQueueTests:
    def test_it_renders_subject_text_and_html_when_queued(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            email = _queue()
        email.refresh_from_db()
        assert email.subject == "You are invited to Platform on Compute reviews"
        assert CONTEXT["accept_url"] in email.text
        assert f'href="{CONTEXT["accept_url"]}"' in email.html
        assert email.status == EmailStatus.SENT and email.attempts == 1
        [sent] = mail.outbox
        assert sent.to == ["new@example.com"] and sent.subject == email.subject
        assert sent.alternatives[0][1] == "text/html"

    def test_it_renders_in_the_language_given(self, django_capture_on_commit_callbacks):
        email = _queue(language="zh-hans")
        assert "邀请" in email.subject and "Platform" in email.subject
        assert "接受邀请" in email.html

    def test_it_queues_one_email_per_key(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            first = _queue()
            second = _queue()
        with django_capture_on_commit_callbacks(execute=True):
            third = _queue()
        assert first.pk == second.pk == third.pk
        assert OutgoingEmail.objects.count() == 1
        assert len(mail.outbox) == 1

    def test_it_sends_only_after_commit(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            _queue()
        assert mail.outbox == [] and len(callbacks) == 1


class SendEmailTaskTests:
    def test_a_task_delivered_twice_sends_once(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=False):
            email = _queue()
        assert send_email_task.apply(args=[email.pk]).get() == email.pk
        assert send_email_task.apply(args=[email.pk]).get() is None
        assert len(mail.outbox) == 1
        email.refresh_from_db()
        assert email.status == EmailStatus.SENT and email.sent_at is not None

    def test_a_failed_send_goes_back_to_pending_then_fails_after_the_last_attempt(
        self, settings, django_capture_on_commit_callbacks
    ):
        settings.EMAIL_BACKEND = "tests.accounts.test_outbox.RefusingBackend"
        with django_capture_on_commit_callbacks(execute=False):
            email = _queue()
        from apps.accounts.outbox import email_claim, email_release

        email_claim(email_id=email.pk)
        assert email_release(email_id=email.pk, error="SMTPServerDisconnected: gone") is True
        email.refresh_from_db()
        assert (email.status, email.attempts) == (EmailStatus.PENDING, 1)
        assert email.last_error == "SMTPServerDisconnected: gone"
        OutgoingEmail.objects.filter(pk=email.pk).update(attempts=EMAIL_MAX_ATTEMPTS - 1)
        send_email_task.apply(args=[email.pk])
        email.refresh_from_db()
        assert (email.status, email.attempts) == (EmailStatus.FAILED, EMAIL_MAX_ATTEMPTS)
        assert "refused by the test backend" in email.last_error
        assert mail.outbox == []


class RefusingBackend:
    """An SMTP server that refuses every message (real smtplib exception, no Django mock)."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        import smtplib

        raise smtplib.SMTPDataError(554, b"refused by the test backend")


class OutboxSweepTests:
    def test_it_requeues_emails_stuck_pending_or_sending(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=False):
            pending = _queue("stuck-pending")
            sending = _queue("stuck-sending")
            _queue("fresh")
        long_ago = timezone.now() - timedelta(hours=1)
        OutgoingEmail.objects.filter(pk=pending.pk).update(updated_at=long_ago)
        OutgoingEmail.objects.filter(pk=sending.pk).update(
            status=EmailStatus.SENDING, updated_at=long_ago
        )
        assert sorted(email_sweep()) == sorted([pending.pk, sending.pk])
        statuses = dict(OutgoingEmail.objects.values_list("key", "status"))
        assert statuses == {
            "stuck-pending": EmailStatus.SENT,
            "stuck-sending": EmailStatus.SENT,
            "fresh": EmailStatus.PENDING,
        }
        assert sorted(m.extra_headers["X-Outbox-Key"] for m in mail.outbox) == [
            "stuck-pending",
            "stuck-sending",
        ]


class EmailUrlTests:
    def test_it_reads_smtp_with_starttls_and_an_encoded_password(self):
        parsed = parse_email_url("smtp+tls://mailer%40corp.example:p%2Fss@smtp.example.com")
        assert parsed["EMAIL_HOST"] == "smtp.example.com" and parsed["EMAIL_PORT"] == 587
        assert parsed["EMAIL_HOST_USER"] == "mailer@corp.example"
        assert parsed["EMAIL_HOST_PASSWORD"] == "p/ss"
        assert parsed["EMAIL_USE_TLS"] is True and parsed["EMAIL_USE_SSL"] is False

    def test_it_reads_smtps_plain_smtp_and_console(self):
        assert parse_email_url("smtps://u:p@mail.example.com")["EMAIL_PORT"] == 465
        assert parse_email_url("smtps://u:p@mail.example.com")["EMAIL_USE_SSL"] is True
        plain = parse_email_url("smtp://mail.example.com:2525")
        assert (plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"], plain["EMAIL_HOST_USER"]) == (
            2525,
            False,
            "",
        )
        assert parse_email_url("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")

    @pytest.mark.parametrize(
        "url", ["http://mail.example.com", "smtp://", "smtp://mail.example.com:notaport"]
    )
    def test_it_refuses_a_bad_url_loudly(self, url):
        with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
            parse_email_url(url)
