"""The search box of the review list in a real browser, in English and in Chinese: a review is
found by its task, its offer and its author (apps/web/search.py), the results replace the list in
place (htmx) and the address keeps the query, so a reload or a shared link shows the same rows."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.e2e.pages import LANGUAGES, use_language
from tests.factories import (
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_team,
    make_user,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LABEL = {"en": "Search", "zh-hans": "搜索"}


@pytest.fixture
def two_reviews(db):
    team = make_team("Team Aurora", "aurora")
    alice = make_membership(make_user("alice"), team, "owner").user
    bob = make_membership(make_user("bob"), team, "member").user
    site = make_site(team, "bj-a")
    chinese = make_review(
        team, alice, title="Q3 plan",
        task=make_profile(team, site, name="夜间训练任务"),
        offers=[make_offer(team, site, provider="Lambda", name="GPU cloud H100")],
    )
    llama = make_review(
        team, bob, title="Q4 plan",
        task=make_profile(team, site, name="Llama pretraining"),
        offers=[make_offer(team, site, provider="Acme", name="A100 pool")],
    )
    return chinese.pk, llama.pk


def search(page, q: str) -> None:
    page.fill("#id_q", q)
    page.press("#id_q", "Enter")
    asked = urlencode({"q": q}, quote_via=quote)
    page.wait_for_url(lambda url: f"?{asked}&" in url or url.endswith(f"?{asked}"))


def shown(page, found: int, hidden: int) -> None:
    """Wait (bounded) until the list shows `found` and not `hidden`."""
    page.locator(f"#review-{hidden}").wait_for(state="detached")
    page.locator(f"#review-{found}").wait_for(state="visible")


class ReviewSearchInTheBrowserTests:
    @pytest.mark.parametrize("language", LANGUAGES)
    def test_it_finds_a_review_by_task_offer_and_author(
        self, live_server, browser, two_reviews, language
    ):
        chinese, llama = two_reviews
        base = live_server.url
        context = browser.new_context(locale="en-US")
        use_language(context, base, language)
        page = context.new_page()
        page.set_default_timeout(20_000)
        try:
            log_in(page, base, "alice")
            page.goto(base + reverse("reviews:list"))
            assert page.locator("label[for=id_q]").inner_text().strip() == LABEL[language]
            search(page, "训练")  # a word of the task's Chinese name
            shown(page, chinese, llama)
            search(page, "llama")  # the task
            shown(page, llama, chinese)
            search(page, "lambda")  # the candidate offer's provider
            shown(page, chinese, llama)
            search(page, "A100")  # the candidate offer's name
            shown(page, llama, chinese)
            search(page, "bob")  # the author
            shown(page, llama, chinese)
            page.reload()  # the address kept the query
            shown(page, llama, chinese)
            assert page.input_value("#id_q") == "bob"
            search(page, "bob lambda")
            page.locator(f"#review-{llama}").wait_for(state="detached")
            assert page.locator("#review-results .empty").count() == 1
        finally:
            context.close()
