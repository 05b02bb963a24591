"""The actual costs list makes a fixed number of queries, whatever the records."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db


def add_records(team, reviews, n: int, start: int = 0) -> None:
    """n records spread over the reviews (each row shows its review), a day apart."""
    ActualCost.objects.bulk_create(
        ActualCost(
            team=team, review=reviews[i % len(reviews)],
            period=dt.date(2026, 1, 1) + dt.timedelta(days=i), compute_cost=200 + i,
            transfer_cost=60, hours=10, reference=f"line {i}",
        )
        for i in range(start, start + n)
    )


def count(client, url) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


class ActualListQueryCountTests:
    def test_the_list_makes_the_same_queries_with_5_and_50_records(
        self, client, team, member, reviewer
    ):
        reviews = [approved_review(team, member, reviewer) for _ in range(3)]
        client.force_login(member)
        url = reverse("actuals:list")
        add_records(team, reviews, 5)
        small = count(client, url)
        add_records(team, reviews, 45, start=5)
        assert ActualCost.objects.filter(team=team).count() == 50
        large = count(client, url)
        # The second page too: its rows are the oldest 25 of 50.
        assert count(client, f"{url}?page=2") == large
        assert small == large
