"""Single sign-on with OpenID Connect (issue 20) against a real in-test issuer
(tests/accounts/oidc_issuer.py): the Django test client starts the sign-in, follows the redirect
to the issuer's authorize endpoint over HTTP, and brings the code back to allauth's callback, which
fetches the discovery document, the token and the userinfo from the issuer."""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.urls import reverse

from apps.accounts.invitations import invitation_create
from apps.accounts.models import Invitation, Membership
from tests.accounts.oidc_issuer import Issuer
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
LOGIN = reverse("openid_connect_login", kwargs={"provider_id": "sso"})


@pytest.fixture
def issuer(settings):
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
        yield running


def sso_sign_in(client, issuer: Issuer, **identity):
    """The whole round trip; returns allauth's answer to the callback."""
    issuer.identity = {"sub": "u-1", "email_verified": True, **identity}
    start = client.post(LOGIN, {"process": "login"})
    assert start.status_code == 302 and start["Location"].startswith(issuer.url + "/authorize")
    query = parse_qs(urlsplit(start["Location"]).query)
    assert query["code_challenge_method"] == ["S256"]
    at_issuer = requests.get(start["Location"], allow_redirects=False, timeout=5)
    assert at_issuer.status_code == 302
    back = urlsplit(at_issuer.headers["Location"])
    assert back.path == reverse("openid_connect_callback", kwargs={"provider_id": "sso"})
    return client.get(back.path + "?" + back.query)


def final_page(client, response) -> str:
    if response.status_code == 302:
        response = client.get(response["Location"])
    return response.content.decode()


class SsoTests:
    def test_an_invited_address_gets_an_account_and_joins_the_team(self, client, issuer, team):
        invitation, _token = invitation_create(
            team=team,
            email="ada@corp.example",
            role="reviewer",
            invited_by=None,
            base_url="http://testserver",
        )
        response = sso_sign_in(client, issuer, email="Ada@corp.example", name="Ada L")
        assert response.status_code == 302, response.content.decode()[:3000]
        user = get_user_model().objects.get(email__iexact="ada@corp.example")
        assert int(client.session["_auth_user_id"]) == user.pk
        assert Membership.objects.get(user=user).team == team
        assert Membership.objects.get(user=user).role == "reviewer"
        assert SocialAccount.objects.get(user=user).uid == "u-1"
        assert EmailAddress.objects.get(user=user).verified
        invitation.refresh_from_db()
        assert invitation.accepted_by == user
        # The issuer was really asked: discovery, authorize, token, userinfo.
        for path in ("/.well-known/openid-configuration", "/authorize", "/token", "/userinfo"):
            assert path in issuer.requests

    def test_an_existing_account_with_the_same_verified_address_is_linked(
        self, client, issuer, member
    ):
        users_before = get_user_model().objects.count()
        response = sso_sign_in(client, issuer, email=member.email, sub="corp-42")
        assert response.status_code == 302
        assert int(client.session["_auth_user_id"]) == member.pk
        assert get_user_model().objects.count() == users_before
        assert SocialAccount.objects.get(uid="corp-42").user == member
        # Next time the link is used directly.
        client.logout()
        assert sso_sign_in(client, issuer, email=member.email, sub="corp-42").status_code == 302
        assert int(client.session["_auth_user_id"]) == member.pk

    def test_an_unknown_address_without_an_invitation_is_refused(self, client, issuer, team):
        response = sso_sign_in(client, issuer, email="stranger@corp.example", sub="x-9")
        assert 'id="signup-closed"' in final_page(client, response)
        assert not get_user_model().objects.filter(email="stranger@corp.example").exists()
        assert "_auth_user_id" not in client.session
        assert not SocialAccount.objects.exists()

    def test_an_address_the_issuer_does_not_vouch_for_is_refused(self, client, issuer, team):
        invitation_create(
            team=team,
            email="unsure@corp.example",
            role="member",
            invited_by=None,
            base_url="http://testserver",
        )
        identity = {"email": "unsure@corp.example", "sub": "u-7", "email_verified": False}
        response = sso_sign_in(client, issuer, **identity)
        assert 'id="signup-closed"' in final_page(client, response)
        assert "_auth_user_id" not in client.session
        assert not Membership.objects.filter(user__email="unsure@corp.example").exists()
        assert Invitation.objects.get(email="unsure@corp.example").accepted_at is None

    def test_an_sso_only_teams_pages_open_after_sso_but_not_after_a_password(
        self, client, issuer, team, member
    ):
        team.sso_only = True
        team.save()
        by_password = client.post(
            reverse("accounts:login"), {"username": member.username, "password": PASSWORD}
        )
        assert by_password.status_code == 302
        asked = client.get(reverse("home"))
        assert asked.status_code == 403 and "Sign in with Corp ID" in asked.content.decode()
        client.logout()
        assert sso_sign_in(client, issuer, email=member.email, sub="m-1").status_code == 302
        assert int(client.session["_auth_user_id"]) == member.pk
        assert client.get(reverse("home")).status_code == 200

    def test_the_login_page_offers_the_provider(self, client, issuer):
        page = client.get(reverse("accounts:login")).content.decode()
        assert f'action="{LOGIN}' in page and "Sign in with Corp ID" in page


class OidcSettingsTests:
    def test_the_provider_is_configured_from_the_environment(self):
        code = (
            "from django.conf import settings;import json;"
            "print(json.dumps(settings.SOCIALACCOUNT_PROVIDERS['openid_connect']['APPS']));"
            "print(json.dumps(settings.CONTENT_SECURITY_POLICY['DIRECTIVES']['form-action']))"
        )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "OIDC_ISSUER": "https://id.corp.example/realms/main/",
            "OIDC_CLIENT_ID": "reviews",
            "OIDC_CLIENT_SECRET": "shh",
            "OIDC_NAME": "Corp ID",
        }
        out = subprocess.run(
            [sys.executable, "-c", "import django;django.setup();" + code],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert '"server_url": "https://id.corp.example/realms/main"' in out
        assert '"client_id": "reviews"' in out and '"name": "Corp ID"' in out
        # The sign-in form's redirect to the provider is allowed by the CSP (tests/e2e/test_sso.py).
        assert out.splitlines()[1] == '["\'self\'", "https://id.corp.example"]'

    def test_an_issuer_without_a_client_id_stops_the_start(self):
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "OIDC_ISSUER": "https://id.corp.example",
        }
        env.pop("OIDC_CLIENT_ID", None)
        result = subprocess.run(
            [sys.executable, "-c", "import django;django.setup()"],
            env=env,
            capture_output=True,
            text=True,
        )
        assert result.returncode != 0 and "OIDC_CLIENT_ID" in result.stderr


class SsoOnlySettingTests:
    def _save(self, client, team, **extra):
        data = {"approvals_required": 1, "currency": team.currency, "version": team.version}
        return client.post(reverse("teams:settings_general"), {**data, **extra})

    def test_an_owner_turns_it_on_when_single_sign_on_is_configured(
        self, client, issuer, team, owner
    ):
        client.force_login(owner)
        response = self._save(client, team, sso_only="on")
        assert response.status_code == 302
        team.refresh_from_db()
        assert team.sso_only is True
        # This owner signed in with a password: from now on the team's pages ask for single
        # sign-on, the settings page included.
        asked = client.get(reverse("teams:settings"))
        assert asked.status_code == 403
        assert "signs in with single sign-on only" in asked.content.decode()

    def test_it_cannot_be_turned_on_without_an_identity_provider(self, client, team, owner):
        client.force_login(owner)
        response = self._save(client, team, sso_only="on")
        assert response.status_code == 200
        assert response.context["general_form"].errors["sso_only"]
        team.refresh_from_db()
        assert team.sso_only is False
