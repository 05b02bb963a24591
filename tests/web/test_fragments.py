"""The cached fragments of a page (apps/web/fragments.py): a page shows its team's data as it is
now, the markup of the release running, and nobody else's page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from apps.profiles.models import TaskProfile
from apps.web.htmx import render_shared
from tests.factories import make_membership, make_profile, make_review, make_user

pytestmark = pytest.mark.django_db
MARK = "<!-- drawn by the new release -->"


def _get(client, url, **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response.content.decode()


class CurrentDataTests:
    def test_a_saved_and_a_bulk_updated_profile_show_at_the_next_view(self, client, team, member):
        profile = make_profile(team, name="Before")
        client.force_login(member)
        assert "Before" in _get(client, reverse("profiles:list"))
        profile.name = "Saved"
        profile.save()
        assert "Saved" in _get(client, reverse("profiles:list"))
        TaskProfile.objects.filter(pk=profile.pk).update(name="Updated in bulk")
        assert "Updated in bulk" in _get(client, reverse("profiles:list"))

    def test_each_query_and_language_is_its_own_page(self, client, team, member):
        make_profile(team, name="Alpha")
        make_profile(team, name="Beta")
        client.force_login(member)
        url = reverse("profiles:list")
        assert "Beta" in _get(client, url)
        only_alpha = _get(client, url + "?q=Alpha")
        assert "Alpha" in only_alpha and "Beta" not in only_alpha
        chinese = _get(client, url, accept_language="zh-hans")
        assert "Parameters" in _get(client, url) and "Parameters" not in chinese


class NobodyElsesPageTests:
    def test_a_member_of_two_teams_who_switches_never_sees_the_first_teams_list(
        self, client, team, other_team
    ):
        both = make_user("both")
        make_membership(both, team)
        make_membership(both, other_team, role="owner")
        make_review(team, both, title="Ours in one")
        make_review(other_team, both, title="Theirs in two")
        make_profile(team, name="Task of one")
        make_profile(other_team, name="Task of two")
        client.force_login(both)
        pages = [reverse("reviews:list"), reverse("profiles:list")]
        client.post(reverse("accounts:team_switch"), {"team": team.pk})
        first = "".join(_get(client, url) for url in pages)
        assert "Ours in one" in first and "Task of one" in first
        client.post(reverse("accounts:team_switch"), {"team": other_team.pk})
        second = "".join(_get(client, url) for url in pages)
        assert "Theirs in two" in second and "Task of two" in second
        assert "Ours in one" not in second and "Task of one" not in second

    def test_an_etag_is_the_viewers_own_and_moves_with_the_team(self, client, team, member, owner):
        client.force_login(member)
        url = reverse("reviews:list")
        _get(client, url)  # the session's first page sets its CSRF cookie, which the ETag holds
        etag = client.get(url)["ETag"]
        assert client.get(url, headers={"if-none-match": etag}).status_code == 304
        client.force_login(owner)
        assert client.get(url, headers={"if-none-match": etag}).status_code == 200
        client.force_login(member)
        _get(client, url)
        etag = client.get(url)["ETag"]
        make_review(team, owner, title="Written since")
        fresh = client.get(url, headers={"if-none-match": etag})
        assert fresh.status_code == 200 and "Written since" in fresh.content.decode()

    def test_a_fragment_holding_a_csrf_token_is_refused(self, rf, team, member):
        request = rf.get("/")
        request.user = member
        context = {"review": make_review(team, member), "can_clone": True}
        with pytest.raises(ValueError, match="CSRF"):
            render_shared(request, "reviews/detail.html", "review-actions", context)


class ReleaseTests:
    def test_a_changed_template_shows_once_a_new_release_is_set(
        self, client, team, member, settings, tmp_path
    ):
        """As a deploy does: the template file changes, the new process has a new release id."""
        real = Path(django_settings.BASE_DIR) / "templates" / "profiles" / "list.html"
        copy = tmp_path / "profiles" / "list.html"
        copy.parent.mkdir()
        shutil.copy(real, copy)
        templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
        settings.TEMPLATES = templates
        settings.RELEASE_ID = "release-1"
        make_profile(team, name="Shown")
        client.force_login(member)
        assert MARK not in _get(client, reverse("profiles:list"))
        text = copy.read_text()
        copy.write_text(text.replace('<div id="profile-results">', f'<div id="profile-results">{MARK}'))
        settings.TEMPLATES = [dict(templates[0])]  # a new process: templates read again
        assert MARK not in _get(client, reverse("profiles:list"))  # same release: as cached
        settings.RELEASE_ID = "release-2"
        assert MARK in _get(client, reverse("profiles:list"))
