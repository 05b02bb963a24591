"""The profile list's filters and rows are cached per team (apps/web/fragments.py) and a
change of the team's data shows on the next request."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.profiles import services
from tests.factories import make_membership, make_profile, make_site, make_user

pytestmark = pytest.mark.django_db


def _get(client, **params):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("profiles:list"), params)
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


class ProfileListCacheTests:
    def test_the_rows_come_from_the_cache_until_a_profile_changes(self, client, team, member):
        site = make_site(team, "bj-a")
        profile = make_profile(team, site, name="Nightly eval")
        client.force_login(member)
        page, misses = _get(client)
        again, hits = _get(client)
        main = page.split('<main id="main"')[1]
        assert "Nightly eval" in main and again.split('<main id="main"')[1] == main
        assert hits < misses
        make_profile(team, site, name="Weekly training")
        added, _ = _get(client)
        assert "Weekly training" in added and "Nightly eval" in added
        services.profile_update(profile=profile, name="Nightly eval v2")
        edited, _ = _get(client)
        assert "Nightly eval v2" in edited
        services.profile_delete(profile=profile)
        deleted, _ = _get(client)
        assert "Nightly eval v2" not in deleted and "Weekly training" in deleted

    def test_a_new_site_shows_in_the_filter_at_once(self, client, team, member):
        make_profile(team, make_site(team, "bj-a"))
        client.force_login(member)
        assert "gz-b" not in _get(client)[0]
        make_site(team, "gz-b")
        assert "gz-b" in _get(client)[0]

    def test_each_filter_and_page_is_its_own_entry(self, client, team, member):
        site = make_site(team, "bj-a")
        make_profile(team, site, name="Llama inference", workload="inference")
        make_profile(team, site, name="Llama training", workload="training")
        client.force_login(member)
        assert "Llama inference" in _get(client)[0]
        training, _ = _get(client, workload="training")
        assert "Llama training" in training and "Llama inference" not in training
        assert 'value="training" selected' in training  # the form shows the chosen filter
        assert "Llama inference" in _get(client)[0]

    def test_one_team_never_sees_anothers_cached_rows(self, client, team, other_team, member):
        make_profile(team, make_site(team, "bj-a"), name="Ours")
        make_profile(other_team, make_site(other_team, "sh-a"), name="Theirs")
        stranger = make_membership(make_user("stranger"), other_team).user
        client.force_login(member)
        ours, _ = _get(client)
        client.force_login(stranger)
        theirs, _ = _get(client)
        assert "Ours" in ours and "Theirs" not in ours and "bj-a" in ours
        assert "Theirs" in theirs and "Ours" not in theirs and "bj-a" not in theirs

    def test_the_cached_rows_follow_the_language(self, client, team, member):
        make_profile(team, make_site(team, "bj-a"), cadence="recurring")
        client.force_login(member)
        english, _ = _get(client)
        client.cookies["django_language"] = "zh-hans"
        chinese, _ = _get(client)
        assert "Recurring" in english and "All workloads" in english
        assert "Recurring" not in chinese and "All workloads" not in chinese

    def test_the_htmx_fragment_is_the_cached_rows(self, client, team, member):
        make_profile(team, make_site(team, "bj-a"), name="Nightly eval")
        client.force_login(member)
        page, _ = _get(client)
        response = client.get(reverse("profiles:list"), HTTP_HX_REQUEST="true")
        fragment = response.content.decode().strip()
        assert fragment.startswith('<div id="profile-results">') and fragment in page
