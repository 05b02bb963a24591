"""Writes of the scoring app: evaluation snapshots, the jobs that compute them, the recomputation
after an engine upgrade, and the quarterly cost review.

Exactly once: a snapshot is keyed by (review, fingerprint of its engine input + engine version).
Computing twice, retrying, or a redelivery after a killed worker finds the same key and leaves one
complete row; the row and its job update are written in one transaction.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.accounts.models import Team
from apps.checklists.models import AnswerStatus, ChecklistAnswer, Question
from apps.reviews.models import FINAL_STATES, Decision, Review, ReviewState, SignOff
from apps.scoring import engine
from apps.scoring.charts import build_charts
from apps.scoring.inputs import build_profile_input, fingerprint, input_hash
from apps.scoring.models import EvaluationSnapshot, JobStatus, QuarterlyCostReview, SnapshotJob
from apps.scoring.quarterly import team_quarters
from apps.scoring.tables import comparison_rows

log = logging.getLogger(__name__)

ACTIVE_JOB_STATES = (JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING)
MAX_JOB_ATTEMPTS = 5
# Test hook (never set in production): while the file named here exists, snapshot_compute waits
# inside its transaction, after writing the snapshot row and before committing it, so a test can
# SIGKILL the worker at that exact point. It writes "<file>.reached" when it starts waiting.
PAUSE_FILE_ENV = "SNAPSHOT_TEST_PAUSE_FILE"


def review_checklists(
    review: Review, candidates, answers: Iterable[tuple] | None = None
) -> dict[str, dict[str, str]]:
    """{offer id: {q1: answered|unanswered, …}} for every candidate (missing = unanswered).

    `answers`: (offer id, question, status) triples a caller already loaded, else queried.
    """
    if answers is None:
        answers = ChecklistAnswer.objects.filter(candidate__review=review).values_list(
            "candidate__offer_id", "question", "status"
        )
    unanswered = AnswerStatus.UNANSWERED.value
    result = {str(c.offer_id): dict.fromkeys(Question.values, unanswered) for c in candidates}
    for offer_id, question, status in answers:
        if str(offer_id) in result:
            result[str(offer_id)][question] = status
    return result


def build_review_input(
    review: Review,
    *,
    candidates: list | None = None,
    answers: Iterable[tuple] | None = None,
    reserved_link_ids: set[int] | None = None,
) -> dict:
    """The engine input of a review: frozen once approved, else built from the current data.

    A page that already loaded the candidates (with offer and site), the answers or the
    reserved links passes them, so they are not queried twice.
    """
    if review.frozen_input is not None:
        return review.frozen_input
    if candidates is None:
        candidates = list(
            review.candidates.select_related("offer__site").order_by("position", "id")
        )
    if reserved_link_ids is None:
        reserved_link_ids = set(review.reserved_links.values_list("id", flat=True))
    task = review.task
    if task.team_id == review.team_id:
        task.team = review.team  # the same row: loaded once with the review, not again
    return build_profile_input(
        task,
        offers=[c.offer for c in candidates],
        machines={c.offer_id: c.machines for c in candidates},
        migration_effort={
            c.offer_id: c.migration_effort_hours
            for c in candidates
            if c.migration_effort_hours is not None
        },
        checklists=review_checklists(review, candidates, answers),
        reserved_link_ids=reserved_link_ids,
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


def signed_snapshot(review: Review) -> EvaluationSnapshot | None:
    """The snapshot an approved review was signed on, as the engine of that day computed it.

    The snapshot of its last approving sign-off; for a review approved without one (seeded
    data), its newest snapshot of the frozen input. Never looked up by fingerprint: the
    fingerprint includes the engine version, so after an upgrade the frozen input has another
    one, and a signed decision keeps the figures it was made on (SPEC 6). None when the review
    is not approved or no snapshot matches.
    """
    if review.state != ReviewState.APPROVED:
        return None
    snapshots = EvaluationSnapshot.objects.select_related("team").filter(review=review)
    approved_on = (
        SignOff.objects.filter(review=review, decision=Decision.APPROVE)
        .order_by("-created_at", "-id")
        .values_list("snapshot_id", flat=True)
        .first()
    )
    if approved_on is not None:
        return snapshots.filter(pk=approved_on).first()
    if review.frozen_input is None:
        return None
    return (
        snapshots.filter(input_hash=input_hash(review.frozen_input))
        .order_by("-created_at", "-id")
        .first()
    )


def _headline(output: dict, rows: list[dict]) -> dict:
    """The denormalised figures of a snapshot; the chosen total is its total bill (SPEC T)."""
    chosen = output.get("chosen")
    row = next((r for r in rows if r.get("chosen")), None)
    severities = [f["severity"] for f in output.get("findings", [])]
    return {
        "platform": output.get("platform", ""),
        "chosen_kind": chosen["kind"] if chosen else "",
        "chosen_site": chosen["site"] if chosen else "",
        "chosen_offer": str(chosen["offer"]) if chosen else "",
        "chosen_total_cost": row["total_cost"] if row else None,
        "chosen_total_hours": row["total_hours"] if row else None,
        "block_count": severities.count("block"),
        "warn_count": severities.count("warn"),
    }


def _pause_for_tests() -> None:
    path = os.environ.get(PAUSE_FILE_ENV)
    if not path or not os.path.exists(path):
        return
    Path(f"{path}.reached").write_text(str(os.getpid()))
    deadline = time.monotonic() + 120
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)


def snapshot_compute(*, review_id: int, job_id: int | None = None) -> EvaluationSnapshot:
    """Compute (or find) the snapshot of the review's current inputs. Idempotent.

    The snapshot row and the job's "done" are committed together or not at all, so a worker
    killed half-way leaves nothing behind and its redelivered task starts from a clean slate.
    Raises engine.EngineInputError when the stored data cannot be evaluated; the job records it.
    """
    review = Review.objects.select_related(
        "team", "task__team", "task__home_site", "task__data_site", "task__result_site"
    ).get(pk=review_id)
    data = build_review_input(review)
    key = fingerprint(data)
    snapshot = EvaluationSnapshot.objects.filter(review=review, fingerprint=key).first()
    fields = None
    if snapshot is None:
        output = engine.evaluate(data)
        rows = comparison_rows(data, output)
        fields = {
            "team_id": review.team_id,
            "review": review,
            "task_id": review.task_id,
            "fingerprint": key,
            "input_hash": input_hash(data),
            "engine_version": output["engine_version"],
            "input": data,
            "output": output,
            "table_rows": rows,
            "chart_data": build_charts(rows, output, data),
            "review_state": review.state,
            "inputs_generation": review.inputs_generation,
            "settings_generation": review.team.settings_generation,
            **_headline(output, rows),
        }
    with transaction.atomic():
        if fields is not None:
            try:
                with transaction.atomic():
                    snapshot = EvaluationSnapshot.objects.create(**fields)
            except IntegrityError:
                # Another run wrote the same snapshot first: that one stands.
                snapshot = EvaluationSnapshot.objects.get(review=review, fingerprint=key)
            _pause_for_tests()
        if job_id is not None:
            SnapshotJob.objects.filter(pk=job_id).update(
                status=JobStatus.DONE, snapshot=snapshot, error="", updated_at=timezone.now()
            )
    return snapshot


def _broker_errors() -> tuple[type[BaseException], ...]:
    from kombu.exceptions import OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)


def _enqueue(job_id: int) -> bool:
    """Publish the job to the broker; if the broker is down, keep it pending for the sweep."""
    from apps.scoring.tasks import compute_snapshot

    try:
        compute_snapshot.apply_async(args=[job_id], retry=False)
    except _broker_errors() as exc:
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


RECOMPUTE_COUNTS = (
    "reviews", "outdated", "never_evaluated", "computed", "approved_kept", "rejected_kept",
    "failed",
)


def snapshot_recompute_batch(
    *,
    after_pk: int = 0,
    team_id: int | None = None,
    batch_size: int = 200,
    dry_run: bool = False,
) -> tuple[dict, int | None]:
    """One batch of the recomputation after an engine upgrade (SPEC 6): of the reviews with
    pk > `after_pk` (at most `batch_size`), every open one (draft, submitted, changes requested)
    whose latest snapshot was computed by another engine version, or that has none yet, gets a
    snapshot of its current inputs by the current engine, each in its own transaction
    (snapshot_compute). Decided reviews are left alone: an approved one keeps the snapshot it
    was signed on, a rejected one the figures it was rejected on.

    Returns the counts (`failed_reviews`: [review id, error] of the reviews the engine refused)
    and the last pk seen (None when nothing was left).
    """
    counts: dict = dict.fromkeys(RECOMPUTE_COUNTS, 0)
    counts["failed_reviews"] = []
    reviews = Review.objects.filter(pk__gt=after_pk)
    if team_id is not None:
        reviews = reviews.filter(team_id=team_id)
    batch = list(reviews.order_by("pk").values_list("pk", "state")[:batch_size])
    if not batch:
        return counts, None
    latest: dict[int, str] = {}
    for review_id, version in (
        EvaluationSnapshot.objects.filter(review_id__in=[pk for pk, _ in batch])
        .order_by("review_id", "-created_at", "-id")
        .values_list("review_id", "engine_version")
    ):
        latest.setdefault(review_id, version)
    counts["reviews"] = len(batch)
    for review_id, state in batch:
        version = latest.get(review_id)
        if version == engine.ENGINE_VERSION:
            continue  # already current
        if state in FINAL_STATES:
            if version is not None:
                key = "approved_kept" if state == ReviewState.APPROVED else "rejected_kept"
                counts[key] += 1
            continue
        counts["outdated" if version is not None else "never_evaluated"] += 1
        if dry_run:
            continue
        try:
            snapshot_compute(review_id=review_id)
        except engine.EngineInputError as exc:
            counts["failed"] += 1
            detail = "; ".join(f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors)
            counts["failed_reviews"].append([review_id, detail[:500]])
            log.warning("review %s cannot be evaluated: %s", review_id, exc.errors)
        else:
            counts["computed"] += 1
    return counts, batch[-1][0]


def snapshot_recompute_outdated(
    *,
    team_id: int | None = None,
    batch_size: int = 200,
    dry_run: bool = False,
    progress: Callable[[dict], None] | None = None,
) -> dict:
    """Every batch of snapshot_recompute_batch, walking reviews by primary-key ranges.

    Idempotent: a rerun (or a run after an interruption) finds the open reviews already computed
    by the current engine and skips them. `progress` is called after each batch with the totals.
    """
    totals: dict = dict.fromkeys(RECOMPUTE_COUNTS, 0)
    totals["failed_reviews"] = []
    after = 0
    while True:
        counts, last = snapshot_recompute_batch(
            after_pk=after, team_id=team_id, batch_size=batch_size, dry_run=dry_run
        )
        if last is None:
            break
        for key, value in counts.items():
            totals[key] += value
        after = last
        if progress is not None:
            progress({**totals, "last_review": last})
    return totals


def quarterly_refresh(*, team: Team | None = None) -> int:
    """Write the quarterly cost review of one team (or of every team). Returns the rows written.

    Quarters that no longer have an approved review lose their row, so the table always matches
    what `apps.scoring.quarterly.team_quarters` computes now.
    """
    teams = [team] if team is not None else list(Team.objects.all())
    written = 0
    for each in teams:
        figures = team_quarters(each)
        with transaction.atomic():
            for quarter, values in figures.items():
                QuarterlyCostReview.objects.update_or_create(
                    team=each, quarter=quarter, defaults=values
                )
                written += 1
            QuarterlyCostReview.objects.filter(team=each).exclude(
                quarter__in=list(figures)
            ).delete()
    return written


@dataclass(frozen=True)
class RefreshRequest:
    task_id: str | None  # the task to poll; None when the refresh already ran in the request
    queue_down: bool = False  # the broker was unreachable, so it ran in the request instead


def quarterly_refresh_request(*, team: Team) -> RefreshRequest:
    """Refresh the team's quarterly review off the request path.

    In eager mode, or when the broker is down, it runs in the request instead (it is one query
    per team) and says so, so the page can tell the user the queue is unavailable.
    """
    from apps.scoring.tasks import refresh_quarterly

    if refresh_quarterly.app.conf.task_always_eager:
        quarterly_refresh(team=team)
        return RefreshRequest(task_id=None)
    task_id = str(uuid.uuid4())
    try:
        refresh_quarterly.apply_async(args=[team.pk], task_id=task_id, retry=False)
    except _broker_errors() as exc:
        log.warning("broker unavailable, quarterly review refreshed in the request: %s", exc)
        quarterly_refresh(team=team)
        return RefreshRequest(task_id=None, queue_down=True)
    return RefreshRequest(task_id=task_id)
