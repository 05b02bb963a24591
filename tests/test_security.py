"""Security basics of the whole stack: lockout, CSRF, CSP, production cookies."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_settings import SECRET, run_manage

pytestmark = pytest.mark.django_db


class LoginLockoutTests:
    def test_it_locks_out_after_repeated_failures(self, client, settings, demo_world):
        url = reverse("accounts:login")
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            response = client.post(url, {"username": "alice", "password": "wrong"})
            assert response.status_code == 200
        # The failure that reaches the limit locks the pair out at once.
        locked = client.post(url, {"username": "alice", "password": "wrong"})
        assert locked.status_code == 429
        assert b"Too many failed sign-in attempts" in locked.content
        # Even the right password is refused while locked out.
        right = client.post(url, {"username": "alice", "password": "demo-pass-123"})
        assert right.status_code == 429
        assert "_auth_user_id" not in client.session

    def test_a_success_before_the_limit_resets_the_count(self, client, settings, demo_world):
        url = reverse("accounts:login")
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            client.post(url, {"username": "alice", "password": "wrong"})
        ok = client.post(url, {"username": "alice", "password": "demo-pass-123"})
        assert ok.status_code == 302


class CsrfTests:
    def test_a_post_without_the_token_is_refused(self, member):
        client = Client(enforce_csrf_checks=True)
        client.force_login(member)
        response = client.post(reverse("accounts:logout"))
        assert response.status_code == 403
        assert "_auth_user_id" in client.session

    def test_htmx_posts_carry_the_token_from_the_body(self, member):
        client = Client(enforce_csrf_checks=True)
        client.force_login(member)
        page = client.get(reverse("home")).content.decode()
        token = client.cookies["csrftoken"].value
        assert "hx-headers='{\"X-CSRFToken\": \"" in page
        response = client.post(
            reverse("accounts:logout"), HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 302


class ContentSecurityPolicyTests:
    def test_every_page_sends_a_policy_without_inline_scripts(self, client, member):
        client.force_login(member)
        header = client.get(reverse("home"))["Content-Security-Policy"]
        directives = dict(
            (part.split()[0], part.split()[1:]) for part in header.split(";") if part.strip()
        )
        assert directives["script-src"] == ["'self'"]
        assert "'unsafe-inline'" not in directives["script-src"]
        assert "'unsafe-eval'" not in directives["script-src"]
        assert directives["frame-ancestors"] == ["'none'"]

    def test_pages_have_no_inline_scripts(self, client, member):
        import re

        client.force_login(member)
        html = client.get(reverse("home")).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, tag
        assert not re.search(r"\son[a-z]+=", html), "inline event handler found"


class ProductionCookieTests:
    def test_production_cookies_are_secure(self):
        code = (
            "from django.conf import settings as s;"
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
            " s.SESSION_COOKIE_HTTPONLY, s.SECURE_HSTS_SECONDS > 0, s.DEBUG)"
        )
        out = run_manage(
            "shell", "-c", code,
            DJANGO_ENV="production", DJANGO_SECRET_KEY=SECRET, DJANGO_ALLOWED_HOSTS="x.example.com",
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == "True True True True True False"
