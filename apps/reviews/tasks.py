"""Celery tasks of the reviews app: the snapshot workflow. Tasks take ids, load rows, call one
service; they own their retries and time limits. Every task's name ends in `_task`, so a task is
never mistaken for the service it calls (`compute_snapshot_task` runs `snapshot_compute`). Their
registered names keep the prefix `scoring.` they had when the workflow was the scoring app's, so
messages already queued, and beat's schedule, still reach them."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError as DatabaseOperationalError

import engine
from apps.reviews.snapshots.jobs import (
    snapshot_job_claim,
    snapshot_job_fail,
    snapshot_sweep,
    snapshot_sweep_submitted,
)
from apps.reviews.snapshots.recompute import snapshot_recompute_batch
from apps.reviews.snapshots.services import snapshot_compute

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="scoring.compute_snapshot_task",
    autoretry_for=(DatabaseOperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=120,
    time_limit=150,
)
def compute_snapshot_task(self, job_id: int) -> int | None:
    """Compute the snapshot of a job's review. Safe to run twice, and to be redelivered after
    its worker was killed: the claim accepts a running job, the snapshot is unique."""
    job = snapshot_job_claim(job_id=job_id)
    if job is None:
        return None
    try:
        snapshot = snapshot_compute(review_id=job.review_id, job_id=job.pk)
    except engine.EngineInputError as exc:
        detail = "; ".join(f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors)
        snapshot_job_fail(job_id=job.pk, error=detail)
        return None
    except DatabaseOperationalError:
        raise  # autoretry: the database may be back in a moment
    except Exception as exc:  # noqa: BLE001 - a bug must fail the job, not leave it running
        log.exception("snapshot job %s failed", job.pk)
        snapshot_job_fail(job_id=job.pk, error=f"internal error ({type(exc).__name__})")
        return None
    return snapshot.pk


@shared_task(name="scoring.sweep_pending_jobs_task")
def sweep_pending_jobs_task() -> int:
    """Publish jobs that were kept pending while the broker was down, or that were lost."""
    return snapshot_sweep()


@shared_task(name="scoring.sweep_submitted_reviews_task")
def sweep_submitted_reviews_task() -> int:
    """Beat: recompute submitted reviews whose inputs changed (their deciders hear of it)."""
    return snapshot_sweep_submitted()


@shared_task(name="scoring.recompute_snapshots_task")
def recompute_snapshots_task(
    team_id: int | None = None, batch_size: int = 200, after_pk: int = 0
) -> dict:
    """After an engine upgrade: recompute one batch of outdated snapshots, then enqueue the next
    batch, so that no single task runs long (the broker's visibility timeout stays above it)."""
    counts, last = snapshot_recompute_batch(
        after_pk=after_pk, team_id=team_id, batch_size=batch_size
    )
    if last is not None:
        recompute_snapshots_task.apply_async(
            kwargs={"team_id": team_id, "batch_size": batch_size, "after_pk": last}
        )
    return {**counts, "last_review": last}
