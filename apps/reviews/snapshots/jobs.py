"""The jobs that compute snapshots off the request path: request one, publish it to the broker,
claim it in the worker, fail it, and sweep the jobs the broker lost or never received."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.reviews.models import Review, ReviewState
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob

from .services import current_fingerprint

log = logging.getLogger(__name__)

ACTIVE_JOB_STATES = (JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING)
MAX_JOB_ATTEMPTS = 5


def broker_errors() -> tuple[type[BaseException], ...]:
    """What publishing raises when the broker is down or unreachable."""
    from kombu.exceptions import OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)


def _enqueue(job_id: int) -> bool:
    """Publish the job to the broker; if the broker is down, keep it pending for the sweep."""
    from apps.reviews.tasks import compute_snapshot_task

    try:
        compute_snapshot_task.apply_async(args=[job_id], retry=False)
    except broker_errors() as exc:
        log.warning("broker unavailable, job %s kept pending: %s", job_id, exc)
        SnapshotJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
            status=JobStatus.PENDING, updated_at=timezone.now()
        )
        return False
    return True


def snapshot_request(*, review: Review, fingerprint: str | None = None) -> SnapshotJob:
    """Ask for the review's snapshot to be computed off the request path.

    Returns the job the page polls. An active job of the same review is reused, and so is a job
    that failed on the same inputs (they would fail the same way until someone edits them). The
    task is published after the transaction commits; if the broker is down the job stays pending
    and `snapshot_sweep` publishes it later.
    """
    key = fingerprint or current_fingerprint(review)
    last = SnapshotJob.objects.filter(review=review).order_by("-created_at", "-id").first()
    if last is not None and (
        last.status in ACTIVE_JOB_STATES
        or (last.status == JobStatus.FAILED and last.fingerprint == key)
    ):
        return last
    job = SnapshotJob.objects.create(team_id=review.team_id, review=review, fingerprint=key)
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def snapshot_job_claim(*, job_id: int) -> SnapshotJob | None:
    """Mark a job running (a conditional update); None when it is already done or unknown.

    A job already running is claimed again: that is a redelivery after its worker died.
    """
    claimed = SnapshotJob.objects.filter(pk=job_id, status__in=ACTIVE_JOB_STATES).update(
        status=JobStatus.RUNNING, attempts=F("attempts") + 1, updated_at=timezone.now()
    )
    if not claimed:
        return None
    return SnapshotJob.objects.get(pk=job_id)


def snapshot_job_fail(*, job_id: int, error: str) -> None:
    SnapshotJob.objects.filter(pk=job_id).exclude(status=JobStatus.DONE).update(
        status=JobStatus.FAILED, error=error[:2000], updated_at=timezone.now()
    )


def snapshot_sweep(*, stale_after_seconds: int = 600) -> int:
    """Publish pending jobs, and jobs queued or running for too long (lost). Returns the count.

    A job that already used MAX_JOB_ATTEMPTS is marked failed instead of being published again.
    """
    cutoff = timezone.now() - timezone.timedelta(seconds=stale_after_seconds)
    stale = Q(status__in=(JobStatus.QUEUED, JobStatus.RUNNING), updated_at__lt=cutoff)
    SnapshotJob.objects.filter(stale, attempts__gte=MAX_JOB_ATTEMPTS).update(
        status=JobStatus.FAILED,
        error=f"gave up after {MAX_JOB_ATTEMPTS} attempts",
        updated_at=timezone.now(),
    )
    jobs = list(
        SnapshotJob.objects.filter(Q(status=JobStatus.PENDING) | stale)
        .order_by("updated_at")
        .values_list("pk", flat=True)[:500]
    )
    published = 0
    for job_id in jobs:
        SnapshotJob.objects.filter(pk=job_id).update(
            status=JobStatus.QUEUED, updated_at=timezone.now()
        )
        if not _enqueue(job_id):
            break  # the broker is still down: the rest stay pending for the next sweep
        published += 1
    return published


def snapshot_sweep_submitted() -> int:
    """Submitted reviews whose inputs changed under them (an offer, a profile, the team's settings,
    the engine): ask for their new snapshot, whose computation tells the author and the deciders
    that the one they were asked to approve is stale (apps.reviews.notices.notice_stale), without
    waiting for someone to open the review. Returns the number of jobs requested."""
    requested = 0
    submitted = Review.objects.filter(state=ReviewState.SUBMITTED).select_related(
        "team", "task__team", "task__home_site", "task__data_site", "task__result_site"
    )
    for review in submitted.iterator(chunk_size=100):
        try:
            key = current_fingerprint(review)
        except Exception:  # noqa: BLE001 - one review's bad data must not stop the sweep
            log.exception("submitted review %s: inputs not readable", review.pk)
            continue
        if not EvaluationSnapshot.objects.filter(review=review, fingerprint=key).exists():
            snapshot_request(review=review, fingerprint=key)
            requested += 1
    return requested
