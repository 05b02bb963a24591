"""Builders for review tests: a review that passes every gate, answers, submission, sign-off."""

from __future__ import annotations

from apps.reviews.checklists.models import AnswerStatus, ChecklistAnswer, Question
from apps.reviews.models import Review
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_submit
from apps.reviews.snapshots.services import snapshot_compute
from tests.factories import (
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_user,
)


def answer_all(review: Review, user, *, unanswered: int = 0) -> None:
    """Answer the six questions of every candidate, leaving the last `unanswered` open."""
    for candidate in review.candidates.all():
        for i, question in enumerate(Question.values):
            open_ = i >= len(Question.values) - unanswered
            ChecklistAnswer.objects.update_or_create(
                candidate=candidate,
                question=question,
                defaults={
                    "status": AnswerStatus.UNANSWERED if open_ else AnswerStatus.ANSWERED,
                    "text": "" if open_ else f"Answer to {question}",
                    "updated_by": user,
                },
            )


def ready_review(team, author, *, offers: int = 1, unanswered: int = 0, **kw) -> Review:
    """A draft review whose only option waits locally at the home site: no transfer, no block
    finding once answered (inference of a 7B model on one 8 × 80 GB machine)."""
    site = make_site(team)
    task = make_profile(team, site=site, resume_verified=True, env_aligned=True)
    chosen = [make_offer(team, site=site) for _ in range(offers)]
    review = make_review(team, author, task=task, offers=chosen, **kw)
    answer_all(review, author, unanswered=unanswered)
    return review


def submitted_review(team, author, **kw) -> Review:
    review = ready_review(team, author, **kw)
    review_submit(review=review, actor=author)
    review.refresh_from_db()
    return review


def current_snapshot_id(review: Review) -> int:
    return snapshot_compute(review_id=review.pk).pk


def approve(review: Review, reviewer, **kw):
    return signoff_create(
        review=review,
        reviewer=reviewer,
        decision="approve",
        snapshot_id=current_snapshot_id(review),
        **kw,
    )


def second_reviewer(team, name: str = "reviewer2"):
    return make_membership(make_user(name), team, "reviewer").user
