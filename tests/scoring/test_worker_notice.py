"""A stopped worker (issue 35): the evaluation's spinner does not poll forever. A job no worker
has taken for 30 s (or one running past the task's time limit) turns it into a notice saying what
happened and what to do, and both pollers of the review page stop (status 286, no trigger)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.reviews.models import ReviewState
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.reviews.snapshots.selectors import RUNNING_LOST_SECONDS, WORKER_SILENT_SECONDS
from apps.reviews.snapshots.services import current_fingerprint
from tests.scoring.helpers import make_world

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
NOTICE = "No worker has answered for over 30 seconds."


def _waiting_job(review, *, status=JobStatus.QUEUED, age_seconds: float) -> SnapshotJob:
    """The job of the review's current inputs, as a worker that never came leaves it."""
    job = SnapshotJob.objects.create(
        team_id=review.team_id,
        review=review,
        fingerprint=current_fingerprint(review),
        status=status,
    )
    then = timezone.now() - timedelta(seconds=age_seconds)
    SnapshotJob.objects.filter(pk=job.pk).update(created_at=then, updated_at=then)
    return job


class WorkerNoticeTests:
    def test_it_keeps_polling_while_the_job_is_young(self, client, team, owner):
        world = make_world(team, owner)
        _waiting_job(world.review, age_seconds=WORKER_SILENT_SECONDS - 5)
        client.force_login(owner)
        response = client.get(reverse("scoring:review_evaluation", args=[world.review.pk]), **HX)
        html = response.content.decode()
        assert response.status_code == 200
        assert 'hx-trigger="every 1s"' in html
        assert "Waiting for a worker" in html and NOTICE not in html

    @pytest.mark.parametrize(
        ("status", "age"),
        [
            (JobStatus.QUEUED, WORKER_SILENT_SECONDS + 1),
            (JobStatus.PENDING, WORKER_SILENT_SECONDS + 1),
            (JobStatus.RUNNING, RUNNING_LOST_SECONDS + 1),
        ],
    )
    def test_it_turns_the_spinner_into_a_notice_and_stops(self, client, team, owner, status, age):
        world = make_world(team, owner)
        _waiting_job(world.review, status=status, age_seconds=age)
        client.force_login(owner)
        response = client.get(reverse("scoring:review_evaluation", args=[world.review.pk]), **HX)
        html = response.content.decode()
        assert response.status_code == 286  # htmx: stop polling
        assert NOTICE in html and "start a worker" in html
        assert "hx-trigger" not in html and "spinner" not in html
        assert not EvaluationSnapshot.objects.filter(review=world.review).exists()

    def test_a_running_job_within_its_time_limit_is_still_waited_for(self, client, team, owner):
        world = make_world(team, owner)
        _waiting_job(world.review, status=JobStatus.RUNNING, age_seconds=WORKER_SILENT_SECONDS + 5)
        client.force_login(owner)
        response = client.get(reverse("scoring:review_evaluation", args=[world.review.pk]), **HX)
        assert response.status_code == 200
        assert "Computing the comparison table" in response.content.decode()

    def test_the_reviewer_panel_stops_polling_and_says_why(self, client, team, owner, reviewer):
        world = make_world(team, owner)
        world.review.state = ReviewState.SUBMITTED
        world.review.save(update_fields=["state"])
        _waiting_job(world.review, age_seconds=WORKER_SILENT_SECONDS + 1)
        client.force_login(reviewer)
        page = client.get(reverse("reviews:detail", args=[world.review.pk]))
        html = page.content.decode()
        assert page.status_code == 200
        assert NOTICE in html
        assert "you can decide once they exist" in html
        assert 'hx-trigger="every 2s"' not in html and 'hx-trigger="every 1s"' not in html
        # The band keeps its place and says the figures are not there yet.
        assert 'data-glance="pending"' in html
