"""The type-ahead filters of the review list and the history (apps/web/typeahead.py): the form
no longer lists every task and person (what a view after a change paid for); a box takes an id
(links) or a name, and its options come from the list's options view, per team, at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_membership, make_profile, make_review, make_user

pytestmark = pytest.mark.django_db


def _form(client, url_name: str, **params) -> str:
    html = client.get(reverse(url_name), params).content.decode()
    start = html.index('<form method="get"')
    return html[start : html.index("</form>", start)]


def _options(client, url_name: str, **params) -> str:
    response = client.get(reverse(url_name), params)
    assert response.status_code == 200
    return response.content.decode()


def _titles(client, **params) -> list[str]:
    response = client.get(reverse("reviews:list"), params)
    return sorted(r.title for r in response.context["reviews"])


class ReviewListTypeAheadTests:
    def test_the_form_lists_no_task_or_author(self, client, team, owner):
        make_review(team, owner, task=make_profile(team, name="First task"))
        client.force_login(owner)
        form = _form(client, "reviews:list")
        assert "First task" not in form and ">owner<" not in form
        assert 'list="id_task-options"' in form and '<datalist id="id_task-options">' in form
        assert 'hx-get="/reviews/filter-options/"' in form

    def test_a_new_task_and_author_are_offered_at_once(self, client, team, owner):
        make_review(team, owner, task=make_profile(team, name="First task"))
        client.force_login(owner)
        first = _options(client, "reviews:filter_options", task="task")
        assert first == '<option value="First task"></option>'
        assert "newcomer" not in _options(client, "reviews:filter_options", author="")
        newcomer = make_membership(make_user("newcomer"), team).user
        make_review(team, newcomer, task=make_profile(team, name="Second task"))
        assert "Second task" in _options(client, "reviews:filter_options", task="task")
        assert "newcomer" in _options(client, "reviews:filter_options", author="new")

    def test_an_id_shows_its_name_and_a_name_filters(self, client, team, owner):
        task = make_profile(team, name="First task")
        make_review(team, owner, task=task, title="One")
        make_review(team, owner, task=make_profile(team, name="First task, again"), title="Two")
        make_review(team, owner, task=make_profile(team, name="Other"), title="Three")
        client.force_login(owner)
        chosen = _form(client, "reviews:list", state="draft", task=task.pk)
        assert 'value="draft" selected' in chosen and 'value="First task"' in chosen
        assert _titles(client, task=task.pk) == ["One"]
        # Without JavaScript the box takes a name: the exact one (case aside), else a part.
        assert _titles(client, task="first TASK") == ["One"]
        assert _titles(client, task="first") == ["One", "Two"]
        assert _titles(client, author="OWN") == ["One", "Three", "Two"]

    def test_a_name_nothing_has_is_said_and_does_not_filter(self, client, team, owner):
        make_review(team, owner, task=make_profile(team, name="First task"), title="One")
        client.force_login(owner)
        response = client.get(reverse("reviews:list"), {"task": "nothing like it"})
        assert [r.title for r in response.context["reviews"]] == ["One"]
        assert "No task of this team is called or contains “nothing like it”." in (
            response.content.decode()
        )

    def test_a_team_never_sees_anothers_tasks(
        self, client, team, other_team, owner, outsider
    ):
        make_review(team, owner, task=make_profile(team, name="Ours"))
        theirs = make_profile(other_team, name="Theirs")
        make_review(other_team, outsider, task=theirs)
        client.force_login(owner)
        assert _options(client, "reviews:filter_options", task="") == (
            '<option value="Ours"></option>'
        )
        assert "outsider" not in _options(client, "reviews:filter_options", author="")
        # Their task's id or name filters nothing here.
        assert "Theirs" not in _form(client, "reviews:list", task=theirs.pk)
        assert len(_titles(client, task="Theirs")) == 1

    def test_the_options_view_says_which_box_it_needs(self, client, team, owner):
        client.force_login(owner)
        response = client.get(reverse("reviews:filter_options"))
        assert response.status_code == 422
        assert "task or author" in response.content.decode()


class HistoryTypeAheadTests:
    def test_a_new_task_is_offered_at_once(self, client, team, owner):
        make_profile(team, name="First task")
        client.force_login(owner)
        assert "First task" not in _form(client, "scoring:history")
        first = _options(client, "scoring:history_options", task="")
        assert "First task" in first and "Second task" not in first
        make_profile(team, name="Second task")
        assert "Second task" in _options(client, "scoring:history_options", task="second")

    def test_tasks_are_labelled_with_their_team_when_there_are_several(
        self, client, team, other_team, owner
    ):
        make_membership(owner, other_team)
        make_profile(team, name="Nightly")
        client.force_login(owner)
        assert _options(client, "scoring:history_options", task="nigh") == (
            '<option value="Nightly">Nightly · Team One</option>'
        )

    def test_an_id_shows_its_name(self, client, team, owner):
        task = make_profile(team, name="First task")
        client.force_login(owner)
        assert 'value="First task"' in _form(client, "scoring:history", task=task.pk)

    def test_a_renamed_team_shows_at_once(self, client, team, owner):
        client.force_login(owner)
        assert "Team One" in _form(client, "scoring:history")
        team.name = "Team Renamed"
        team.save()
        assert "Team Renamed" in _form(client, "scoring:history")
