"""The review flow in a real browser (Debian's Chromium through Playwright).

alice answers the checklist question by question and sees each answer saved, submits; bob
approves in the approval view; the review shows as approved with its timeline; carol, of another
team, cannot open it.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from apps.reviews.models import Review
from engine import ENGINE_VERSION
from tests.e2e.conftest import log_in
from tests.factories import (
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_team,
    make_user,
)

# Playwright's sync API runs an event loop in this thread. The test reads the database only
# before and after the browser block (a connection opened inside it would outlive the test).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

QUESTIONS = ["q1", "q2", "q3", "q4", "q5", "q6"]
TIMEOUT = 15_000  # ms


@pytest.fixture
def flow_data(db):
    aurora = make_team("Team Aurora", "aurora")
    borealis = make_team("Team Borealis", "borealis")
    alice = make_membership(make_user("alice"), aurora, "owner").user
    make_membership(make_user("bob"), aurora, "reviewer")
    make_membership(make_user("carol"), borealis, "member")
    site = make_site(aurora, "bj-a")
    task = make_profile(
        aurora,
        site=site,
        name="Llama 7B nightly evaluation",
        resume_verified=True,
        env_aligned=True,
    )
    offer = make_offer(aurora, site=site, name="8× H100 on demand")
    review = make_review(
        aurora, alice, task=task, offers=[offer], title="Nightly evaluation on H100"
    )
    return review


def log_out(page) -> None:
    page.click("form[action$='/accounts/logout/'] button")
    page.wait_for_url("**/accounts/login/**", timeout=TIMEOUT)


@pytest.mark.django_db(transaction=True)
def test_checklist_submit_approve_and_outsider(live_server, flow_data, browser):
    from playwright.sync_api import expect

    review: Review = flow_data
    candidate = review.candidates.get()
    base = live_server.url
    detail_url = base + reverse("reviews:detail", args=[review.pk])

    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)

        # alice answers the six questions one by one; each shows "Saved" in place.
        log_in(page, base, "alice", timeout=TIMEOUT)
        page.goto(base + reverse("checklists:review", args=[review.pk]))
        counter = page.locator(f"#counter-{candidate.pk}")
        expect(counter).to_have_text("6 unanswered: not ready to sign")
        expect(page.locator("#checklist-gate")).to_contain_text("Not ready to sign")
        for number, question in enumerate(QUESTIONS, start=1):
            form = page.locator(f"#q-{candidate.pk}-{question}")
            form.locator("textarea").fill(f"Answer {number}: checked against the method.")
            # A written answer counts as answered (no separate status control); leaving
            # the box (its change event) saves it.
            form.locator("textarea").press("Tab")
            saved = page.locator(f"#answer-state-{candidate.pk}-{question} .save-state--saved")
            expect(saved).to_contain_text("Saved")
            left = 6 - number
            expect(counter).to_have_text(
                "complete" if left == 0
                else f"{left} unanswered" + (": not ready to sign" if left >= 2 else "")
            )
        expect(page.locator("#checklist-gate")).to_contain_text("Ready to sign")

        # A wrong answer shows its error in place, and is not saved.
        page.goto(base + reverse("checklists:review", args=[review.pk]))
        form = page.locator(f"#q-{candidate.pk}-q6")
        form.locator("input[type=url]").fill("not a link")
        form.locator("textarea").click()
        expect(
            page.locator(f"#answer-state-{candidate.pk}-q6 .save-state--error")
        ).to_be_visible()
        form.locator("input[type=url]").fill("")
        form.locator("textarea").click()
        expect(
            page.locator(f"#answer-state-{candidate.pk}-q6 .save-state--saved")
        ).to_be_visible()

        # Submit: the review page shows the findings grouped by severity.
        page.click("#checklist-progress button[type=submit]")
        page.wait_for_url(detail_url)
        expect(page.locator(".flash--success")).to_contain_text("Submitted")
        expect(page.locator("h1 .badge")).to_have_text("Submitted")
        expect(page.locator("#review-evaluation")).to_contain_text("Findings")
        log_out(page)

        # bob finds it in his approval queue and approves with a comment.
        log_in(page, base, "bob", timeout=TIMEOUT)
        page.click("nav.mainnav >> text=Approvals")
        row = page.locator(f"#queue-{review.pk}")
        expect(row).to_contain_text("Nightly evaluation on H100")
        row.locator("a.btn").click()
        page.wait_for_url(detail_url + "#decision-panel")
        page.fill("#decision-panel textarea[name=comment]", "Cheapest total, no transfer.")
        # Approving asks first, showing what is approved (issue 35).
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#decision-panel button[value=approve]")
        expect(page.locator("h1 .badge")).to_have_text("Approved")
        expect(page.locator(".flash--success")).to_contain_text("approval is recorded")
        timeline = page.locator("#timeline")
        for text in (
            "answered the checklist",
            "submitted the review",
            "signed off",
            "the review is approved",
        ):
            expect(timeline).to_contain_text(text)
        # An approved review says which snapshot was signed and which engine computed it.
        expect(page.locator("#decision-panel")).to_contain_text("Approved on snapshot #")
        expect(page.locator("#decision-panel")).to_contain_text(
            f"Computed by engine {ENGINE_VERSION}."
        )
        log_out(page)

        # carol, of another team, gets a 404 for the review.
        log_in(page, base, "carol", timeout=TIMEOUT)
        response = page.goto(detail_url)
        assert response is not None and response.status == 404
        response = page.goto(base + reverse("checklists:review", args=[review.pk]))
        assert response is not None and response.status == 404
    finally:
        context.close()

    review.refresh_from_db()
    assert review.state == "approved"
    assert list(review.signoffs.values_list("reviewer__username", "decision")) == [
        ("bob", "approve")
    ]
    assert candidate.answers.filter(status="answered").count() == 6
    assert review.frozen_input["checklists"][str(candidate.offer_id)] == dict.fromkeys(
        QUESTIONS, "answered"
    )
