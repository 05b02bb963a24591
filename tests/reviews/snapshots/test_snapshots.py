"""Snapshots: exactly once per (review, inputs + engine version), complete or absent, and the
jobs that compute them (on-commit enqueue, claim, failure, sweep)."""

from __future__ import annotations

import pytest
from django.utils import timezone

import engine
from apps.accounts.generations import bump_keys
from apps.reviews.snapshots import services as snapshots
from apps.reviews.snapshots.jobs import (
    MAX_JOB_ATTEMPTS,
    snapshot_job_claim,
    snapshot_request,
    snapshot_sweep,
)
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.reviews.snapshots.services import current_fingerprint, snapshot_compute
from apps.reviews.tasks import compute_snapshot_task, sweep_pending_jobs_task
from tests.scoring.helpers import make_world

pytestmark = pytest.mark.django_db


class SnapshotComputeTests:
    def test_it_computes_once_for_the_same_inputs(self, team, owner):
        world = make_world(team, owner)
        first = snapshot_compute(review_id=world.review.pk)
        second = snapshot_compute(review_id=world.review.pk)
        assert first.pk == second.pk
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 1

    def test_it_writes_a_complete_row_with_headline_figures(self, team, owner):
        world = make_world(team, owner)
        snapshot = snapshot_compute(review_id=world.review.pk)
        assert snapshot.team_id == team.pk and snapshot.task_id == world.task.pk
        assert snapshot.engine_version == snapshot.output["engine_version"]
        assert len(snapshot.input_hash) == 64 and len(snapshot.fingerprint) == 64
        assert snapshot.input["task"]["name"] == "Nightly batch inference"
        # 3 options and the single/multi benchmark pair.
        assert [r["row_type"] for r in snapshot.table_rows] == ["option"] * 3 + ["benchmark"] * 2
        assert set(snapshot.chart_data) == {"hours", "cost", "objective", "scaling", "indicators"}
        # The far offer (1.2/GPU-hour, 8 GPUs, 20 h) wins: 192 compute + 10.45 transfer.
        assert (snapshot.chosen_kind, snapshot.chosen_site) == ("move_data", "far-one")
        assert snapshot.chosen_offer == str(world.remote.pk)
        assert snapshot.chosen_total_cost == pytest.approx(202.45)
        assert snapshot.chosen_total_hours == pytest.approx(20.080889)
        assert snapshot.platform == "compute_platform"
        # H2 blocks (no channel reserved for a plan that moves data); H1 warns (cross hub).
        assert (snapshot.block_count, snapshot.warn_count) == (1, 1)
        assert snapshot.review_state == "draft"

    def test_it_finds_the_same_snapshot_after_an_edit_and_revert(self, team, owner):
        world = make_world(team, owner)
        first = snapshot_compute(review_id=world.review.pk)
        world.task.compute_hours = 30
        world.task.save()
        changed = snapshot_compute(review_id=world.review.pk)
        assert changed.pk != first.pk
        assert changed.chosen_total_hours == pytest.approx(30.080889)
        world.task.compute_hours = 20
        world.task.save()
        reverted = snapshot_compute(review_id=world.review.pk)
        assert reverted.pk == first.pk
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 2

    def test_it_keeps_the_first_row_when_another_run_writes_it_meanwhile(
        self, team, owner, monkeypatch
    ):
        world = make_world(team, owner)
        real_evaluate = engine.evaluate
        inner: list[EvaluationSnapshot] = []

        def racing_evaluate(data):
            if not inner:  # another worker finishes the same snapshot while this one evaluates
                inner.append(None)
                inner[0] = snapshot_compute(review_id=world.review.pk)
            return real_evaluate(data)

        monkeypatch.setattr(engine, "evaluate", racing_evaluate)
        outer = snapshot_compute(review_id=world.review.pk)
        assert outer.pk == inner[0].pk
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 1

    def test_it_writes_nothing_when_the_job_update_fails(self, team, owner, monkeypatch):
        world = make_world(team, owner)
        job = SnapshotJob.objects.create(team=team, review=world.review)

        def broken_update(self, **kwargs):
            raise RuntimeError("database went away mid-write")

        monkeypatch.setattr(
            type(SnapshotJob.objects.filter(pk=job.pk)), "update", broken_update
        )
        with pytest.raises(RuntimeError):
            snapshot_compute(review_id=world.review.pk, job_id=job.pk)
        monkeypatch.undo()
        assert not EvaluationSnapshot.objects.filter(review=world.review).exists()

    def test_it_marks_the_job_done_with_its_snapshot(self, team, owner):
        world = make_world(team, owner)
        job = SnapshotJob.objects.create(team=team, review=world.review)
        snapshot = snapshot_compute(review_id=world.review.pk, job_id=job.pk)
        job.refresh_from_db()
        assert (job.status, job.snapshot_id, job.error) == (JobStatus.DONE, snapshot.pk, "")


def enqueued(callbacks: list) -> list:
    """The on-commit callbacks that publish a task, without the team's cache generation bumps
    (apps.accounts.signals bumps again once a write commits)."""
    return [c for c in callbacks if getattr(c, "func", None) is not bump_keys]


class SnapshotRequestTests:
    def test_it_enqueues_on_commit_and_the_task_computes_the_snapshot(
        self, team, owner, django_capture_on_commit_callbacks
    ):
        world = make_world(team, owner)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            job = snapshot_request(review=world.review)
            assert job.status == JobStatus.QUEUED
            assert not EvaluationSnapshot.objects.exists()  # nothing before the commit
        [publish] = enqueued(callbacks)
        publish()  # the commit happens: the task is published (eager in tests)
        job.refresh_from_db()
        assert job.status == JobStatus.DONE and job.attempts == 1
        assert job.snapshot.review_id == world.review.pk
        assert job.fingerprint == current_fingerprint(world.review)

    def test_it_reuses_the_active_job(self, team, owner, django_capture_on_commit_callbacks):
        world = make_world(team, owner)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            first = snapshot_request(review=world.review)
            second = snapshot_request(review=world.review)
        assert first.pk == second.pk
        assert len(enqueued(callbacks)) == 1

    def test_it_fails_the_job_with_the_offending_field_paths(
        self, team, owner, django_capture_on_commit_callbacks
    ):
        world = make_world(team, owner)
        team.thresholds = {"headroom": 7}  # a usable share of GPU memory above 100 %
        team.save()
        with django_capture_on_commit_callbacks(execute=True):
            job = snapshot_request(review=world.review)
        job.refresh_from_db()
        assert job.status == JobStatus.FAILED
        assert "thresholds.headroom" in job.error
        assert not EvaluationSnapshot.objects.exists()

    def test_it_does_not_retry_a_failed_job_until_the_inputs_change(
        self, team, owner, django_capture_on_commit_callbacks
    ):
        world = make_world(team, owner)
        team.thresholds = {"headroom": 7}
        team.save()
        with django_capture_on_commit_callbacks(execute=True):
            failed = snapshot_request(review=world.review)
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            again = snapshot_request(review=world.review)
        assert again.pk == failed.pk and enqueued(callbacks) == []
        team.thresholds = {"headroom": 0.85}
        team.save()
        with django_capture_on_commit_callbacks(execute=True):
            fixed = snapshot_request(review=world.review)
        fixed.refresh_from_db()
        assert fixed.pk != failed.pk and fixed.status == JobStatus.DONE

    def test_it_fails_the_job_on_an_unexpected_error(self, team, owner, monkeypatch):
        world = make_world(team, owner)
        job = SnapshotJob.objects.create(team=team, review=world.review)

        def boom(*args, **kwargs):
            raise ZeroDivisionError

        monkeypatch.setattr(snapshots, "comparison_rows", boom)
        assert compute_snapshot_task.apply(args=[job.pk]).get() is None
        job.refresh_from_db()
        assert job.status == JobStatus.FAILED
        assert job.error == "internal error (ZeroDivisionError)"


class SnapshotTaskTests:
    def test_a_task_run_twice_leaves_one_snapshot(self, team, owner):
        world = make_world(team, owner)
        job = SnapshotJob.objects.create(team=team, review=world.review)
        first = compute_snapshot_task.apply(args=[job.pk]).get()
        second = compute_snapshot_task.apply(args=[job.pk]).get()
        assert first == EvaluationSnapshot.objects.get().pk
        assert second is None  # the job was done: the redelivery claims nothing
        job.refresh_from_db()
        assert job.attempts == 1

    def test_a_redelivered_running_job_is_claimed_again(self, team, owner):
        world = make_world(team, owner)
        job = SnapshotJob.objects.create(
            team=team, review=world.review, status=JobStatus.RUNNING, attempts=1
        )
        snapshot_pk = compute_snapshot_task.apply(args=[job.pk]).get()
        job.refresh_from_db()
        assert (job.status, job.attempts, job.snapshot_id) == (JobStatus.DONE, 2, snapshot_pk)

    def test_the_claim_refuses_done_and_failed_jobs(self, team, owner):
        world = make_world(team, owner)
        done = SnapshotJob.objects.create(team=team, review=world.review, status=JobStatus.DONE)
        failed = SnapshotJob.objects.create(
            team=team, review=world.review, status=JobStatus.FAILED
        )
        assert snapshot_job_claim(job_id=done.pk) is None
        assert snapshot_job_claim(job_id=failed.pk) is None
        assert snapshot_job_claim(job_id=999999) is None


class SnapshotSweepTests:
    def test_it_publishes_pending_and_lost_jobs(self, team, owner):
        world = make_world(team, owner)
        pending = SnapshotJob.objects.create(
            team=team, review=world.review, status=JobStatus.PENDING
        )
        assert sweep_pending_jobs_task.apply().get() == 1
        pending.refresh_from_db()
        assert pending.status == JobStatus.DONE and pending.snapshot is not None

    def test_it_gives_up_on_a_job_that_keeps_getting_lost(self, team, owner):
        world = make_world(team, owner)
        lost = SnapshotJob.objects.create(
            team=team, review=world.review, status=JobStatus.RUNNING,
            attempts=MAX_JOB_ATTEMPTS,
        )
        SnapshotJob.objects.filter(pk=lost.pk).update(
            updated_at=timezone.now() - timezone.timedelta(hours=1)
        )
        assert snapshot_sweep() == 0
        lost.refresh_from_db()
        assert lost.status == JobStatus.FAILED
        assert "gave up" in lost.error

    def test_it_leaves_recent_running_jobs_alone(self, team, owner):
        world = make_world(team, owner)
        running = SnapshotJob.objects.create(
            team=team, review=world.review, status=JobStatus.RUNNING, attempts=1
        )
        assert snapshot_sweep() == 0
        running.refresh_from_db()
        assert running.status == JobStatus.RUNNING
