"""Writes of the quarterly cost review: the table rewritten from the approved reviews, in the
request or by a task."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse

from apps.accounts.models import Membership, Team
from apps.notifications.models import Kind
from apps.notifications.services import notify
from apps.reviews.snapshots.jobs import broker_errors
from apps.scoring.models import QuarterlyCostReview
from apps.scoring.quarterly import figures_inputs, team_quarters

log = logging.getLogger(__name__)


def quarterly_refresh(*, team: Team | None = None) -> int:
    """Write the quarterly cost review of one team (or of every team). Returns the rows written.

    Quarters that no longer have an approved review lose their row, so the table always matches
    what `apps.scoring.quarterly.team_quarters` computes now.
    """
    teams = [team] if team is not None else list(Team.objects.all())
    written = 0
    for each in teams:
        inputs = figures_inputs(each)  # before reading them: a write meanwhile leaves it stale
        figures = team_quarters(each)
        with transaction.atomic():
            for quarter, values in figures.items():
                _row, created = QuarterlyCostReview.objects.update_or_create(
                    team=each, quarter=quarter, defaults={**values, "inputs": inputs}
                )
                if created:
                    _notice_ready(each, quarter)
                written += 1
            QuarterlyCostReview.objects.filter(team=each).exclude(
                quarter__in=list(figures)
            ).delete()
    return written


def _notice_ready(team: Team, quarter: str) -> None:
    """A quarter's first figures: every member of the team hears of it, once per quarter."""
    notify(
        kind=Kind.QUARTERLY_READY,
        team=team,
        recipients=Membership.objects.filter(team=team).values_list("user_id", flat=True),
        params={"team": team.name, "quarter": quarter},
        url=reverse("scoring:quarterly"),
        event_key=f"quarterly-ready:{team.pk}:{quarter}",
    )


def quarterly_stale(rows: list[QuarterlyCostReview], team: Team) -> bool:
    """Whether the stored figures were computed from other inputs than the team has now."""
    return bool(rows) and rows[0].inputs != figures_inputs(team)  # all written together


@dataclass(frozen=True)
class RefreshRequest:
    task_id: str | None  # the task to poll; None when the refresh already ran in the request
    queue_down: bool = False  # the broker was unreachable, so it ran in the request instead


def quarterly_refresh_request(*, team: Team) -> RefreshRequest:
    """Refresh the team's quarterly review off the request path.

    In eager mode, or when the broker is down, it runs in the request instead (it is one query
    per team) and says so, so the page can tell the user the queue is unavailable.
    """
    from apps.scoring.tasks import refresh_quarterly_task

    if refresh_quarterly_task.app.conf.task_always_eager:
        quarterly_refresh(team=team)
        return RefreshRequest(task_id=None)
    task_id = str(uuid.uuid4())
    try:
        refresh_quarterly_task.apply_async(args=[team.pk], task_id=task_id, retry=False)
    except broker_errors() as exc:
        log.warning("broker unavailable, quarterly review refreshed in the request: %s", exc)
        quarterly_refresh(team=team)
        return RefreshRequest(task_id=None, queue_down=True)
    return RefreshRequest(task_id=task_id)
