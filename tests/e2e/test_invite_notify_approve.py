"""Issue 20 in a real browser: an owner invites a reviewer, the reviewer signs up from the link in
the email, hears of a submitted review through the bell and the inbox, and approves from it; the
author hears of the decision and marks it read in place."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.accounts.models import OutgoingEmail
from apps.notifications.models import Notification
from tests.e2e.conftest import log_in
from tests.teams.helpers import moving_review, submit

pytestmark = pytest.mark.django_db(transaction=True)


def _log_out(page) -> None:
    page.click("form[action$='/accounts/logout/'] button")
    page.wait_for_url("**/accounts/login/**")


def test_an_invited_reviewer_signs_up_hears_of_a_submission_and_approves(
    live_server, browser_page, team, owner, member
):
    from playwright.sync_api import expect

    review = moving_review(team, member, ready=True, title="Move the ETL to Shanghai")
    page, base = browser_page, live_server.url

    # 1. The owner invites a reviewer by email.
    log_in(page, base, "owner")
    page.goto(base + reverse("accounts:invitations"))
    page.fill("#id_email", "rita@example.com")
    page.select_option("#id_role", "reviewer")
    page.get_by_role("button", name="Send the invitation").click()
    expect(page.locator(".flash--success")).to_contain_text("Invitation sent to rita@example.com")
    _log_out(page)

    # 2. Rita follows the link of the email the outbox sent and creates her account.
    email = OutgoingEmail.objects.get(to="rita@example.com")
    link = re.search(r"https?://\S+/accounts/invitations/accept/\S+/", email.text).group(0)
    page.goto(link)
    page.wait_for_url("**/signup/**")
    page.fill("#id_username", "rita")
    page.fill("#id_password1", "a-long-pass-phrase-9")
    page.fill("#id_password2", "a-long-pass-phrase-9")
    page.get_by_role("button", name="Create the account and join").click()
    page.wait_for_url(base + reverse("home"))
    bell = page.locator("#notification-bell")
    expect(bell).not_to_contain_text("unread")

    # 3. The member submits the review: Rita's bell counts it on her next page.
    submit(review)
    page.goto(base + reverse("home"))
    expect(bell).to_contain_text("1 unread")
    bell.click()
    page.wait_for_url(base + reverse("notifications:inbox"))
    item = page.locator(".notification.is-unread")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("member submitted “Move the ETL to Shanghai” for your decision.")

    # 4. Following it opens the review (and reads it); she approves there.
    item.locator("a.notification__text").click()
    page.wait_for_url(base + reverse("reviews:detail", args=[review.pk]))
    expect(bell).not_to_contain_text("unread")
    page.fill("#decision-panel textarea[name=comment]", "Data stays put; cheapest plan.")
    # Approving asks first, showing what is approved (issue 35).
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#decision-panel button[value=approve]")
    expect(page.locator("h1 .badge")).to_have_text("Approved")

    # 5. The author hears of the decision and marks it read in place (htmx: the item and the
    # bell change, the page does not reload).
    # The approval also gives the team its quarter's first figures at once (issue 33: a sign-off
    # recomputes the quarter), which every member hears of once: two unread for the author.
    _log_out(page)
    log_in(page, base, "member")
    expect(bell).to_contain_text("2 unread")
    page.goto(base + reverse("notifications:inbox"))
    page.evaluate("window.__notReloaded = true")
    unread = page.locator(".notification.is-unread")
    decided = unread.filter(has_text="is approved")
    expect(decided).to_contain_text(
        "“Move the ETL to Shanghai” is approved (last approval by rita)."
    )
    decided.get_by_role("button", name="Mark read").click()
    expect(unread).to_have_count(1)
    expect(bell).to_contain_text("1 unread")
    assert page.evaluate("window.__notReloaded === true")

    review.refresh_from_db()
    assert review.state == "approved"
    assert review.signoffs.get().reviewer.username == "rita"
    assert (
        Notification.objects.get(recipient__username="rita", kind="review_submitted").read_at
        is not None
    )
    assert Notification.objects.filter(recipient=member, kind="quarterly_ready").count() == 1
    assert Notification.objects.get(recipient=member, kind="decision_taken").read_at is not None
