"""Demo data of the scoring app (runs last): a snapshot for every demo review, computed here so
the pages open on figures instead of a spinner, and the quarterly cost review of both teams.
Idempotent: a snapshot with the same inputs is found, not written again."""

from __future__ import annotations

import logging

from apps.reviews.models import Review
from apps.scoring import engine, services

log = logging.getLogger(__name__)


def load(ctx) -> None:
    teams = [ctx.team1, ctx.team2]
    for review in Review.objects.filter(team__in=teams).order_by("pk"):
        try:
            services.snapshot_compute(review_id=review.pk)
        except engine.EngineInputError as exc:
            log.warning("demo review %s cannot be evaluated: %s", review.pk, exc.errors)
    for team in teams:
        services.quarterly_refresh(team=team)
