"""The pages bench/run measures stay within 15 SQL queries (issue 8), cache cold or warm.

Row-count independence is guarded next to each page (tests/profiles, tests/reviews,
tests/scoring); this is the absolute budget, measured on the demo data.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.models import Review

pytestmark = pytest.mark.django_db
BUDGET = 15


def _pages() -> dict[str, str]:
    signed = Review.objects.filter(team__slug="aurora", state="approved").order_by("id").first()
    draft = Review.objects.filter(team__slug="aurora", state="draft").order_by("id").first()
    return {
        "profile list": reverse("profiles:list"),
        "review list": reverse("reviews:list"),
        "approved review page": reverse("reviews:detail", args=[signed.pk]),
        "draft review page": reverse("reviews:detail", args=[draft.pk]),
        "approved decision record": reverse("scoring:review_record", args=[signed.pk]),
        "draft decision record": reverse("scoring:review_record", args=[draft.pk]),
        "approval queue": reverse("reviews:approvals"),
        "history list": reverse("scoring:history"),
        "actual costs list": reverse("actuals:list"),
        "home": reverse("home"),
    }


class QueryBudgetTests:
    @pytest.mark.parametrize("warm", [False, True], ids=["cold cache", "warm cache"])
    def test_every_measured_page_stays_within_the_budget(self, client, warm, demo_world):
        client.force_login(get_user_model().objects.get(username="bob"))
        over = {}
        for name, url in _pages().items():
            client.get(url)  # computes a missing snapshot (eager) so the page is steady
            if not warm:
                cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url)
            assert response.status_code == 200, (name, response.status_code)
            if len(ctx.captured_queries) > BUDGET:
                over[name] = len(ctx.captured_queries)
        assert over == {}, f"pages over {BUDGET} queries: {over}"
