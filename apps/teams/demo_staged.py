"""Demo review of engine 2.2 (SPEC 6.4 staged plans), after the reviews demo and before the
evaluations (apps.teams.demo): alice's draft for the 14B model trained on tokenized clickstream
(profile tokens-14b-staged; its figures are worked out in apps.profiles.demo.method22).

The raw logs (20 TB) stay in Guangzhou. The managed L40S pool next to them splits a job by data
only, which a 14B model in training does not fit; the H100s in Beijing take it, and the engine
costs both ways of feeding them: shipping the raw logs (1,000 USD and 8.9 h a run) or the
tokenized shards made next to the data (400 GB ÷ 4 runs × 0.05 = 5 USD, plus 5 h × 24 USD ÷ 4
= 30 USD of preprocessing a run). It chooses the staged plan: 1,435.20 + 5 + 30 = 1,470.20 USD
a run, and D3 says what it ships (100 GB a run instead of 20,000 GB, −99.5 %).

Idempotent: the review is looked up by (team, title) and left alone when it exists.
"""

from __future__ import annotations

import logging

from django.db import transaction

from apps.accounts.demo import DemoContext
from apps.reviews import services as reviews
from apps.reviews.checklists.models import AnswerStatus, Question
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import Review
from apps.reviews.workflow import ReviewConflict, ReviewRefused

log = logging.getLogger(__name__)

STAGED_REVIEW = {
    "title": "14B on tokenized clickstream: ship the shards, not the logs",
    "profile": "tokens-14b-staged",
    "candidates": [("h100-bj-a", 2), ("l40s-gz-a", 4)],
    "reserve": ["gz-a>bj-a"],
}
ANSWER = "Answered for the tokenized-clickstream runs ({offer}); see the team's runbook."


def _build(ctx: DemoContext, spec: dict) -> Review | None:
    task = ctx.objects.get("profiles", {}).get(spec["profile"])
    offers, links = ctx.objects.get("offers", {}), ctx.objects.get("links", {})
    alice = ctx.users.get("alice")
    if task is None or alice is None or any(k not in offers for k, _ in spec["candidates"]):
        log.warning("demo review %r skipped: its profile, offers or author are missing", spec)
        return None
    review = reviews.review_create(
        team=ctx.team1,
        author=alice,
        task=task,
        title=spec["title"],
        candidates=[(offers[key], machines) for key, machines in spec["candidates"]],
    )
    for candidate in review.candidates.select_related("offer"):
        for question in Question.values:
            checklist_answer_save(
                candidate=candidate,
                question=question,
                actor=alice,
                status=AnswerStatus.ANSWERED,
                text=ANSWER.format(offer=candidate.offer.name),
            )
    reviews.review_reserve_links(
        review=review, actor=alice, links=[links[k] for k in spec["reserve"] if k in links]
    )
    return review


def load(ctx: DemoContext) -> None:
    """The staged draft (its snapshot is computed with every other review's, next)."""
    if Review.objects.filter(team=ctx.team1, title=STAGED_REVIEW["title"]).exists():
        return
    try:
        with transaction.atomic():
            _build(ctx, STAGED_REVIEW)
    except (ReviewRefused, ReviewConflict) as exc:
        log.warning("demo review %r not built: %s", STAGED_REVIEW["title"], exc)
