"""The compare page in a real browser, in English and in Chinese (issue 39): the chosen offer is
named, not numbered ("Chosen offer: 1"), figures carry their labels, not raw field names
(`preprocess_cost`), and "Differences only" hides the rows alike in both snapshots."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import NetworkLink
from apps.reviews.snapshots.services import snapshot_compute
from tests.e2e.conftest import log_in
from tests.e2e.pages import LANGUAGES, use_language
from tests.scoring.helpers import make_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WORDS = {
    "en": {"chosen": "Chosen offer", "only": "Differences only", "all": "Show everything"},
    "zh-hans": {"chosen": "所选报价", "only": "只看差异", "all": "显示全部"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compare_page_names_offers_and_shows_only_differences(
    live_server, browser, team, owner, language
):
    world = make_world(team, owner)
    older = snapshot_compute(review_id=world.review.pk)
    NetworkLink.objects.filter(from_site=world.data, to_site=world.far).update(price_per_gb=0.5)
    newer = snapshot_compute(review_id=world.review.pk)
    chosen = next(row for row in older.table_rows if row.get("chosen"))
    words = WORDS[language]

    base = live_server.url
    context = browser.new_context(locale="en-US")
    use_language(context, base, language)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        log_in(page, base, owner.username)
        page.goto(base + reverse("scoring:compare") + f"?a={older.pk}&b={newer.pk}")
        row = page.locator(".compare-headline tr[data-field=chosen_offer]")
        assert row.locator("th").inner_text().strip() == words["chosen"]
        cells = row.locator("td").all_inner_texts()
        assert cells[0].strip() == chosen["offer_label"]  # a name such as "Far L40S"
        assert chosen["offer_label"] != str(older.chosen_offer)
        assert "preprocess_cost" not in page.locator("main").inner_text()

        everything = page.locator(".compare-grid tbody tr").count()
        page.get_by_role("link", name=words["only"]).click()
        page.get_by_role("link", name=words["all"]).wait_for()
        assert "differences=1" in page.url
        fewer = page.locator(".compare-grid tbody tr").count()
        assert 0 < fewer < everything  # the rows alike in both are hidden, the changed ones stay
        headline = page.locator(".compare-headline tbody tr td.changed").count()
        assert headline == 2 * page.locator(".compare-headline tbody tr").count()
    finally:
        context.close()
