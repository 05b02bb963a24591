"""The plan-against-actual section of an approved review's page is cached under the team's
generation, per review and per whether the viewer may record actuals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.actuals import services
from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db
RECORD = "Record an actual cost"


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


def _page(client, review) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
    return page, [q["sql"] for q in ctx.captured_queries]


class PlanSectionCacheTests:
    def test_a_second_view_reads_no_actual_and_an_edit_shows_at_once(
        self, client, team, review, member
    ):
        data = {
            "review": review.pk,
            "period": "2026-02-03",
            "compute_cost": 260,
            "transfer_cost": 90,
        }
        services.actual_create(team=team, data=data)
        client.force_login(member)
        first, _ = _page(client, review)
        second, queries = _page(client, review)
        assert "<strong data-variance>+90.00</strong>" in first
        assert "<strong data-variance>+90.00</strong>" in second
        assert not [q for q in queries if "actuals_actualcost" in q]
        record = ActualCost.objects.get(review=review)
        record.compute_cost = 300
        record.save()
        assert "<strong data-variance>+130.00</strong>" in _page(client, review)[0]

    def test_who_may_record_is_not_shared_with_who_may_not(self, client, review, member, reviewer):
        client.force_login(member)
        assert RECORD in _page(client, review)[0]
        client.force_login(reviewer)
        assert RECORD not in _page(client, review)[0]
