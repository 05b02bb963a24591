"""Redis unreachable: every main page still renders, work that needs a worker is kept as a
pending job with a clear message, and the sweep completes it once the broker is back.

The broker is pointed at a closed port (nothing listens on 127.0.0.1:1), so publishing fails at
once; tests/scoring/test_broker_down.py covers the evaluation block itself, this file the pages
around it and the actions that enqueue.
"""

from __future__ import annotations

import kombu.pools
import pytest
from django.urls import reverse

from apps.reviews.snapshots.jobs import snapshot_sweep
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.scoring.services import quarterly_review
from apps.scoring.services.quarterly_review import quarterly_refresh
from config.celery import app
from tests.factories import make_review
from tests.security.helpers import answer_all, build_team

# Real commits: on_commit publishes at once, as it does in production.
pytestmark = pytest.mark.django_db(transaction=True)
DEAD_BROKER = "redis://127.0.0.1:1/0"
PENDING_TEXT = "The task queue is unavailable"


def point_broker(url: str) -> None:
    """Use `url` from the next publish on. Celery caches its connection and producer pools, and
    kombu keeps them in a process-wide registry keyed by connection: close and forget them all,
    as celery does after a fork."""
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.broker_url = url


@pytest.fixture
def broker_down():
    """The broker is unreachable; calling the returned function brings a working one back
    (tasks then run in this process, as a worker would run them)."""
    saved_url, saved_eager = app.conf.broker_url, app.conf.task_always_eager
    point_broker(DEAD_BROKER)
    app.conf.task_always_eager = False

    def back_up() -> None:
        point_broker(saved_url)
        app.conf.task_always_eager = True

    try:
        yield back_up
    finally:
        point_broker(saved_url)
        app.conf.task_always_eager = saved_eager


@pytest.fixture
def alpha(db):
    world = build_team("alpha")
    # A draft whose inputs were never evaluated: opening it needs a worker.
    draft = make_review(
        world.team, world.member, task=world.profile, offers=[world.offer], title="Draft alpha"
    )
    answer_all(draft, world.member)
    world.extra["draft"] = draft
    return world


class BrokerDownPagesTests:
    def test_every_main_page_renders(self, client, alpha, broker_down):
        client.force_login(alpha.owner)
        draft = alpha.extra["draft"]
        pages = [
            reverse("home"),
            reverse("catalog:index"),
            reverse("catalog:offer_list"),
            reverse("profiles:list"),
            reverse("profiles:detail", args=[alpha.profile.pk]),
            reverse("profiles:create"),
            reverse("benchmarks:list"),
            reverse("benchmarks:task", args=[alpha.profile.pk]),
            reverse("reviews:list"),
            reverse("reviews:approvals"),
            reverse("reviews:detail", args=[alpha.review.pk]),
            reverse("checklists:review", args=[draft.pk]),
            reverse("scoring:history"),
            reverse("scoring:snapshot_detail", args=[alpha.snapshot.pk]),
            reverse("scoring:quarterly"),
            reverse("teams:settings"),
            reverse("teams:calibration"),
        ]
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, url
        # Nothing above needed a worker: no job was created for the evaluated review.
        assert not SnapshotJob.objects.filter(review=alpha.review).exists()

    def test_a_review_needing_a_worker_keeps_a_pending_job_until_the_sweep(
        self, client, alpha, broker_down
    ):
        client.force_login(alpha.member)
        draft = alpha.extra["draft"]
        page = client.get(reverse("reviews:detail", args=[draft.pk]))
        assert page.status_code == 200
        assert PENDING_TEXT in page.content.decode()
        job = SnapshotJob.objects.get(review=draft)
        assert job.status == JobStatus.PENDING
        # Polling (htmx) and reopening the page keep the one job, still pending, no 500.
        block = reverse("scoring:review_evaluation", args=[draft.pk])
        for _ in range(2):
            poll = client.get(block, HTTP_HX_REQUEST="true")
            assert poll.status_code == 200
            assert PENDING_TEXT in poll.content.decode()
        assert client.get(reverse("reviews:detail", args=[draft.pk])).status_code == 200
        assert list(SnapshotJob.objects.filter(review=draft).values_list("status", flat=True)) == [
            JobStatus.PENDING
        ]
        assert not EvaluationSnapshot.objects.filter(review=draft).exists()
        assert snapshot_sweep() == 0  # still down: nothing published, nothing lost

        broker_down()  # the broker is back
        assert snapshot_sweep() == 1
        job.refresh_from_db()
        assert job.status == JobStatus.DONE
        assert EvaluationSnapshot.objects.filter(review=draft).count() == 1
        assert client.get(block, HTTP_HX_REQUEST="true").status_code == 286  # polling stops

    def test_refresh_now_still_answers_and_refreshes(
        self, client, alpha, broker_down, monkeypatch
    ):
        refreshed = []
        original = quarterly_refresh
        monkeypatch.setattr(
            quarterly_review, "quarterly_refresh", lambda *, team: refreshed.append(team) or original(team=team)
        )
        client.force_login(alpha.owner)
        response = client.post(reverse("scoring:quarterly_refresh"))
        assert response.status_code == 302
        # Refreshed in the request instead (it is one query per team): no task id to poll.
        assert response["Location"] == reverse("scoring:quarterly")
        assert refreshed == [alpha.team]
        page = client.get(response["Location"])
        assert page.status_code == 200
        assert not page.context["refreshing"]

    def test_refresh_now_tells_the_user_the_queue_is_down(self, client, alpha, broker_down):
        client.force_login(alpha.owner)
        page = client.post(reverse("scoring:quarterly_refresh"), follow=True)
        assert page.status_code == 200
        shown = [str(m) for m in page.context["messages"]]
        assert any(PENDING_TEXT in m for m in shown), shown
        assert PENDING_TEXT in page.content.decode()  # on the page, not only in the context
