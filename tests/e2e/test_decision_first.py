"""The decision first (issue 35), measured in Chromium on the demo data, in both languages, on a
desktop (1366 × 768) and a phone (390 × 844).

- On the review page the summary band's contents (the chosen option and its total, the runner-up,
  the nearest flip, the blocks) and, for a reviewer, the approve action lie inside the first
  viewport: their bounding boxes, not mere visibility.
- On the phone nothing scrolls the page sideways, and the comparison table keeps the deciding
  columns in view: the chosen option's total without a sideways scroll.
- On the profile page at 1366 px, Total cost, Objective and "Within budget" are in view.
"""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.pages import LANGUAGES, sign_in, use_language

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SUBMITTED = "Nightly 7B evaluation on H100: sign-off"
SHOTS = os.environ.get("GLANCE_SCREENSHOTS")  # a folder: keep a screenshot of each page seen

# The band's parts a reader needs first; each present on the demo's submitted review.
BAND = {
    "chosen option": "#decision-summary [data-glance=chosen]",
    "chosen total": "#decision-summary [data-glance=total]",
    "runner-up": "#decision-summary [data-glance=runner-up]",
    "nearest flip": "#decision-summary [data-glance=flip] >> nth=0",
    "blocks": "#decision-summary [data-glance=blocks]",
    "approve": "button[value=approve]:visible >> nth=0",
}


@pytest.fixture
def demo(live_server):
    """The demo's submitted review and a task profile, read before the browser starts."""
    from apps.reviews.models import Review

    call_command("load_demo", verbosity=0)
    review = Review.objects.get(title=SUBMITTED)
    assert review.state == "submitted" and review.author.username != "bob"
    assert not review.signoffs.filter(reviewer__username="bob").exists()
    return {"review": review.pk, "task": review.task_id, "base": live_server.url}


def _context(browser, base: str, language: str, viewport: dict):
    phone = viewport is PHONE
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale="en-US",
    )
    use_language(context, base, language)
    return context


def outside_first_viewport(page, selectors: dict[str, str]) -> list[str]:
    """The parts whose box is missing, empty or not wholly inside the first viewport."""
    page.evaluate("window.scrollTo(0, 0)")
    height = page.evaluate("window.innerHeight")
    width = page.evaluate("window.innerWidth")
    out = []
    for name, selector in selectors.items():
        box = page.locator(selector).bounding_box()
        if box is None or box["height"] == 0:
            out.append(f"{name}: not shown")
        elif box["y"] < 0 or box["y"] + box["height"] > height or box["x"] + box["width"] > width:
            out.append(f"{name}: at y={box['y']:.0f}..{box['y'] + box['height']:.0f} of {height}")
    return out


def test_the_decision_leads_the_review_page(demo, browser):

    base = demo["base"]
    url = base + reverse("reviews:detail", args=[demo["review"]])
    failures: list[str] = []
    try:
        for language in LANGUAGES:
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                context = _context(browser, base, language, viewport)
                page = context.new_page()
                page.set_default_timeout(20_000)
                sign_in(page, base, "bob")
                page.goto(url)
                page.wait_for_load_state("load")
                if SHOTS:
                    page.screenshot(path=f"{SHOTS}/review-{language}-{name}.png")
                where = f"{language} {name}"
                failures += [f"{where}: {f}" for f in outside_first_viewport(page, BAND)]
                if viewport is PHONE:
                    failures += [f"{where}: {f}" for f in _phone_widths(page)]
                context.close()
    finally:
        for context in browser.contexts:
            context.close()
    assert not failures, "\n".join(failures)


def _phone_widths(page) -> list[str]:
    out = []
    scroll = page.evaluate("document.scrollingElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    if scroll > inner:
        out.append(f"the page scrolls sideways: {scroll} px > {inner} px")
    # The comparison's deciding column: the chosen option's total, without a sideways scroll.
    total = page.locator("table.comparison tr.is-chosen td.col-total")
    total.scroll_into_view_if_needed()
    box = total.bounding_box()
    wrap = page.evaluate(
        "() => document.querySelector('#review-evaluation .table-wrap').scrollLeft"
    )
    if box is None or box["x"] + box["width"] > inner or wrap != 0:
        out.append(f"the chosen total is off screen: {box} (scrolled {wrap} px)")
    width = page.evaluate(
        "() => document.querySelector('#review-evaluation table.comparison').scrollWidth"
    )
    if width > inner:
        out.append(f"the comparison table is {width} px wide on a {inner} px screen")
    return out


def test_the_profile_page_shows_the_deciding_columns_at_1366(demo, browser):

    base = demo["base"]
    url = base + reverse("profiles:detail", args=[demo["task"]])
    failures: list[str] = []
    try:
        for language in LANGUAGES:
            context = _context(browser, base, language, DESKTOP)
            page = context.new_page()
            page.set_default_timeout(5_000)
            sign_in(page, base, "alice")
            page.goto(url)
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/profile-{language}.png", full_page=True)
            table = page.locator("#profile-evaluation table:has(td[data-col])")
            wrap = table.locator("xpath=..").bounding_box()
            for column in ("total-cost", "objective", "within-budget"):
                cell = table.locator(f"tr.is-chosen td[data-col={column}]")
                box = cell.bounding_box()
                if box is None or box["x"] + box["width"] > wrap["x"] + wrap["width"]:
                    failures.append(f"{language}: {column} off screen at {box}")
            context.close()
    finally:
        for context in browser.contexts:
            context.close()
    assert not failures, "\n".join(failures)


def test_approving_asks_first_with_the_decision(demo, browser):
    """Approve asks for confirmation, naming the chosen option, its total and the snapshot; a
    refusal approves nothing."""

    base = demo["base"]
    url = base + reverse("reviews:detail", args=[demo["review"]])
    asked: list[str] = []
    try:
        context = _context(browser, base, "en", PHONE)
        page = context.new_page()
        sign_in(page, base, "bob")
        page.goto(url)
        total = page.locator("#decision-summary [data-glance=total] strong").inner_text()

        def refuse(dialog):
            asked.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", refuse)
        page.click("#decision-summary button[value=approve]")  # the band's, on a phone
        page.wait_for_function("() => true")
        badge = page.locator("h1 .badge").inner_text()
    finally:
        for context in browser.contexts:
            context.close()
    assert len(asked) == 1
    assert asked[0].startswith("Approve Lambda-style GPU cloud") and f"at {total} USD" in asked[0]
    assert badge == "Submitted"
    from apps.reviews.models import Review

    assert Review.objects.get(pk=demo["review"]).state == "submitted"


def test_the_bands_approve_still_approves_after_the_figures_are_swapped_in(demo, browser):
    """The figures arriving by htmx redraw the band out of band (as when a worker computes
    them after the page loaded): its approve action is there again and still approves."""

    base = demo["base"]
    url = base + reverse("reviews:detail", args=[demo["review"]])
    evaluation = reverse("scoring:review_evaluation", args=[demo["review"]])
    asked: list[str] = []
    try:
        context = _context(browser, base, "en", PHONE)
        page = context.new_page()
        page.set_default_timeout(20_000)
        sign_in(page, base, "bob")
        page.goto(url)
        page.evaluate(
            "url => { window.swapped = false;"
            " document.body.addEventListener('htmx:afterSettle', () => { window.swapped = true; });"
            " htmx.ajax('GET', url, {target: '#review-evaluation', swap: 'outerHTML'}); }",
            evaluation,
        )
        page.wait_for_function("() => window.swapped")
        band_approve = page.locator("#decision-summary button[value=approve]")
        band_approve.wait_for(state="visible")

        def accept(dialog):
            asked.append(dialog.message)
            dialog.accept()

        page.on("dialog", accept)
        with page.expect_navigation():
            band_approve.click()
        badge = page.locator("h1 .badge").inner_text()
    finally:
        for context in browser.contexts:
            context.close()
    assert len(asked) == 1 and asked[0].startswith("Approve Lambda-style GPU cloud")
    assert badge == "Approved"
    from apps.reviews.models import Review

    assert Review.objects.get(pk=demo["review"]).state == "approved"
