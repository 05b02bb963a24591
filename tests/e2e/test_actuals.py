"""Plan against actual in the browser (issue 19): a member records what an approved plan's run
cost by CSV (preview, then import), sees the variance on the review page, then in the quarterly
cost review once it is refreshed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.actuals.helpers import approved_review
from tests.e2e.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def review_id(live_server, team, member, reviewer) -> int:
    """Made before the browser starts (see test_decision_record.py)."""
    return approved_review(team, member, reviewer).pk


def test_an_actual_by_csv_shows_its_variance_on_the_review_and_the_quarter(
    live_server, review_id, browser_page, tmp_path
):
    page = browser_page
    # The plan of one run (tests/actuals/helpers.py): compute 200 + transfer 60 = 260. This run:
    # 260 + 90 = 350, so +90.00 over plan, 90 / 260 = +34.6 %.
    today = timezone.localdate()
    csv = tmp_path / "runs.csv"
    csv.write_text(
        "review,period,compute_cost,transfer_cost,hours,currency,reference\n"
        f"{review_id},{today:%Y-%m-%d},260,90,12.5,USD,invoice 7 line 3\n",
        encoding="utf-8",
    )
    log_in(page, live_server.url, "member")
    page.goto(live_server.url + reverse("actuals:import"))
    page.set_input_files("input[name=file]", str(csv))
    page.click("button:has-text('Check the file')")
    page.click("button:has-text('Import 1 row')")
    page.wait_for_url("**" + reverse("actuals:list") + "?source=csv")
    assert "invoice 7 line 3" in page.content()

    page.goto(live_server.url + reverse("reviews:detail", args=[review_id]))
    section = page.locator("[data-plan-vs-actual]")
    assert section.locator("[data-variance]").first.inner_text() == "+90.00"
    assert section.locator("[data-variance-pct]").first.inner_text() == "+34.6 %"

    page.goto(live_server.url + reverse("scoring:quarterly"))
    page.click("button:has-text('Refresh now')")
    page.wait_for_selector("[data-quarterly-actuals]")
    totals = page.locator("[data-variance-total]").inner_text()
    assert totals == "+90.00 (+34.6 %)"
