"""Styled, translated error pages with the site's navigation (issue 15 consistency sweep): 400,
403, the CSRF refusal, 404 and 500 say what happened and where to go, in both languages."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import make_membership, make_profile, make_team, make_user

pytestmark = pytest.mark.django_db


def _page(response) -> str:
    return response.content.decode()


class ErrorPageTests:
    def test_404_is_styled_and_offers_a_way_on(self, client, owner):
        client.force_login(owner)
        response = client.get("/no-such-page/")
        html = _page(response)
        assert response.status_code == 404
        assert 'data-error="404"' in html and "Page not found" in html
        assert f'href="{reverse("home")}"' in html and f'href="{reverse("method:index")}"' in html
        assert 'class="mainnav"' in html  # the signed-in navigation is there

    def test_404_in_chinese(self, client, owner):
        client.force_login(owner)
        client.cookies["django_language"] = "zh-hans"
        html = _page(client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="zh-hans"))
        assert "页面不存在" in html and "Page not found" not in html

    def test_403_names_the_role(self, client, team):
        viewer = make_user("viewer-403")
        make_membership(viewer, team, role="viewer")
        client.force_login(viewer)
        response = client.post(reverse("catalog:site_create"), {})
        assert response.status_code == 403
        assert 'data-error="403"' in _page(response)
        assert "A team owner can change your role" in _page(response)

    def test_a_form_without_its_token_gets_the_csrf_page(self, owner):
        client = Client(enforce_csrf_checks=True)
        client.force_login(owner)
        response = client.post(reverse("reviews:create"), {"title": "x"})
        assert response.status_code == 403
        assert 'data-error="403-csrf"' in _page(response)
        assert "nothing was saved" in _page(response)

    @override_settings(ROOT_URLCONF="tests.web.error_urls")
    def test_500_is_styled_and_says_nothing_was_half_saved(self, owner):
        client = Client(raise_request_exception=False)
        client.force_login(owner)
        response = client.get("/test-failure/")
        assert response.status_code == 500
        html = _page(response)
        assert 'data-error="500"' in html and "Nothing you sent was half-saved" in html
        assert f'href="{reverse("reviews:list")}"' in html
        assert "RuntimeError" not in html and "Traceback" not in html


def test_a_stranger_to_the_team_gets_the_404_page(client, team):
    stranger = make_user("stranger-404")
    make_membership(stranger, make_team("Elsewhere 404"))
    client.force_login(stranger)
    profile = make_profile(team)
    response = client.get(reverse("profiles:detail", args=[profile.pk]))
    assert response.status_code == 404 and 'data-error="404"' in _page(response)
