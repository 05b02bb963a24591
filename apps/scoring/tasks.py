"""Celery tasks of the scoring app. Tasks take ids, load rows, call one service; they own their
retries and time limits."""

from __future__ import annotations

import logging
import os

from celery import shared_task
from django.db import OperationalError as DatabaseOperationalError

from apps.accounts.models import Team
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
    """Compute the snapshot of a job's review. Safe to run twice, and to be redelivered after
    its worker was killed: the claim accepts a running job, the snapshot is unique."""
    job = services.snapshot_job_claim(job_id=job_id)
    if job is None:
        return None
    try:
        snapshot = services.snapshot_compute(review_id=job.review_id, job_id=job.pk)
    except engine.EngineInputError as exc:
        detail = "; ".join(f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors)
        services.snapshot_job_fail(job_id=job.pk, error=detail)
        return None
    except DatabaseOperationalError:
        raise  # autoretry: the database may be back in a moment
    except Exception as exc:  # noqa: BLE001 - a bug must fail the job, not leave it running
        log.exception("snapshot job %s failed", job.pk)
        services.snapshot_job_fail(job_id=job.pk, error=f"internal error ({type(exc).__name__})")
        return None
    return snapshot.pk


@shared_task(name="scoring.sweep_pending_jobs")
def sweep_pending_jobs() -> int:
    """Publish jobs that were kept pending while the broker was down, or that were lost."""
    return services.snapshot_sweep()


@shared_task(name="scoring.refresh_quarterly")
def refresh_quarterly(team_id: int | None = None) -> int:
    """Rewrite the quarterly cost review of one team (or of all teams, from beat)."""
    team = None
    if team_id is not None:
        team = Team.objects.filter(pk=team_id).first()
        if team is None:
            return 0
    return services.quarterly_refresh(team=team)


@shared_task(name="scoring.recompute_snapshots")
def recompute_snapshots(
    team_id: int | None = None, batch_size: int = 200, after_pk: int = 0
) -> dict:
    """After an engine upgrade: recompute one batch of outdated snapshots, then enqueue the next
    batch, so that no single task runs long (the broker's visibility timeout stays above it)."""
    counts, last = services.snapshot_recompute_batch(
        after_pk=after_pk, team_id=team_id, batch_size=batch_size
    )
    if last is not None:
        recompute_snapshots.apply_async(
            kwargs={"team_id": team_id, "batch_size": batch_size, "after_pk": last}
        )
    return {**counts, "last_review": last}
