"""A broker that is down: the request still answers, the job is kept pending, and the periodic
sweep publishes it once the broker is back."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.reviews.snapshots.jobs import snapshot_sweep
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from config.celery import app
from tests.scoring.helpers import make_world

# Real commits: on_commit publishes at once, as in production.
pytestmark = pytest.mark.django_db(transaction=True)
DEAD_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1
HX = {"HTTP_HX_REQUEST": "true"}


def _point_broker(url: str) -> None:
    app.conf.broker_url = url
    app._pool = None  # the connection pools were built for the previous URL
    app.amqp._producer_pool = None


@pytest.fixture
def broker_down():
    saved_url, saved_eager = app.conf.broker_url, app.conf.task_always_eager
    _point_broker(DEAD_BROKER)
    app.conf.task_always_eager = False

    def back_up() -> None:
        _point_broker(saved_url)
        app.conf.task_always_eager = True  # the worker: tasks run in-process from here on

    yield back_up
    _point_broker(saved_url)
    app.conf.task_always_eager = saved_eager


class BrokerDownTests:
    def test_the_page_answers_and_the_job_waits_for_the_sweep(
        self, client, team, owner, broker_down
    ):
        world = make_world(team, owner)
        client.force_login(owner)
        url = reverse("scoring:review_evaluation", args=[world.review.pk])
        # That publishing gives up at once rather than waiting for the broker is configuration
        # (tests/test_celery.py); how long it takes belongs in bench/, not in a test.
        response = client.get(url, **HX)
        assert response.status_code == 200
        html = response.content.decode()
        assert "The task queue is unavailable" in html
        assert 'hx-trigger="every 1s"' in html  # the page keeps asking
        job = SnapshotJob.objects.get(review=world.review)
        assert job.status == JobStatus.PENDING
        # The review page that includes the block renders too.
        page = client.get(reverse("reviews:detail", args=[world.review.pk]))
        assert page.status_code == 200
        assert "The task queue is unavailable" in page.content.decode()
        assert SnapshotJob.objects.filter(review=world.review).count() == 1
        # While the broker is still down the sweep publishes nothing and loses nothing.
        assert snapshot_sweep() == 0
        assert SnapshotJob.objects.get(pk=job.pk).status == JobStatus.PENDING

        broker_down()  # the broker is back
        assert snapshot_sweep() == 1
        job.refresh_from_db()
        assert job.status == JobStatus.DONE
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 1
        assert client.get(url, **HX).status_code == 286
