"""The live engine panel of the profile form where the user can see it (issue 39): on a wide
screen beside the form and still in view deep down the form (sticky); on a phone one tap away,
through a link that stays in the corner, and back to the form from the panel."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.e2e.test_phone import phone_context
from tests.factories import make_membership, make_profile, make_site, make_team, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def profile_url(db):
    team = make_team("Team Aurora", "aurora")
    make_membership(make_user("alice"), team, "owner")
    profile = make_profile(team, make_site(team, "bj-a"), name="Nightly 7B eval")
    return reverse("profiles:edit", args=[profile.pk])


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
           return r.top < innerHeight && r.bottom > 0 && r.left >= 0 && r.right <= innerWidth; }""",
        selector,
    )


class ProfilePanelTests:
    def test_on_a_wide_screen_it_sits_beside_the_form_and_stays_in_view(
        self, live_server, browser, profile_url
    ):
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        try:
            page = context.new_page()
            log_in(page, live_server.url, "alice")
            page.goto(live_server.url + profile_url)
            form = page.locator("#profile-form").bounding_box()
            panel = page.locator("#profile-panel").bounding_box()
            assert panel["x"] >= form["x"] + form["width"]  # beside, not below
            assert panel["y"] < 900
            assert not page.locator(".panel-jump").is_visible()
            # Deep down the form (the last section), the panel is still on the screen.
            page.locator("#profile-form .form-actions").scroll_into_view_if_needed()
            assert page.evaluate("scrollY") > 900
            assert in_view(page, "#profile-panel")
        finally:
            context.close()

    @pytest.mark.parametrize(("language", "jump"), [("en", "Engine check"), ("zh-hans", "引擎检查")])
    def test_on_a_phone_a_link_in_the_corner_jumps_to_it_and_back(
        self, live_server, browser, profile_url, language, jump
    ):
        context = phone_context(browser, live_server.url, language)
        try:
            page = context.new_page()
            log_in(page, live_server.url, "alice")
            page.goto(live_server.url + profile_url)
            assert not in_view(page, "#profile-panel")  # below the long form
            link = page.locator(".panel-jump")
            assert link.is_visible() and jump in link.inner_text()
            page.locator("#profile-form fieldset").nth(2).scroll_into_view_if_needed()
            assert link.is_visible() and in_view(page, ".panel-jump")  # stays in the corner
            link.click()
            page.wait_for_function("location.hash === '#profile-panel'")
            assert in_view(page, "#profile-panel h2")
            page.locator("#profile-panel .panel-back").click()
            page.wait_for_function("location.hash === '#profile-form'")
            assert in_view(page, "#profile-form")
        finally:
            context.close()
