from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory

from apps.accounts.access import get_scoped_or_404, require_role, scoped
from apps.accounts.middleware import CurrentTeamMiddleware
from apps.catalog.models import Site
from tests.factories import make_membership, make_site, make_team, make_user

pytestmark = pytest.mark.django_db


def request_for(user):
    request = RequestFactory().get("/")
    request.user = user
    request.session = {}
    CurrentTeamMiddleware(lambda r: None)(request)
    return request


class ScopingTests:
    def test_a_member_of_team_2_gets_404_for_a_team_1_object(self):
        team1, team2 = make_team("One", "t1"), make_team("Two", "t2")
        site = make_site(team1, "bj-a")
        carol = make_membership(make_user("carol"), team2, "member").user
        with pytest.raises(Http404):
            get_scoped_or_404(Site, carol, pk=site.pk)
        assert list(scoped(Site, carol)) == []

    def test_a_member_of_team_1_gets_the_object(self):
        team1 = make_team("One", "t1")
        site = make_site(team1, "bj-a")
        alice = make_membership(make_user("alice"), team1, "member").user
        assert get_scoped_or_404(Site, alice, pk=site.pk) == site

    def test_anonymous_users_see_nothing(self):
        from django.contrib.auth.models import AnonymousUser

        make_site(make_team(), "x")
        assert list(scoped(Site, AnonymousUser())) == []

    def test_a_malformed_id_is_a_404_not_a_500(self):
        alice = make_membership(make_user("alice"), make_team(), "member").user
        with pytest.raises(Http404):
            get_scoped_or_404(Site, alice, pk="not-a-number")

    def test_require_role_refuses_a_member_where_an_owner_is_needed(self):
        from django.core.exceptions import PermissionDenied

        team = make_team()
        member = make_membership(make_user(), team, "member").user
        owner = make_membership(make_user(), team, "owner").user
        with pytest.raises(PermissionDenied):
            require_role(request_for(member), team, "owner")
        assert require_role(request_for(owner), team, "owner").role == "owner"
        # Owners pass any role check: they can do what reviewers and members do.
        assert require_role(request_for(owner), team, "reviewer").role == "owner"

    def test_require_role_answers_404_for_another_team(self):
        team, other = make_team(), make_team()
        outsider = make_membership(make_user(), other, "owner").user
        with pytest.raises(Http404):
            require_role(request_for(outsider), team)
