"""Exactly once with a real worker process and Redis: a round trip, a repeat, and a worker killed
(SIGKILL) in the middle of a snapshot task. Needs PostgreSQL (the worker must see this test run's
database) and Redis; skipped without them, failing with CI=true."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest

from apps.reviews.snapshots.jobs import snapshot_request
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.reviews.snapshots.services import PAUSE_FILE_ENV
from apps.reviews.tasks import compute_snapshot_task
from config.celery import app
from tests.scoring.helpers import make_world
from tests.services import need_postgres, need_redis
from tests.workers import celery_worker

pytestmark = pytest.mark.django_db(transaction=True)
VISIBILITY = 3  # seconds: a killed worker's message comes back quickly


def _wait_for(condition, timeout: float = 60, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _job_status(job_id: int) -> str:
    return SnapshotJob.objects.values_list("status", flat=True).get(pk=job_id)


def _reset_pools() -> None:
    app._pool = None  # pools keep the transport options they were built with
    app.amqp._producer_pool = None


@pytest.fixture
def real_queue():
    """Publish to Redis for real (the test settings make tasks eager), under a key prefix of this
    test that its workers share (tests/scoring/worker_settings.py): other test runs using the
    same Redis database cannot take or restore these messages. Yields the workers' extra env."""
    need_postgres()
    need_redis()
    prefix = f"scoring-test-{uuid.uuid4().hex[:12]}:"
    saved_options = dict(app.conf.broker_transport_options or {})
    app.conf.broker_transport_options = {**saved_options, "global_keyprefix": prefix}
    _reset_pools()
    app.conf.task_always_eager = False
    yield {
        "DJANGO_SETTINGS_MODULE": "tests.scoring.worker_settings",
        "SNAPSHOT_TEST_KEYPREFIX": prefix,
    }
    app.conf.broker_transport_options = saved_options
    _reset_pools()
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


class WorkerRoundTripTests:
    def test_a_snapshot_is_computed_once_by_a_worker_even_when_asked_again(
        self, team, owner, real_queue
    ):
        world = make_world(team, owner)
        with celery_worker(name="snapshots", extra_env=real_queue):
            job = snapshot_request(review=world.review)  # published on commit
            _wait_for(lambda: _job_status(job.pk) == JobStatus.DONE, what="the job")
            snapshot = EvaluationSnapshot.objects.get(review=world.review)
            assert snapshot.table_rows and snapshot.chart_data and snapshot.output["options"]

            # The same message again (a redelivery): the job is done, nothing is claimed.
            assert compute_snapshot_task.delay(job.pk).get(timeout=30) is None
            # A new request for the same inputs: a new job, the same snapshot.
            again = snapshot_request(review=world.review)
            assert again.pk != job.pk
            _wait_for(lambda: _job_status(again.pk) == JobStatus.DONE, what="the second job")
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 1
        again.refresh_from_db()
        job.refresh_from_db()
        assert again.snapshot_id == job.snapshot_id == snapshot.pk
        assert job.attempts == 1


class WorkerKilledTests:
    def test_a_worker_killed_mid_task_leaves_exactly_one_complete_snapshot(
        self, team, owner, real_queue, tmp_path: Path
    ):
        pause = tmp_path / "pause"
        reached = Path(f"{pause}.reached")
        env = {
            **real_queue,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
            "CELERY_ALLOW_SHORT_VISIBILITY": "1",
            "CELERY_TASK_TIME_LIMIT": "60",
            PAUSE_FILE_ENV: str(pause),
        }
        app.conf.broker_transport_options = {
            **app.conf.broker_transport_options, "visibility_timeout": VISIBILITY
        }
        _reset_pools()
        world = make_world(team, owner)
        pause.write_text("hold")
        with celery_worker(name="victim", extra_env=env) as victim:
            job = snapshot_request(review=world.review)
            _wait_for(reached.exists, what="the task to reach the pause point")
            delivered = time.monotonic()
            # Mid-task: the snapshot row is written but not committed, the job is running.
            assert _job_status(job.pk) == JobStatus.RUNNING
            assert not EvaluationSnapshot.objects.filter(review=world.review).exists()
            os.killpg(victim.pid, signal.SIGKILL)
            victim.wait(timeout=10)
        assert victim.returncode == -signal.SIGKILL
        assert not EvaluationSnapshot.objects.filter(review=world.review).exists()
        assert _job_status(job.pk) == JobStatus.RUNNING  # nothing half-written, nothing done
        pause.unlink()
        # The unacknowledged message becomes visible again once its timeout has passed; a
        # starting worker restores such messages before it consumes.
        time.sleep(max(0.0, VISIBILITY + 1 - (time.monotonic() - delivered)))
        with celery_worker(name="rescuer", extra_env=env):
            # A starting worker restores unacknowledged messages, then runs the job: on a loaded
            # machine that can take more than the usual minute.
            _wait_for(
                lambda: _job_status(job.pk) == JobStatus.DONE, timeout=180,
                what="the redelivered job",
            )
        snapshots = list(EvaluationSnapshot.objects.filter(review=world.review))
        assert len(snapshots) == 1
        snapshot = snapshots[0]
        assert snapshot.output["options"] and snapshot.table_rows and snapshot.chart_data
        assert snapshot.chosen_total_cost == pytest.approx(202.45)
        job.refresh_from_db()
        assert (job.status, job.snapshot_id, job.attempts) == (JobStatus.DONE, snapshot.pk, 2)
