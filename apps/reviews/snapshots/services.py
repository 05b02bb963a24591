"""Evaluation snapshots: the engine input of a review, the snapshot computed on it, and the
lookups of the current, latest and signed snapshot of a review.

Exactly once: a snapshot is keyed by (review, fingerprint of its engine input + engine version).
Computing twice, retrying, or a redelivery after a killed worker finds the same key and leaves one
complete row; the row and its job update are written in one transaction.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import F, Q, Subquery
from django.utils import timezone

import engine
from apps.profiles.engine_input import build_profile_input, fingerprint, input_hash
from apps.reviews.checklists.models import AnswerStatus, ChecklistAnswer, Question
from apps.reviews.models import Decision, Review, ReviewState, SignOff
from apps.reviews.notices import notice_stale
from apps.reviews.snapshots.charts import build_charts
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.reviews.snapshots.tables import comparison_rows

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
    links: list | None = None,
) -> dict:
    """The engine input of a review: frozen once approved, else built from the current data.

    A page that already loaded the candidates (with offer and site), the answers, the
    reserved links or the team's links passes them, so they are not queried twice.
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
        links=links,
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
    # One query: the last approving sign-off's snapshot, or (when it has none) the newest of
    # the frozen input.
    approved_on = Subquery(
        SignOff.objects.filter(review=review, decision=Decision.APPROVE)
        .order_by("-created_at", "-id")
        .values("snapshot_id")[:1]
    )
    wanted = Q(pk=F("approved_on"))
    if review.frozen_input is not None:
        wanted |= Q(approved_on__isnull=True, input_hash=input_hash(review.frozen_input))
    return (
        EvaluationSnapshot.objects.select_related("team")
        .filter(review=review)
        .annotate(approved_on=approved_on)
        .filter(wanted)
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
            else:
                if (
                    review.state == ReviewState.SUBMITTED
                    and review.snapshots.exclude(pk=snapshot.pk).exists()
                ):
                    # New inputs under a submitted review: the snapshot it was submitted on
                    # is stale, and deciding now means deciding on this one.
                    notice_stale(review)
            _pause_for_tests()
        if job_id is not None:
            SnapshotJob.objects.filter(pk=job_id).update(
                status=JobStatus.DONE, snapshot=snapshot, error="", updated_at=timezone.now()
            )
    return snapshot
