"""Every decision explained, in a real browser (issue 15).

- A newcomer whose task fails the portability gate (G1) sees the two options away from home in
  the table, greyed, with the rule and the field that excluded them and what they would have
  saved; the charts draw them greyed (✗); the rule opens its method guide entry with its fix.
- An H2 block (channels not reserved) is fixed from the finding itself: one click reserves the
  chosen plan's channels and the user is back on the review, whose evaluation no longer asks.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import NetworkLink
from tests.e2e.conftest import log_in, reveal_charts
from tests.scoring.helpers import make_world

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_g1_exclusion_is_shown_with_its_cost_and_reason(live_server, browser_page, team,
                                                          owner):
    from playwright.sync_api import expect

    world = make_world(team, owner, env_simple=False)
    page = browser_page
    base = live_server.url
    log_in(page, base, "owner")
    page.goto(base + reverse("reviews:detail", args=[world.review.pk]))
    table = page.locator("#review-evaluation table.comparison")
    expect(table).to_be_visible()
    excluded = table.locator("tr.is-infeasible")
    expect(excluded).to_have_count(2)
    for i in range(2):
        expect(excluded.nth(i)).to_contain_text("G1")
        expect(excluded.nth(i)).to_contain_text("environment")
        expect(excluded.nth(i)).to_contain_text("would have saved")
    # Hand-worked in tests/scoring/test_exclusions.py: moving the data would have saved 122.55.
    section = page.locator("#excluded-options")
    expect(section).to_contain_text("What the rules cost you")
    expect(section).to_contain_text("up to 122.55 USD")
    # The charts draw the excluded options, greyed and marked ✗.
    reveal_charts(page, "#review-evaluation")
    cost_chart = page.locator("[data-chart='cost'] .main-svg").first
    expect(cost_chart).to_contain_text("✗")
    # The rule opens its guide entry, which says how to fix it.
    section.locator("a[data-method-rule='G1']").first.click()
    page.wait_for_url("**/method/**")
    expect(page.locator("body")).to_contain_text("How to fix it")
    expect(page.locator("body")).to_contain_text("Package the image")


def test_an_h2_block_is_fixed_from_the_finding(live_server, browser_page, team, owner):
    from playwright.sync_api import expect

    world = make_world(team, owner)
    NetworkLink.objects.filter(team=team).update(reservable=True)
    page = browser_page
    base = live_server.url
    detail = base + reverse("reviews:detail", args=[world.review.pk])
    log_in(page, base, "owner")
    page.goto(detail)
    finding = page.locator("#review-evaluation li.finding[data-rule='H2']")
    expect(finding).to_be_visible()
    button = finding.locator("form[data-fix='reserve'] button")
    expect(button).to_contain_text("Reserve the channels of this plan")
    button.click()
    page.wait_for_url(detail)
    expect(page.locator(".flash--success")).to_contain_text("Channels reserved")
    # The reserved channels are listed, and the recomputed evaluation no longer offers the fix.
    expect(page.locator("#candidates-h ~ ul.plain-list li")).to_have_count(2)
    expect(page.locator("#review-evaluation table.comparison")).to_be_visible()
    expect(page.locator("form[data-fix='reserve']")).to_have_count(0)
    assert world.review.reserved_links.count() == 2


def test_a_c_block_is_answered_in_the_finding(live_server, browser_page, team, owner):
    """Rule C's fix in place: the candidate's open questions open inside the finding, save as
    they are typed, and the review evaluated again no longer blocks that candidate."""
    from playwright.sync_api import expect

    world = make_world(team, owner, answered=False)  # three candidates, six questions open each
    page = browser_page
    base = live_server.url
    detail = base + reverse("reviews:detail", args=[world.review.pk])
    log_in(page, base, "owner")
    page.goto(detail)
    fixes = page.locator("#review-evaluation details[data-fix='questions']")
    expect(fixes).to_have_count(3)
    fix = fixes.first
    fix.locator("summary").click()
    forms = fix.locator("form.question")
    expect(forms).to_have_count(6)
    counter = fix.locator(".checklist-counter")
    expect(counter).to_have_attribute("data-unanswered", "6")
    for i in range(5):  # five answered, one left: a warning, no longer a block (C)
        box = forms.nth(i).locator("textarea")
        box.fill(f"Answered in the finding ({i + 1}).")
        box.press("Tab")  # leaving the box (its change event) saves it
        expect(forms.nth(i).locator(".save-state--saved")).to_be_visible()
    expect(counter).to_have_attribute("data-unanswered", "1")
    fix.get_by_text("Done: evaluate the review again").click()
    page.wait_for_url(detail)
    expect(page.locator("#review-evaluation details[data-fix='questions']")).to_have_count(2)
