"""A list's filter form is drawn again only when its choices change (pagecache `inputs`): a
change elsewhere in the team's data takes it from the cache, and a new or renamed choice shows at
once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.pagecache import bump_team_generation, cached_fragment
from tests import factories as f

pytestmark = pytest.mark.django_db


def _filters(html: str) -> str:
    start = html.index('class="filters')
    return html[start : html.index("</form>", start)]


class InputsTests:
    def test_same_inputs_after_a_change_are_not_drawn_again(self, team):
        calls, inputs = [], ["a"]

        def render():
            calls.append(1)
            return f"<p>{len(calls)}</p>"

        def draw():
            return cached_fragment(
                "t", team_ids=[team.pk], parts=(), render=render, inputs=lambda: list(inputs)
            )

        assert draw() == "<p>1</p>"
        bump_team_generation(team.pk)
        assert draw() == "<p>1</p>" and len(calls) == 1  # same inputs: taken from the cache
        inputs.append("b")
        bump_team_generation(team.pk)
        assert draw() == "<p>2</p>"  # new inputs: drawn


class ListFiltersTests:
    def test_review_filters_survive_a_review_edit_and_follow_a_new_author(
        self, client, team, owner, member, drawn
    ):
        task = f.make_profile(team, name="Nightly eval")
        review = f.make_review(team, owner, task=task, title="First")
        client.force_login(owner)
        url = reverse("reviews:list")
        client.get(url)
        review.title = "First, edited"
        review.save()
        drawn.clear()
        page = client.get(url).content.decode()
        assert "First, edited" in page
        # the rows were drawn again, the filters came from the cache
        assert "review-results" in drawn and "review-filters" not in drawn
        f.make_review(team, member, task=task)
        filters = _filters(client.get(url).content.decode())
        assert ">member<" in filters and ">owner<" in filters

    def test_profile_filters_follow_a_renamed_site(self, client, team, member, drawn):
        site = f.make_site(team, "bj-a", name="Beijing A")
        f.make_profile(team, site, name="Nightly eval")
        client.force_login(member)
        url = reverse("profiles:list")
        assert "bj-a · Beijing A" in _filters(client.get(url).content.decode())
        f.make_profile(team, site, name="Weekly training")
        drawn.clear()
        assert "Weekly training" in client.get(url).content.decode()
        assert "profile-results" in drawn and "profile-filters" not in drawn
        site.name = "Beijing North"
        site.save()
        filters = _filters(client.get(url).content.decode())
        assert "bj-a · Beijing North" in filters and "Beijing A" not in filters

    def test_history_filters_follow_a_renamed_team(self, client, team, other_team, owner):
        f.make_membership(owner, other_team, "member")
        client.force_login(owner)
        url = reverse("scoring:history")
        filters = _filters(client.get(url).content.decode())
        assert "Team One" in filters and "Team Two" in filters
        other_team.name = "Team Renamed"
        other_team.save()
        filters = _filters(client.get(url).content.decode())
        assert "Team Renamed" in filters and "Team Two" not in filters
