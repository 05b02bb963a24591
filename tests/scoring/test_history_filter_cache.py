"""The history's filter form without a type-ahead value is kept under an exact key naming all it
shows (the query, the viewer's teams' names: apps/scoring/views.history): a write of the teams
leaves it as it is, a renamed team shows in it at the next view, and a type-ahead value is still
looked up at each change of the teams."""

from __future__ import annotations

import pytest
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from tests.factories import make_membership, make_profile

pytestmark = pytest.mark.django_db


def _view(client: Client, url: str) -> tuple[str, set[str]]:
    drawn: set[str] = set()

    def seen(sender, template, **kwargs):
        drawn.add(template.name)

    template_rendered.connect(seen, dispatch_uid="history-filters")
    try:
        html = client.get(url).content.decode()
    finally:
        template_rendered.disconnect(dispatch_uid="history-filters")
    return html.split('class="filters card history-filters"')[1].split("</form>")[0], drawn


def test_a_write_leaves_the_form_and_a_renamed_team_shows_in_it(team, other_team, owner):
    make_membership(owner, other_team, "owner")
    client = Client()
    client.force_login(owner)
    url = reverse("scoring:history")
    form, drawn = _view(client, url)
    assert "components/field.html" in drawn and "Team Two" in form
    make_profile(team)  # a write of the team: the results are drawn again, not the form
    again, drawn = _view(client, url)
    assert again == form and "components/field.html" not in drawn
    other_team.name = "Team Renamed"
    other_team.save()
    renamed, drawn = _view(client, url)
    assert "Team Renamed" in renamed and "Team Two" not in renamed
    assert "components/field.html" in drawn


def test_a_type_ahead_value_is_looked_up_after_a_write(team, owner):
    client = Client()
    client.force_login(owner)
    url = reverse("scoring:history") + "?task=Nightly+embeddings"
    form, _ = _view(client, url)
    assert "No task of your teams is called or contains" in form
    make_profile(team, name="Nightly embeddings")
    form, _ = _view(client, url)
    assert "No task of your teams is called or contains" not in form
