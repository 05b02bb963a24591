"""The filter forms of the review list and the history are cached with their rows
(apps/web/fragments.py): a new task or author is offered on the next request, per team."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_membership, make_profile, make_review, make_user

pytestmark = pytest.mark.django_db


def _form(client, url_name: str, **params) -> str:
    html = client.get(reverse(url_name), params).content.decode()
    start = html.index('<form method="get"')
    return html[start : html.index("</form>", start)]


class ReviewListFiltersCacheTests:
    def test_a_new_task_and_author_are_offered_at_once(self, client, team, owner):
        make_review(team, owner, task=make_profile(team, name="First task"))
        client.force_login(owner)
        first = _form(client, "reviews:list")
        assert "First task" in first and "Second task" not in first and "newcomer" not in first
        assert _form(client, "reviews:list") == first  # served again from the cache
        newcomer = make_membership(make_user("newcomer"), team).user
        make_review(team, newcomer, task=make_profile(team, name="Second task"))
        fresh = _form(client, "reviews:list")
        assert "Second task" in fresh and "newcomer" in fresh

    def test_the_form_keeps_each_query_strings_choice(self, client, team, owner):
        task = make_profile(team, name="First task")
        make_review(team, owner, task=task)
        client.force_login(owner)
        chosen = _form(client, "reviews:list", state="draft", task=task.pk)
        assert 'value="draft" selected' in chosen and f'value="{task.pk}" selected' in chosen
        assert "selected" not in _form(client, "reviews:list").replace('value="" selected', "")

    def test_a_team_never_sees_anothers_tasks(self, client, team, other_team, owner, outsider):
        make_review(team, owner, task=make_profile(team, name="Ours"))
        make_review(other_team, outsider, task=make_profile(other_team, name="Theirs"))
        client.force_login(owner)
        ours = _form(client, "reviews:list")
        client.force_login(outsider)
        theirs = _form(client, "reviews:list")
        assert "Ours" in ours and "Theirs" not in ours
        assert "Theirs" in theirs and "Ours" not in theirs


class HistoryFiltersCacheTests:
    def test_a_new_task_is_offered_at_once(self, client, team, owner):
        make_profile(team, name="First task")
        client.force_login(owner)
        first = _form(client, "scoring:history")
        assert "First task" in first and "Second task" not in first
        assert _form(client, "scoring:history") == first
        make_profile(team, name="Second task")
        assert "Second task" in _form(client, "scoring:history")

    def test_a_renamed_team_shows_at_once(self, client, team, owner):
        client.force_login(owner)
        assert "Team One" in _form(client, "scoring:history")
        team.name = "Team Renamed"
        team.save()
        assert "Team Renamed" in _form(client, "scoring:history")
