"""One event, each email exactly once, with a real Celery worker and Redis (issue 20).

A review is submitted (the owner and the reviewer are told by email); the first send fails like a
dropped SMTP connection (tests/accounts/email_backends.py) and is retried by the worker; the
service's fan-out runs again for the same event and every send task is delivered again. Each
person still gets one email. Needs PostgreSQL and Redis; skipped without them, failing with
CI=true."""

from __future__ import annotations

import time

import pytest
from django.db import transaction

from apps.accounts.models import EmailStatus, OutgoingEmail
from apps.accounts.tasks import send_email_task
from apps.notifications.models import Notification
from apps.reviews.models import AuditEvent
from apps.reviews.notices import notice_submitted
from tests.scoring.test_worker_integration import real_queue  # noqa: F401 - fixture
from tests.teams.helpers import moving_review, submit
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


def _all_sent() -> bool:
    statuses = set(OutgoingEmail.objects.values_list("status", flat=True))
    return statuses == {EmailStatus.SENT}


class NotificationEmailWorkerTests:
    def test_a_submission_emails_each_decider_exactly_once_through_retries_and_repeats(
        self,
        team,
        owner,
        reviewer,
        member,
        real_queue,  # noqa: F811 - the fixture imported above
        tmp_path,
    ):
        env = {
            **real_queue,
            "DJANGO_SETTINGS_MODULE": "tests.accounts.worker_settings",
            "OUTBOX_TEST_DIR": str(tmp_path),
        }
        review = moving_review(team, member, ready=True, title="Plan A")
        with celery_worker(name="notifications", extra_env=env):
            submit(review)  # the emails are published when the submission commits
            _wait_for(lambda: OutgoingEmail.objects.count() == 2 and _all_sent(), what="sent")
            # The same event again (a retried service): no new row, no new email.
            event = AuditEvent.objects.get(review=review, action="submitted")
            with transaction.atomic():
                notice_submitted(review, actor=member, event=event)
            # Every send task delivered again (a redelivery, a sweep racing a retry), waited for
            # until the worker has run each (its result), not for a fixed time: each finds its
            # email claimed and sends nothing.
            again = [
                send_email_task.delay(email_id)
                for email_id in OutgoingEmail.objects.values_list("pk", flat=True)
            ]
            assert [result.get(timeout=60) for result in again] == [None] * len(again)
        assert (tmp_path / "failed-once").exists()  # one first attempt did fail
        sent = sorted((tmp_path / "sent.log").read_text().splitlines())
        event_key = f"notification:review-submitted:{event.pk}"
        assert sent == sorted(
            [
                f"{event_key}:{owner.pk}\t{owner.email}",
                f"{event_key}:{reviewer.pk}\t{reviewer.email}",
            ]
        )
        assert sorted(OutgoingEmail.objects.values_list("attempts", flat=True)) == [1, 2]
        assert Notification.objects.filter(kind="review_submitted").count() == 2
