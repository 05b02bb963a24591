"""apps/web/htmx.shared_fragment: a fragment shared by a team's members, never one person's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from apps.web.htmx import shared_fragment

pytestmark = pytest.mark.django_db


def _request(**params):
    request = RequestFactory().get("/", params)
    request.user = AnonymousUser()
    return request


class SharedFragmentTests:
    def test_it_renders_once_per_query_string_and_generation(self, team):
        calls = []

        def context():
            calls.append(1)
            return {"is_owner": False, "row": {"key": f"k{len(calls)}", "spec": {"rule": ""}}}

        page, part = "teams/settings.html", "threshold_row"
        first = shared_fragment(_request(), page, part, context, team_ids=[team.pk])
        again = shared_fragment(_request(), page, part, context, team_ids=[team.pk])
        other = shared_fragment(_request(page="2"), page, part, context, team_ids=[team.pk])
        assert 'id="threshold-k1"' in first and again == first
        assert 'id="threshold-k2"' in other and len(calls) == 2

    def test_it_refuses_to_share_a_csrf_token(self, team):
        def context():
            return {"is_owner": True, "row": {"key": "k", "spec": {"rule": ""}}}

        with pytest.raises(ValueError, match="CSRF token"):
            shared_fragment(
                _request(), "teams/settings.html", "threshold_row", context, team_ids=[team.pk]
            )
