"""Celery tasks of the scoring app. Tasks take ids, load rows, call one service; they own their
retries and time limits."""

from __future__ import annotations

import logging
import os

from celery import shared_task
from django.db import OperationalError as DatabaseOperationalError

from apps.scoring import engine, services

log = logging.getLogger(__name__)


@shared_task(name="scoring.ping")
def ping(value: str) -> dict:
    """Health check: proves a message made the round trip through the broker and a worker."""
    return {"echo": value, "pid": os.getpid()}


@shared_task(
    bind=True,
    name="scoring.compute_snapshot",
    autoretry_for=(DatabaseOperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=120,
    time_limit=150,
)
def compute_snapshot(self, job_id: int) -> int | None:
    """Compute the snapshot of a job's review. Safe to run twice: the snapshot is unique."""
    job = services.snapshot_job_claim(job_id=job_id)
    if job is None:
        return None
    try:
        snapshot = services.snapshot_compute(review_id=job.review_id, job_id=job.pk)
    except engine.EngineInputError as exc:
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        services.snapshot_job_fail(job_id=job.pk, error=detail)
        return None
    return snapshot.pk


@shared_task(name="scoring.sweep_pending_jobs")
def sweep_pending_jobs() -> int:
    """Publish jobs that were kept pending while the broker was down, or that were lost."""
    return services.snapshot_sweep()
