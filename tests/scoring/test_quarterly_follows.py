"""The quarterly figures follow their inputs: after actual costs are imported, saved or deleted
(or a review signed off), the page shows figures equal to a fresh computation, or says they are
being recomputed; it never shows the old ones as current."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.actuals import services as actuals
from apps.actuals.models import ActualCost
from apps.scoring.models import QuarterlyCostReview
from apps.scoring.quarterly import FIGURES, team_quarters
from apps.scoring.services.quarterly_review import quarterly_refresh
from apps.scoring.tasks import refresh_quarterly_task
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db
NAMES = (*FIGURES, "reviews_counted", "planned_reviews", "runs_counted")


@pytest.fixture
def review(team, member, reviewer):
    review = approved_review(team, member, reviewer)
    quarterly_refresh(team=team)  # the figures as they were before any actual cost
    return review


def _stored(team) -> dict:
    return {
        row.quarter: {name: getattr(row, name) for name in NAMES}
        for row in QuarterlyCostReview.objects.filter(team=team)
    }


def _page(client) -> str:
    response = client.get(reverse("scoring:quarterly"))
    assert response.status_code == 200
    return response.content.decode()


def _import(client, review) -> None:
    content = f"review,period,compute_cost,transfer_cost\n{review.pk},2026-02-03,300,60\n"
    done = client.post(reverse("actuals:import"), {"content": content, "confirm": "1"})
    assert done.status_code == 302


class QuarterlyFollowsTests:
    def test_after_a_csv_import_the_figures_equal_a_fresh_computation(
        self, client, team, member, review
    ):
        before = _stored(team)
        client.force_login(member)
        _page(client)
        _import(client, review)
        page = _page(client)
        assert _stored(team) != before
        assert _stored(team) == {
            quarter: {name: values[name] for name in NAMES}
            for quarter, values in team_quarters(team).items()
        }
        # The run's quarter counts it: 2026Q1, actuals of one run, 300 + 60 against the plan.
        assert 'data-actual-quarter="2026Q1"' in page and "actuals of 1 run" in page
        assert "data-stale" not in page

    def test_with_a_worker_the_page_says_they_are_being_recomputed_until_it_has(
        self, client, team, member, review
    ):
        from config.celery import app

        client.force_login(member)
        _import(client, review)
        app.conf.task_always_eager = False  # queued for a worker (the in-memory broker)
        try:
            waiting = _page(client)
        finally:
            app.conf.task_always_eager = True
        assert "data-stale" in waiting and "being recomputed" in waiting
        refresh_quarterly_task(team.pk)  # the worker runs it
        assert "data-stale" not in _page(client)

    def test_a_deleted_actual_cost_leaves_the_figures_with_none(self, client, team, member, review):
        client.force_login(member)
        _import(client, review)
        assert "actuals of 1 run" in _page(client)
        actuals.actual_delete(record=ActualCost.objects.get(team=team))
        page = _page(client)
        assert "actuals of 1 run" not in page
        assert _stored(team) == {
            quarter: {name: values[name] for name in NAMES}
            for quarter, values in team_quarters(team).items()
        }
