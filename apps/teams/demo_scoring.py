"""Demo data of the evaluations (runs after the reviews demo; apps.teams.demo calls it).

- A snapshot for every demo review, computed here so the pages open on figures, not a spinner.
- Two approved reviews of earlier quarters for Team Aurora (the monthly clickstream cleaning, run
  next to its data in Guangzhou), recorded through the reviews services as if on those dates, so
  the quarterly cost review has a history to show: the move costs more compute than waiting for
  the Beijing pool but avoids shipping 5 TB home, and nets a saving.
- The quarterly cost review of both teams.

Idempotent: a snapshot with the same inputs is found, not written again; a history review is
looked up by (team, title).
"""

from __future__ import annotations

import logging
from datetime import datetime
from unittest import mock

from django.db import transaction
from django.utils import timezone

import engine
from apps.reviews.models import Review
from apps.reviews.snapshots import services
from apps.scoring.services import quarterly_refresh

log = logging.getLogger(__name__)

HISTORY = [
    {
        "title": "Clickstream cleaning, May run: compute next to the data in Guangzhou",
        "quarters_ago": 2,
        "candidates": [("l40s-gz-a", 2), ("h100-bj-a", 1)],
        "comment": "Moving 5 TB to Beijing costs more than the slower L40S pool. Approved.",
    },
    {
        "title": "Clickstream cleaning, August run: next to the data again",
        "quarters_ago": 1,
        "candidates": [("l40s-gz-a", 2), ("sched-bj-a", 1)],
        "comment": "Same reasoning as in May; our own pool would still need the data shipped.",
    },
]
HISTORY_LINKS = ["bj-a>gz-a", "gz-a>bj-a"]


def _quarters_ago(now: datetime, n: int) -> datetime:
    """The middle of the quarter n quarters before the one of `now`."""
    index = now.year * 4 + (now.month - 1) // 3 - n
    year, quarter = divmod(index, 4)
    return now.replace(
        year=year, month=quarter * 3 + 2, day=12, hour=10, minute=0, second=0, microsecond=0
    )


def _history_review(ctx, spec: dict, when: datetime) -> None:
    from apps.reviews import services as reviews
    from apps.reviews.checklists.models import AnswerStatus, Question
    from apps.reviews.checklists.services import checklist_answer_save
    from apps.reviews.services.signoff import signoff_create
    from apps.reviews.services.submission import review_submit

    task = ctx.objects.get("profiles", {}).get("cleaning-5tb")
    offers = ctx.objects.get("offers", {})
    links = ctx.objects.get("links", {})
    alice, bob = ctx.users.get("alice"), ctx.users.get("bob")
    if task is None or alice is None or bob is None or any(
        key not in offers for key, _ in spec["candidates"]
    ):
        log.warning("demo history %r skipped: its profile, offers or users are missing", spec)
        return
    # Recorded as if on that date: timestamps, the decision time and the audit trail agree.
    with mock.patch("django.utils.timezone.now", return_value=when):
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
                    text=f"Answered for the {when:%B} run, as in the previous one.",
                )
        reviews.review_reserve_links(
            review=review, actor=alice, links=[links[k] for k in HISTORY_LINKS if k in links]
        )
        snapshot = review_submit(review=review, actor=alice)
        review.refresh_from_db()
        signoff_create(
            review=review,
            reviewer=bob,
            decision="approve",
            comment=spec["comment"],
            snapshot_id=snapshot.pk,
        )


def load(ctx) -> None:
    from apps.reviews.workflow import ReviewConflict, ReviewRefused

    now = timezone.now()
    for spec in HISTORY:
        if Review.objects.filter(team=ctx.team1, title=spec["title"]).exists():
            continue
        try:
            with transaction.atomic():
                _history_review(ctx, spec, _quarters_ago(now, spec["quarters_ago"]))
        except (ReviewRefused, ReviewConflict) as exc:
            log.warning("demo history %r not built: %s", spec["title"], exc)
    teams = [ctx.team1, ctx.team2]
    for review in Review.objects.filter(team__in=teams).order_by("pk"):
        try:
            services.snapshot_compute(review_id=review.pk)
        except engine.EngineInputError as exc:
            log.warning("demo review %s cannot be evaluated: %s", review.pk, exc.errors)
    for team in teams:
        quarterly_refresh(team=team)

