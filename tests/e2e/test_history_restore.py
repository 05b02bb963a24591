"""The Back button after filtering a list (htmx history restore), in a real browser.

The pages set htmx's history cache to 0 entries (base.html), so every Back after a filter
pushed its URL asks the server again with `HX-History-Restore-Request`. That request must get
the whole page (apps.web.htmx.wants_fragment): a bare results fragment would replace the body
and the page would lose its header, navigation and filters.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.factories import make_membership, make_profile, make_site, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

# URL name, the id of a filter <select>, two of its values, the results element's id.
LISTS = [
    ("benchmarks:list", "f-kind", ("single", "multi"), "benchmark-list"),
    ("scoring:history", "id_state", ("draft", "submitted"), "history-results"),
    ("reviews:list", "id_state", ("draft", "submitted"), "review-results"),
]


@pytest.mark.parametrize(("name", "select_id", "values", "results_id"), LISTS)
class BackButtonTests:
    def test_back_after_two_filters_restores_the_whole_page_at_the_first(
        self, live_server, browser_page, name, select_id, values, results_id
    ):
        page = browser_page
        team = make_team("Team Aurora", "aurora")
        alice = make_membership(make_user("alice"), team, "owner").user
        make_profile(team, make_site(team, "bj-a"), name="Nightly eval")
        log_in(page, live_server.url, alice.username)

        page.goto(live_server.url + reverse(name))
        first, second = values
        with page.expect_response(lambda r: f"={first}" in r.url):
            page.select_option(f"#{select_id}", first)
        page.wait_for_url(lambda url: f"={first}" in url)
        with page.expect_response(lambda r: f"={second}" in r.url):
            page.select_option(f"#{select_id}", second)
        page.wait_for_url(lambda url: f"={second}" in url)

        with page.expect_request(
            lambda r: r.headers.get("hx-history-restore-request") == "true"
        ) as restore:
            page.go_back()
        assert f"={first}" in restore.value.url
        page.wait_for_url(lambda url: f"={first}" in url)
        page.locator(f"#{results_id}").wait_for()

        # The layout is back, not just the results fragment.
        assert page.locator("header.topbar").count() == 1
        assert page.locator("nav.mainnav").is_visible()
        assert page.locator(f"#{select_id}").count() == 1
        assert page.locator(f"#{results_id}").count() == 1
