"""Writes of checklists: one answer of the six questions, saved as the user types (autosave)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

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


def _short(value) -> str | None:
    if value is None:
        return None
    return str(value)[:300]


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
    seen: str | None = None,
) -> ChecklistAnswer:
    """Save one answer. `answered` needs a text; evidence must be a record of the same team and
    task. Refused on a review that is submitted or final; bumps the review's version and inputs
    generation; audited with old → new of each changed field. A no-op when nothing changed."""
    if question not in Question.values:
        raise ValidationError({"question": _("Unknown question.")})
    if status not in AnswerStatus.values:
        raise ValidationError({"status": _("Choose answered or unanswered.")})
    text = (text or "").strip()
    evidence_url = (evidence_url or "").strip()
    if status == AnswerStatus.ANSWERED and not text:
        raise ValidationError({"text": _("Write the answer before marking it answered.")})

    review = lock_review(candidate.review_id)
    membership_of(review, actor)
    require_editable(review)
    if evidence_benchmark is not None and (
        evidence_benchmark.team_id != review.team_id or evidence_benchmark.task_id != review.task_id
    ):
        raise ValidationError(
            {"evidence_benchmark": _("Choose a benchmark record of this review's task.")}
        )

    answer = (
        ChecklistAnswer.objects.select_for_update()
        .filter(candidate_id=candidate.pk, question=question)
        .first()
    )
    if seen is not None and answer_token(answer) != seen:
        current = answer or ChecklistAnswer(candidate_id=candidate.pk, question=question)
        raise AnswerConflict(
            _(
                "Someone else saved this answer meanwhile; theirs is shown. "
                "Check it and save again."
            ),
            current,
        )
    if answer is None:  # a question not answered yet counts as a blank, unanswered answer
        answer = ChecklistAnswer(candidate_id=candidate.pk, question=question)
    before = {
        "status": answer.status,
        "text": answer.text,
        "evidence_benchmark": answer.evidence_benchmark_id,
        "evidence_url": answer.evidence_url,
    }
    answer.status = status
    answer.text = text
    answer.evidence_benchmark = evidence_benchmark
    answer.evidence_url = evidence_url
    after = {
        "status": status,
        "text": text,
        "evidence_benchmark": evidence_benchmark.pk if evidence_benchmark else None,
        "evidence_url": evidence_url,
    }
    changes = {k: [_short(before[k]), _short(after[k])] for k in after if before[k] != after[k]}
    if not changes:
        return answer
    answer.updated_by = actor
    answer.full_clean(exclude=["candidate", "evidence_benchmark", "updated_by"])
    answer.save()
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    offer = Candidate.objects.select_related("offer").get(pk=candidate.pk).offer
    audit(
        review=review,
        actor=actor,
        action="answer_saved",
        target=f"{offer.provider} · {offer.name} · {question.upper()}",
        changes=changes,
    )
    return answer
