"""Exactly once with a real Celery worker and Redis: an email queued twice under one key, whose
first send fails (tests/accounts/email_backends.py), is retried and delivered exactly once, and a
second delivery of the task sends nothing. Needs PostgreSQL and Redis; skipped without them,
failing with CI=true."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import EmailStatus, OutgoingEmail
from apps.accounts.outbox import email_queue
from apps.accounts.tasks import send_email_task
from tests.scoring.test_worker_integration import real_queue  # noqa: F401 - fixture
from tests.workers import celery_worker

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for(condition, timeout: float = 60, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _queue() -> OutgoingEmail:
    with transaction.atomic():
        return email_queue(
            key="invitation-42",
            to="new@example.com",
            template="invitation",
            context={
                "inviter_name": "Ada",
                "team_name": "Platform",
                "role_label": "reviewer",
                "accept_url": "https://reviews.example.com/accounts/invitations/accept/x/",
                "expires_at": timezone.now() + timedelta(days=7),
            },
            language="en",
        )


class OutboxWorkerTests:
    def test_an_email_queued_twice_and_retried_is_delivered_exactly_once(
        self,
        real_queue,  # noqa: F811 - the fixture imported above
        tmp_path,
    ):
        env = {
            **real_queue,
            "DJANGO_SETTINGS_MODULE": "tests.accounts.worker_settings",
            "OUTBOX_TEST_DIR": str(tmp_path),
        }
        with celery_worker(name="outbox", extra_env=env):
            first = _queue()  # published on commit
            second = _queue()  # same key: the same row, nothing published
            assert first.pk == second.pk
            _wait_for(
                lambda: OutgoingEmail.objects.get(pk=first.pk).status == EmailStatus.SENT,
                what="the email to be sent after its retry",
            )
            # The task delivered again (a redelivery, a sweep racing the retry): nothing new.
            # Waited for until the worker has run both (their results), not for a fixed time.
            again = [send_email_task.delay(first.pk), send_email_task.delay(first.pk)]
            assert [result.get(timeout=60) for result in again] == [None, None]
        assert (tmp_path / "failed-once").exists()  # the first attempt did fail
        sent = (tmp_path / "sent.log").read_text().splitlines()
        assert sent == ["invitation-42\tnew@example.com"]
        email = OutgoingEmail.objects.get(pk=first.pk)
        assert email.attempts == 2 and email.status == EmailStatus.SENT
        assert email.last_error.startswith("SMTPServerDisconnected")  # kept as history
        assert OutgoingEmail.objects.count() == 1
