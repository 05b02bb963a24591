"""Invitation to sign-up in a real browser (issue 20): an owner invites an address, the emailed
link opens the sign-up form with that address fixed, and the new account lands in the team."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse

from apps.accounts.models import Membership, OutgoingEmail
from tests.e2e.conftest import log_in
from tests.factories import make_membership, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("E2E_SCREENSHOTS", "")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


class InvitationSignUpInBrowserTests:
    def test_an_invited_person_signs_up_from_the_link_and_joins(self, live_server, browser_page):
        page = browser_page
        team = make_team("Team Aurora", "aurora")
        alice = make_membership(make_user("alice"), team, "owner").user

        log_in(page, live_server.url, alice.username)
        page.goto(live_server.url + reverse("accounts:invitations"))
        page.fill("input[name=email]", "rui@example.com")
        page.select_option("select[name=role]", "reviewer")
        shot(page, "invitations")
        page.click("#invitation-form button[type=submit]")
        page.wait_for_selector("#invitation-list td:has-text('rui@example.com')")

        email = OutgoingEmail.objects.get(to="rui@example.com")
        link = re.search(r"https?://\S+/accounts/invitations/accept/\S+/", email.text).group(0)
        page.locator("form[action='/accounts/logout/'] button").first.click()
        page.wait_for_url(re.compile(r".*/accounts/login/.*"))

        page.goto(link)
        page.wait_for_url(f"{live_server.url}{reverse('account_signup')}")
        address = page.locator("input[name=email]")
        assert address.input_value() == "rui@example.com" and address.is_disabled()
        page.fill("input[name=username]", "rui")
        page.fill("input[name=password1]", "a-long-pass-phrase-9")
        page.fill("input[name=password2]", "a-long-pass-phrase-9")
        shot(page, "signup")
        page.click(".auth-card button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        assert "Team Aurora" in page.content()
        assert Membership.objects.get(user__username="rui").role == "reviewer"
