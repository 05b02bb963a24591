"""The printed decision record (issue 35), by Chromium's own PDF printer on the demo data, in both
languages: every demo review's record prints on at most 4 A4 pages with the decision's summary on
page 1, every finding (with its rule id) and every sign-off (with its snapshot) inside them, body
text of at least 9 pt, no screen-only hint ("Click a column to sort"), and charts at the printed
page's full width. The per-answer audit entries and the table's other columns are an appendix,
printed when asked for.
"""

from __future__ import annotations

import io
import os
import unicodedata

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.pages import LANGUAGES, sign_in, use_language

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

MAX_PAGES = 4
MIN_BODY_PT = 9
SHOTS = os.environ.get("GLANCE_SCREENSHOTS")

# The smallest font size (pt) of any printed text outside the charts (their ticks are drawn).
SMALLEST_TEXT = """() => {
  let smallest = Infinity, where = '';
  const walker = document.createTreeWalker(document.querySelector('article.record'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('svg, .chart, script, style')) continue;
    if (!el.getClientRects().length) continue;  // not printed
    const size = parseFloat(getComputedStyle(el).fontSize) * 0.75;  // px → pt
    if (size < smallest) { smallest = size; where = el.tagName + '.' + el.className + ': ' + node.textContent.trim().slice(0, 40); }
  }
  return [smallest, where];
}"""


def _words(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _pages(pdf: bytes) -> list[str]:
    from pypdf import PdfReader

    return [_words(p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def records(live_server):
    """Every demo review of Team Aurora with figures: (id, title, rule ids, sign-off snapshots)."""
    from apps.reviews.models import Review
    from apps.reviews.snapshots.selectors import review_evaluation

    call_command("load_demo", verbosity=0)
    out = []
    for review in Review.objects.filter(team__name="Team Aurora").order_by("pk"):
        snapshot = review_evaluation(review)["snapshot"]
        if snapshot is None:
            continue
        rules = sorted({f["rule"] for f in (snapshot.output or {}).get("findings", [])})
        signoffs = list(review.signoffs.values_list("snapshot_id", flat=True))
        out.append((review.pk, review.title, rules, signoffs))
    assert len(out) >= 3
    return out


def test_every_record_prints_on_four_pages_with_its_summary_first(live_server, records, browser):

    base = live_server.url
    failures: list[str] = []
    try:
        for language in LANGUAGES:
            context = browser.new_context(locale="en-US")
            use_language(context, base, language)
            page = context.new_page()
            page.set_default_timeout(20_000)
            sign_in(page, base, "bob")
            for pk, title, rules, signoffs in records:
                where = f"{language} #{pk} {title}"
                failures += [f"{where}: {f}" for f in _check(page, base, pk, rules, signoffs)]
                if SHOTS and pk == records[-1][0]:
                    page.screenshot(path=f"{SHOTS}/record-{language}.png")
            context.close()
    finally:
        for context in browser.contexts:
            context.close()
    assert not failures, "\n".join(failures)


def _check(page, base: str, pk: int, rules: list[str], signoffs: list[int]) -> list[str]:
    page.goto(base + reverse("scoring:review_record", args=[pk]))
    charts = page.locator("[data-charts-now] [data-plotly]").count()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-charts-now] .chart--drawn .main-svg').length >= n",
        arg=charts,
    )
    page.emulate_media(media="print")
    out = []
    smallest, where = page.evaluate(SMALLEST_TEXT)
    if smallest < MIN_BODY_PT - 0.01:
        out.append(f"text of {smallest:.1f} pt ({where})")
    page_width = page.evaluate(
        "document.querySelector('article.record').getBoundingClientRect().width"
    )
    widths = page.evaluate(
        "() => [...document.querySelectorAll('[data-charts-now] .main-svg')]"
        ".map(svg => svg.getBoundingClientRect().width).filter(width => width > 0)"
    )
    if not widths:
        out.append("no chart printed")
    out += [
        f"a chart prints {width:.0f} px wide of {page_width:.0f}"
        for width in widths
        if width < 0.9 * page_width
    ]
    page.emulate_media(media="null")  # back to no emulation: the PDF prints with print media
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    pages = _pages(pdf)
    text = " ".join(pages)
    if len(pages) > MAX_PAGES:
        out.append(f"{len(pages)} pages")
    first = pages[0]
    if not any(k in first for k in ("THE DECISION", "决策")):
        out.append("the decision's summary is not on page 1")
    kept = " ".join(pages[:MAX_PAGES])
    out += [f"finding {rule} not in the first pages" for rule in rules if rule not in kept]
    out += [f"sign-off on snapshot #{n} not in them" for n in signoffs if f"#{n}" not in kept]
    if "Click a column to sort" in text or "点击列标题排序" in text:
        out.append("a screen-only hint is printed")
    return out


def test_the_appendix_prints_when_ticked(live_server, records, browser):
    """Ticked, the printout also has each change of a checklist answer ("answered the checklist"
    entries of the audit trail) and the table's other columns; not ticked, it has neither."""

    base = live_server.url
    pk = records[0][0]
    try:
        page = browser.new_page(locale="en-US")
        sign_in(page, base, "bob")
        page.goto(base + reverse("scoring:review_record", args=[pk]))
        plain = " ".join(_pages(page.pdf(prefer_css_page_size=True)))
        page.click("label[for=record-appendix]")
        assert page.is_checked("#record-appendix")
        full = " ".join(_pages(page.pdf(prefer_css_page_size=True)))
    finally:
        for context in browser.contexts:
            context.close()
    assert "answered the checklist" not in plain and "Peak GPU GB" not in plain
    assert "answered the checklist" in full and "Peak GPU GB" in full
