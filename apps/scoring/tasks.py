"""Celery tasks of the scoring app (the snapshot workflow's are apps/reviews/tasks.py). Tasks take
ids, load rows, call one service. Every task's name ends in `_task` (its registered name is the
same, prefixed `scoring.`)."""

from __future__ import annotations

import os

from celery import shared_task

from apps.accounts.models import Team
from apps.scoring.services.quarterly_review import quarterly_refresh


@shared_task(name="scoring.ping_task")
def ping_task(value: str) -> dict:
    """Health check: proves a message made the round trip through the broker and a worker."""
    return {"echo": value, "pid": os.getpid()}


@shared_task(name="scoring.refresh_quarterly_task")
def refresh_quarterly_task(team_id: int | None = None) -> int:
    """Rewrite the quarterly cost review of one team (or of all teams, from beat)."""
    team = None
    if team_id is not None:
        team = Team.objects.filter(pk=team_id).first()
        if team is None:
            return 0
    return quarterly_refresh(team=team)
