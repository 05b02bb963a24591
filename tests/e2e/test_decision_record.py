"""The decision record printed by the browser (issue 15): bob opens the record of the demo's
signed review from its review page, prints it to PDF (Chromium's own "Save as PDF"), and the PDF
holds the findings, the checklist answers and the sign-off comments, with the charts drawn."""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass

import pytest
from django.urls import reverse

from apps.accounts.demo import DemoContext
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import Review
from apps.reviews.snapshots.services import signed_snapshot
from tests.e2e.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)
SIGNED_TITLE = "Q3 nightly evaluation capacity (signed)"


def _words(text: str) -> str:
    """Text with every run of white space as one space (a PDF breaks lines where it likes) and
    ligatures spelled out (the PDF's "ﬁ" is "fi")."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _pdf_text(pdf: bytes) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    return len(reader.pages), _words(" ".join(page.extract_text() for page in reader.pages))


@dataclass
class SignedDemo:
    review_id: int
    findings: list[dict]
    answers: list[str]
    comments: list[str]


@pytest.fixture
def signed_demo(live_server, demo_world) -> SignedDemo:
    """The demo's signed review, read before the test's page opens."""
    review = Review.objects.get(title=SIGNED_TITLE)
    answers = ChecklistAnswer.objects.filter(candidate__review=review)
    demo = SignedDemo(
        review_id=review.pk,
        findings=signed_snapshot(review).output["findings"],
        answers=list(answers.values_list("text", flat=True)),
        comments=list(review.signoffs.values_list("comment", flat=True)),
    )
    assert review.state == "approved" and demo.findings
    assert len(demo.answers) == 12 and len(demo.comments) == 2  # 2 candidates × 6; 2 sign-offs
    return demo


def test_the_printed_record_has_the_findings_answers_and_signoffs(
    live_server, signed_demo, browser_page
):
    demo = signed_demo
    page = browser_page
    log_in(page, live_server.url, "bob", DemoContext.PASSWORD)
    page.goto(live_server.url + reverse("reviews:detail", args=[demo.review_id]))
    page.click("a[data-record-link]")
    page.wait_for_url(f"**{reverse('scoring:review_record', args=[demo.review_id])}")
    assert page.locator("[data-record-stamp=signed]").count() == 1
    # The record draws its charts as it loads, without being scrolled to.
    charts = page.locator("[data-charts-now] [data-plotly]").count()
    assert charts >= 4
    page.wait_for_function(
        "n => document.querySelectorAll('[data-charts-now] .chart--drawn .main-svg').length >= n",
        arg=charts,
    )

    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    assert pdf.startswith(b"%PDF-")
    pages, text = _pdf_text(pdf)
    assert pages >= 2
    assert "DECISION RECORD" in text and "Signed." in text and SIGNED_TITLE in text
    for finding in demo.findings:
        assert finding["rule"] in text
        assert _words(finding["message"]) in text, finding["rule"]
    for answer in demo.answers:
        assert _words(answer) in text
    for comment in demo.comments:
        assert _words(comment) in text
    # The audit trail, and no navigation or buttons on paper.
    assert "Audit trail" in text and "submitted the review" in text
    assert "Print or save as PDF" not in text and "Sign out" not in text
