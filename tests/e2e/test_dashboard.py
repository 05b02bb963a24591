"""The dashboard in a real browser: bob signs in, sees the review waiting for him, and reaches it
in one click."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.factories import make_membership, make_team, make_user
from tests.teams.helpers import moving_review, submit

pytestmark = pytest.mark.django_db(transaction=True)


class DashboardInBrowserTests:
    def test_bob_reaches_the_review_waiting_for_him_in_one_click(
        self, live_server, browser_page
    ):
        page = browser_page
        team = make_team("Team Aurora", "aurora")
        alice = make_membership(make_user("alice"), team, "owner").user
        bob = make_membership(make_user("bob"), team, "reviewer").user
        review = submit(
            moving_review(team, alice, ready=True, title="Move the nightly ETL to Shanghai")
        )
        assert review.state == "submitted"

        log_in(page, live_server.url, bob.username)
        page.wait_for_url(f"{live_server.url}/")

        waiting = page.locator("#waiting")
        link = waiting.get_by_role("link", name="Move the nightly ETL to Shanghai")
        assert link.is_visible()
        assert "by alice" in waiting.inner_text()

        link.click()
        detail = reverse("reviews:detail", args=[review.pk])
        page.wait_for_url(f"{live_server.url}{detail}")
        assert page.url == f"{live_server.url}{detail}"
        assert "Move the nightly ETL to Shanghai" in page.locator("h1").first.inner_text()
        assert re.search("Move the nightly ETL to Shanghai", page.title())
