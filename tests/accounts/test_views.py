from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.middleware import SESSION_TEAM_KEY
from tests.factories import make_membership, make_team, make_user

pytestmark = pytest.mark.django_db


class LoginTests:
    def test_it_serves_a_login_page(self, client):
        response = client.get(reverse("accounts:login"))
        assert response.status_code == 200
        assert b'name="username"' in response.content
        assert b'name="password"' in response.content

    def test_it_redirects_anonymous_users_to_login(self, client):
        response = client.get(reverse("home"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))

    def test_alice_logs_in_with_the_demo_password(self, client, demo_world):
        response = client.post(
            reverse("accounts:login"),
            {"username": "alice", "password": "demo-pass-123"},
            follow=True,
        )
        assert response.status_code == 200
        assert response.context["user"].username == "alice"
        assert b"Team Aurora" in response.content

    def test_a_wrong_password_shows_an_error_and_no_session(self, client, demo_world):
        response = client.post(
            reverse("accounts:login"), {"username": "alice", "password": "nope"}
        )
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session
        assert b"form-error" in response.content

    def test_logout_is_a_post(self, client, member):
        client.force_login(member)
        # A GET asks first (the sign-out page) and signs no one out.
        response = client.get(reverse("accounts:logout"))
        assert response.status_code == 200 and b"Sign out of this browser?" in response.content
        assert client.session["_auth_user_id"] == str(member.pk)
        response = client.post(reverse("accounts:logout"))
        assert response.status_code == 302
        assert "_auth_user_id" not in client.session


class LanguageTests:
    def test_it_renders_the_page_in_simplified_chinese_after_the_switch(self, client, member):
        client.force_login(member)
        response = client.post(
            reverse("set_language"), {"language": "zh-hans", "next": reverse("home")}
        )
        assert response.status_code == 302
        page = client.get(reverse("home"))
        html = page.content.decode()
        assert '<html lang="zh-hans">' in html
        assert "退出登录" in html  # "Sign out"
        assert "Sign out" not in html

    def test_it_renders_english_by_default(self, client, member):
        client.force_login(member)
        html = client.get(reverse("home")).content.decode()
        assert '<html lang="en">' in html
        assert "Sign out" in html


class TeamSwitchTests:
    def test_a_user_in_two_teams_can_switch(self, client, member, other_team):
        make_membership(member, other_team, "reviewer")
        client.force_login(member)
        page = client.get(reverse("home")).content.decode()
        assert 'id="team-switch"' in page
        response = client.post(reverse("accounts:team_switch"), {"team": other_team.pk, "next": "/"})
        assert response.status_code == 302
        assert client.session[SESSION_TEAM_KEY] == other_team.pk
        assert other_team.name in client.get(reverse("home")).content.decode()

    def test_it_refuses_a_team_the_user_is_not_in(self, client, member):
        stranger_team = make_team("Stranger", "stranger")
        client.force_login(member)
        client.post(reverse("accounts:team_switch"), {"team": stranger_team.pk})
        assert client.session.get(SESSION_TEAM_KEY) != stranger_team.pk

    def test_it_ignores_an_offsite_next_url(self, client, member, other_team):
        make_membership(member, other_team)
        client.force_login(member)
        response = client.post(
            reverse("accounts:team_switch"), {"team": other_team.pk, "next": "https://evil.example/"}
        )
        assert response["Location"] == "/"


class LoadDemoTests:
    def test_it_makes_two_teams_and_the_four_demo_users(self, demo_world):
        from apps.accounts.models import Membership, Team

        # A second load adds no team, user or membership: tests/teams/test_demo_world.py.
        assert Team.objects.count() == 2
        roles = dict(Membership.objects.values_list("user__username", "role"))
        assert {k: roles[k] for k in ("alice", "bob", "carol", "dave")} == {
            "alice": "owner", "bob": "reviewer", "carol": "member", "dave": "reviewer"
        }

    def test_user_without_team_sees_guidance(self, client):
        client.force_login(make_user("loner"))
        assert b"not in a team yet" in client.get(reverse("home")).content
