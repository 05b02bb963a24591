"""Reads of checklists: the cards of a review's checklist page and their progress, and each
candidate's checklist progress as the review page and the decision record show it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.models import Candidate, Review
from engine.checklist import gate_severity, ready_to_sign

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


@dataclass
class CandidateView:
    candidate: Candidate
    offer: dict[str, Any]  # the offer as the engine sees it (frozen once approved)
    answered: int
    unanswered: int
    ready_to_sign: bool
    blocked_rules: list[str]
    # SPEC 6.3 deadline sizing: the fewest GPUs of this offer that meet the compute budget (None:
    # its pool cannot), and whence the scaling efficiency beyond one machine came ("measured" or
    # "threshold"); budget_source None when the evaluation has no deadline to size for.
    gpus_for_budget: int | None = None
    budget_source: str | None = None
    # SPEC 7.7: what meeting the compute budget costs on this offer (deadline_plans[]: gpus,
    # total_cost, extra_cost, extrapolated; reason "preemptible" when it gets none), or None.
    deadline_plan: dict[str, Any] | None = None

    @property
    def gate(self) -> str:
        """SPEC C for this candidate: "block", "warn" or "ok" (components/gate_badge.html)."""
        return gate_severity(self.unanswered)

    @property
    def migration_effort_hours(self) -> float | None:
        """The Q5 effort as the engine sees it (frozen once approved)."""
        if self.offer:
            return self.offer.get("migration_effort_hours")
        return self.candidate.migration_effort_hours


def review_candidates(
    review: Review, review_input: dict, output: dict | None, cards: list | None = None
) -> list:
    """The candidates with their checklist progress; from the checklist cards when the page
    already loaded them (no query), else one query."""
    if cards is not None:
        counted = [(card.candidate, QUESTION_COUNT - card.unanswered) for card in cards]
    else:
        counted = [
            (c, c.answered_count)
            for c in review.candidates.select_related("offer__site")
            .annotate(
                answered_count=Count("answers", filter=Q(answers__status=AnswerStatus.ANSWERED))
            )
            .order_by("position", "id")
        ]
    offers = {str(o["id"]): o for o in review_input.get("offers", [])}
    signoff = (output or {}).get("signoff", {})
    sizing = (output or {}).get("sizing") or {}
    budget_rows = {row["offer"]: row for row in sizing.get("offers", [])}
    # gpus_for_budget means something only with a compute budget and a planned GPU count.
    has_plan = (review_input.get("task") or {}).get("gpus") is not None
    budget_source = sizing.get("budget_efficiency_source") if has_plan else None
    plans = {p["offer"]: p for p in (output or {}).get("deadline_plans", [])}
    views = []
    for c, answered in counted:
        unanswered = QUESTION_COUNT - answered
        views.append(
            CandidateView(
                candidate=c,
                offer=offers.get(str(c.offer_id), {}),
                answered=answered,
                unanswered=unanswered,
                ready_to_sign=ready_to_sign(unanswered),
                blocked_rules=signoff.get(str(c.offer_id), {}).get("rules", []),
                gpus_for_budget=budget_rows.get(str(c.offer_id), {}).get("gpus_for_budget"),
                budget_source=budget_source,
                deadline_plan=plans.get(str(c.offer_id)),
            )
        )
    return views
