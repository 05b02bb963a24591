"""Reads of checklists: the cards of a review's checklist page and their progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.models import Candidate, Review
from apps.scoring.engine.checklist import gate_severity, ready_to_sign

from .guidance import GUIDES, QuestionGuide
from .models import AnswerStatus, ChecklistAnswer

QUESTION_COUNT = len(GUIDES)


@dataclass
class QuestionItem:
    candidate: Candidate
    guide: QuestionGuide
    answer: ChecklistAnswer | None
    # Set by the view: the question's form, and the outcome of the last save.
    form: Any = None
    saved: bool = False
    error: str = ""

    @property
    def answered(self) -> bool:
        return self.answer is not None and self.answer.status == AnswerStatus.ANSWERED


@dataclass
class CandidateCard:
    candidate: Candidate
    items: list[QuestionItem] = field(default_factory=list)

    @property
    def unanswered(self) -> int:
        return sum(1 for item in self.items if not item.answered)

    @property
    def ready_to_sign(self) -> bool:
        return ready_to_sign(self.unanswered)

    @property
    def gate(self) -> str:
        """SPEC C for this candidate: "block", "warn" or "ok" (components/gate_badge.html)."""
        return gate_severity(self.unanswered)


def gate(cards: list) -> dict:
    """SPEC C over every candidate: which are not ready to sign."""
    not_ready = [c for c in cards if not c.ready_to_sign]
    return {
        "ready": bool(cards) and not not_ready,
        "not_ready": not_ready,
        "unanswered": sum(c.unanswered for c in cards),
    }


def checklist_cards(review: Review) -> list[CandidateCard]:
    """One card per candidate with its six questions (two queries whatever the size)."""
    candidates = list(review.candidates.select_related("offer__site").order_by("position", "id"))
    answers = {
        (a.candidate_id, a.question): a
        for a in ChecklistAnswer.objects.filter(candidate__review=review).select_related(
            "updated_by"
        )
    }
    return [
        CandidateCard(
            candidate=c,
            items=[QuestionItem(c, guide, answers.get((c.pk, guide.code))) for guide in GUIDES],
        )
        for c in candidates
    ]


def candidate_card(candidate: Candidate) -> CandidateCard:
    answers = {a.question: a for a in candidate.answers.all()}
    return CandidateCard(
        candidate=candidate,
        items=[QuestionItem(candidate, guide, answers.get(guide.code)) for guide in GUIDES],
    )


def candidate_unanswered(candidate: Candidate) -> int:
    answered = candidate.answers.aggregate(n=Count("id", filter=Q(status=AnswerStatus.ANSWERED)))[
        "n"
    ]
    return QUESTION_COUNT - answered


def evidence_records(review: Review) -> list[BenchmarkRecord]:
    """Benchmark records that may back an answer: the same team and task."""
    return list(
        BenchmarkRecord.objects.filter(team_id=review.team_id, task_id=review.task_id)
        .select_related("offer")
        .order_by("-recorded_at", "-id")[:200]
    )
