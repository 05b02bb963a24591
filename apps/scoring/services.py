"""Writes of the scoring app: evaluation snapshots and the jobs that compute them.

Exactly once: a snapshot is keyed by (review, fingerprint of its engine input + engine version).
Computing twice, retrying, or a redelivery after a killed worker finds the same key and leaves one
complete row; the row and its job update are written in one transaction.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.checklists.models import AnswerStatus, ChecklistAnswer, Question
from apps.reviews.models import Review
from apps.scoring import engine
from apps.scoring.charts import build_charts
from apps.scoring.inputs import build_profile_input, fingerprint, input_hash
from apps.scoring.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.scoring.tables import comparison_rows

log = logging.getLogger(__name__)

ACTIVE_JOB_STATES = (JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING)


def review_checklists(review: Review, candidates) -> dict[str, dict[str, str]]:
    """{offer id: {q1: answered|unanswered, …}} for every candidate (missing = unanswered)."""
    answers = ChecklistAnswer.objects.filter(candidate__review=review).values_list(
        "candidate__offer_id", "question", "status"
    )
    unanswered = AnswerStatus.UNANSWERED.value
    result = {str(c.offer_id): dict.fromkeys(Question.values, unanswered) for c in candidates}
    for offer_id, question, status in answers:
        if str(offer_id) in result:
            result[str(offer_id)][question] = status
    return result


def build_review_input(review: Review) -> dict:
    """The engine input of a review: frozen once approved, else built from the current data."""
    if review.frozen_input is not None:
        return review.frozen_input
    candidates = list(review.candidates.select_related("offer__site").order_by("position", "id"))
    task = review.task
    return build_profile_input(
        task,
        offers=[c.offer for c in candidates],
        machines={c.offer_id: c.machines for c in candidates},
        checklists=review_checklists(review, candidates),
        reserved_link_ids=set(review.reserved_links.values_list("id", flat=True)),
    )


def current_fingerprint(review: Review) -> str:
    return fingerprint(build_review_input(review))


def current_snapshot(review: Review) -> EvaluationSnapshot | None:
    """The snapshot computed on the review's inputs as they are now, if it exists yet."""
    return EvaluationSnapshot.objects.filter(
        review=review, fingerprint=current_fingerprint(review)
    ).first()


def latest_snapshot(review: Review) -> EvaluationSnapshot | None:
    return review.snapshots.order_by("-created_at", "-id").first()


def _headline(output: dict) -> dict:
    chosen = output.get("chosen")
    option = None
    if chosen:
        option = next(
            (
                o for o in output["options"]
                if (o["kind"], o["site"], o["offer"])
                == (chosen["kind"], chosen["site"], chosen["offer"])
            ),
            None,
        )
    severities = [f["severity"] for f in output.get("findings", [])]
    return {
        "platform": output.get("platform", ""),
        "chosen_kind": chosen["kind"] if chosen else "",
        "chosen_site": chosen["site"] if chosen else "",
        "chosen_offer": chosen["offer"] if chosen else "",
        "chosen_total_cost": option["total_cost"] if option else None,
        "chosen_total_hours": option["total_hours"] if option else None,
        "block_count": severities.count("block"),
        "warn_count": severities.count("warn"),
    }


def snapshot_compute(*, review_id: int, job_id: int | None = None) -> EvaluationSnapshot:
    """Compute (or find) the snapshot of the review's current inputs. Idempotent.

    Raises engine.EngineInputError when the stored data cannot be evaluated; the job records it.
    """
    review = Review.objects.select_related(
        "team", "task__team", "task__home_site", "task__data_site", "task__result_site"
    ).get(pk=review_id)
    data = build_review_input(review)
    key = fingerprint(data)
    snapshot = EvaluationSnapshot.objects.filter(review=review, fingerprint=key).first()
    if snapshot is None:
        output = engine.evaluate(data)
        rows = comparison_rows(data, output)
        charts = build_charts(rows, output)
        try:
            with transaction.atomic():
                snapshot = EvaluationSnapshot.objects.create(
                    team_id=review.team_id,
                    review=review,
                    task_id=review.task_id,
                    fingerprint=key,
                    input_hash=input_hash(data),
                    engine_version=output["engine_version"],
                    input=data,
                    output=output,
                    table_rows=rows,
                    chart_data=charts,
                    review_state=review.state,
                    inputs_generation=review.inputs_generation,
                    settings_generation=review.team.settings_generation,
                    **_headline(output),
                )
        except IntegrityError:
            # Another run wrote the same snapshot first: that one stands.
            snapshot = EvaluationSnapshot.objects.get(review=review, fingerprint=key)
    if job_id is not None:
        SnapshotJob.objects.filter(pk=job_id).update(
            status=JobStatus.DONE, snapshot=snapshot, error="", updated_at=timezone.now()
        )
    return snapshot


def _broker_errors() -> tuple[type[BaseException], ...]:
    from kombu.exceptions import OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, RedisConnectionError, RedisTimeoutError, ConnectionError)


def _enqueue(job_id: int) -> None:
    """Publish the job to the broker; if the broker is down, keep it pending for the sweep."""
    from apps.scoring.tasks import compute_snapshot

    try:
        compute_snapshot.apply_async(args=[job_id], retry=False)
    except _broker_errors() as exc:
        log.warning("broker unavailable, job %s kept pending: %s", job_id, exc)
        SnapshotJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
            status=JobStatus.PENDING, updated_at=timezone.now()
        )


def snapshot_request(*, review: Review) -> SnapshotJob:
    """Ask for the review's snapshot to be computed off the request path.

    Returns the job the page polls. An active job of the same review is reused. The task is
    published after the transaction commits; if the broker is down the job stays pending and
    `snapshot_sweep` publishes it later.
    """
    active = (
        SnapshotJob.objects.filter(review=review, status__in=ACTIVE_JOB_STATES)
        .order_by("-created_at")
        .first()
    )
    if active is not None:
        return active
    job = SnapshotJob.objects.create(team_id=review.team_id, review=review)
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def snapshot_job_claim(*, job_id: int) -> SnapshotJob | None:
    """Mark a job running (a conditional update); None when it is already done or unknown."""
    claimed = SnapshotJob.objects.filter(pk=job_id, status__in=ACTIVE_JOB_STATES).update(
        status=JobStatus.RUNNING, attempts=F("attempts") + 1, updated_at=timezone.now()
    )
    if not claimed:
        return None
    return SnapshotJob.objects.get(pk=job_id)


def snapshot_job_fail(*, job_id: int, error: str) -> None:
    SnapshotJob.objects.filter(pk=job_id).update(
        status=JobStatus.FAILED, error=error[:2000], updated_at=timezone.now()
    )


def snapshot_sweep(*, stale_after_seconds: int = 600) -> int:
    """Publish pending jobs, and jobs queued or running for too long (lost). Returns the count."""
    cutoff = timezone.now() - timezone.timedelta(seconds=stale_after_seconds)
    jobs = list(
        SnapshotJob.objects.filter(
            Q(status=JobStatus.PENDING)
            | Q(status__in=(JobStatus.QUEUED, JobStatus.RUNNING), updated_at__lt=cutoff)
        ).values_list("pk", flat=True)[:500]
    )
    for job_id in jobs:
        SnapshotJob.objects.filter(pk=job_id, status=JobStatus.PENDING).update(
            status=JobStatus.QUEUED, updated_at=timezone.now()
        )
        _enqueue(job_id)
    return len(jobs)
