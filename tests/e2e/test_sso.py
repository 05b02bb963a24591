"""Single sign-on in a real browser (issue 20): the "Sign in with …" button posts to the site,
which redirects to the identity provider (tests/accounts/oidc_issuer.py, another origin) and back.
The Content-Security-Policy's form-action must allow the provider, or the browser stops there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.accounts.oidc_issuer import Issuer
from tests.factories import make_membership, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def issuer(settings):
    from config.settings import oidc_form_action

    with Issuer() as running:
        settings.SOCIALACCOUNT_PROVIDERS = {
            "openid_connect": {
                "OAUTH_PKCE_ENABLED": True,
                "APPS": [
                    {
                        "provider_id": "sso",
                        "name": "Corp ID",
                        "client_id": running.client_id,
                        "secret": running.client_secret,
                        "settings": {"server_url": running.url},
                    }
                ],
            }
        }
        policy = {**settings.CONTENT_SECURITY_POLICY}
        directives = {**policy["DIRECTIVES"]}
        directives["form-action"] = oidc_form_action(directives["form-action"], running.url)
        settings.CONTENT_SECURITY_POLICY = {**policy, "DIRECTIVES": directives}
        yield running


class SsoInBrowserTests:
    def test_a_member_signs_in_with_the_identity_provider(self, live_server, browser_page, issuer):
        page = browser_page
        team = make_team("Team Aurora", "aurora")
        member = make_membership(make_user("rui", email="rui@corp.example"), team).user
        issuer.identity = {"sub": "corp-7", "email": member.email, "email_verified": True}
        blocked = []
        page.on("console", lambda m: blocked.append(m.text) if "form-action" in m.text else None)
        page.goto(live_server.url + reverse("accounts:login"))
        page.get_by_role("button", name="Sign in with Corp ID").click()
        page.wait_for_url(f"{live_server.url}/")
        assert not blocked, blocked
        assert "Team Aurora" in page.content()
        assert "/authorize" in issuer.requests and "/token" in issuer.requests
