"""Writes of checklists: one answer of the six questions, saved as the user types (autosave).

The Q5 answer (migration cost) also carries its candidate's migration effort in engineer hours
(SPEC 6.1 T); it is stored on the candidate, which passes it to the engine like its machines.
"""

from __future__ import annotations

import math
from typing import Final

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.generations import unseen_by_cached_pages
from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.models import Candidate
from apps.reviews.workflow import (
    ReviewConflict,
    audit,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)

from .models import AnswerStatus, ChecklistAnswer, Question


class AnswerConflict(ReviewConflict):
    """Someone else saved this answer since the page was loaded; `current` is theirs."""

    def __init__(self, message: str, current: ChecklistAnswer):
        super().__init__(message)
        self.current = current


def answer_token(answer: ChecklistAnswer | None) -> str:
    """What the form carries to detect a concurrent save of the same answer ("" = none yet)."""
    if answer is None or answer.pk is None:
        return ""
    return answer.updated_at.isoformat()


class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


# The default of `migration_effort_hours`: leave the candidate's effort as it is.
UNCHANGED: Final = _Unchanged()


def _effort_or_refuse(question: str, value) -> float | None:
    """The migration effort to store: Q5 only, a finite number of hours ≥ 0, or None (blank)."""
    if question != Question.Q5:
        raise ValidationError(
            {
                "migration_effort_hours": _(
                    "Only the migration cost question (Q5) carries the migration effort."
                )
            }
        )
    if value is None:
        return None
    try:
        hours = float(value)
    except (TypeError, ValueError):
        hours = math.nan
    if not math.isfinite(hours) or hours < 0:
        raise ValidationError(
            {"migration_effort_hours": _("Enter the migration effort as hours, 0 or more.")}
        )
    return hours


def _short(value) -> str | None:
    if value is None:
        return None
    return str(value)[:300]


def _check_answer(question: str, status: str, text: str) -> None:
    if question not in Question.values:
        raise ValidationError({"question": _("Unknown question.")})
    if status not in AnswerStatus.values:
        raise ValidationError({"status": _("Choose answered or unanswered.")})
    if status == AnswerStatus.ANSWERED and not text:
        raise ValidationError({"text": _("Write the answer before marking it answered.")})


def _check_evidence(review, evidence_benchmark: BenchmarkRecord | None) -> None:
    if evidence_benchmark is not None and (
        evidence_benchmark.team_id != review.team_id or evidence_benchmark.task_id != review.task_id
    ):
        raise ValidationError(
            {"evidence_benchmark": _("Choose a benchmark record of this review's task.")}
        )


def _locked_answer(candidate_id: int, question: str, seen: str | None) -> ChecklistAnswer:
    """The answer row, locked; a blank unanswered one when the question has none yet. Refused
    (AnswerConflict) when the caller saw another version of it (`seen`: its answer_token)."""
    answer = (
        ChecklistAnswer.objects.select_for_update()
        .filter(candidate_id=candidate_id, question=question)
        .first()
    )
    if seen is not None and answer_token(answer) != seen:
        current = answer or ChecklistAnswer(candidate_id=candidate_id, question=question)
        raise AnswerConflict(
            _(
                "Someone else saved this answer meanwhile; theirs is shown. "
                "Check it and save again."
            ),
            current,
        )
    if answer is None:  # a question not answered yet counts as a blank, unanswered answer
        answer = ChecklistAnswer(candidate_id=candidate_id, question=question)
    return answer


def _answer_fields(answer: ChecklistAnswer) -> dict:
    return {
        "status": answer.status,
        "text": answer.text,
        "evidence_benchmark": answer.evidence_benchmark_id,
        "evidence_url": answer.evidence_url,
    }


def _answer_changes(
    before: dict, answer: ChecklistAnswer, *, effort: float | None | _Unchanged
) -> dict[str, list]:
    """{field: [old, new]} of what the save changes (the effort only when one was given)."""
    after = _answer_fields(answer)
    if not isinstance(effort, _Unchanged):
        after["migration_effort_hours"] = effort
    return {k: [_short(before[k]), _short(after[k])] for k in after if before[k] != after[k]}


@transaction.atomic
def checklist_answer_save(
    *,
    candidate: Candidate,
    question: str,
    actor,
    status: str,
    text: str = "",
    evidence_benchmark: BenchmarkRecord | None = None,
    evidence_url: str = "",
    migration_effort_hours: float | None | _Unchanged = UNCHANGED,
    seen: str | None = None,
) -> ChecklistAnswer:
    """Save one answer. `answered` needs a text; evidence must be a record of the same team and
    task; `migration_effort_hours` (Q5 only) sets the candidate's effort, None clears it.
    Refused on a review that is submitted or final; bumps the review's version and inputs
    generation; audited with old → new of each changed field. A no-op when nothing changed."""
    text = (text or "").strip()
    evidence_url = (evidence_url or "").strip()
    _check_answer(question, status, text)
    effort_given = not isinstance(migration_effort_hours, _Unchanged)
    effort = _effort_or_refuse(question, migration_effort_hours) if effort_given else None

    review = lock_review(candidate.review_id)
    membership_of(review, actor)
    require_editable(review)
    _check_evidence(review, evidence_benchmark)
    answer = _locked_answer(candidate.pk, question, seen)
    # Read after the review lock: every writer of this candidate holds that lock first.
    current = Candidate.objects.select_related("offer").get(pk=candidate.pk)
    before = _answer_fields(answer)
    answer.status = status
    answer.text = text
    answer.evidence_benchmark = evidence_benchmark
    answer.evidence_url = evidence_url
    if effort_given:
        before["migration_effort_hours"] = current.migration_effort_hours
    changes = _answer_changes(before, answer, effort=effort if effort_given else UNCHANGED)
    if not changes:
        return answer
    answer.updated_by = actor
    answer.full_clean(exclude=["candidate", "evidence_benchmark", "updated_by"])
    reopened = reopen_if_changes_requested(review, actor)
    _write_answer(review, current, answer, question, changes, effort, reopened, actor)
    return answer


def _write_answer(review, current, answer, question, changes, effort, reopened, actor) -> None:
    # An answer shows only on its review's own page, never cached while it takes answers: the
    # team's cached pages stay, and the review keeps its time of change (unless it reopened).
    with unseen_by_cached_pages(review.team_id, unless=reopened):
        # Saved even when only the effort changed, so the answer's token tells other editors.
        answer.save()
        if "migration_effort_hours" in changes:
            current.migration_effort_hours = effort
            current.full_clean(exclude=["review", "offer"], validate_unique=False)
            current.save(update_fields=["migration_effort_hours"])
        touch(review, inputs=True, stamp=reopened)
        offer = current.offer
        audit(
            review=review,
            actor=actor,
            action="answer_saved",
            target=f"{offer.provider} · {offer.name} · {question.upper()}",
            changes=changes,
        )
