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
        self, client, team, owner, member, drawn, seen_after
    ):
        task = f.make_profile(team, name="Nightly eval")
        review = f.make_review(team, owner, task=task, title="First")
        url = reverse("reviews:list")
        page = seen_after(owner, url, review, title="First, edited")
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


def _signoff(review, reviewer):
    from apps.reviews.models import SignOff
    from apps.scoring.services import snapshot_compute

    snapshot = snapshot_compute(review_id=review.pk)
    return SignOff.objects.create(
        review=review, reviewer=reviewer, decision="request_changes", comment="Compress it.",
        snapshot=snapshot, round=review.round,
    )


class TopicTests:
    """The filter forms are told changed by the generations of what they show (a task saved, a
    review or sign-off added or removed, a member renamed), not by reading every choice."""

    def test_review_filters_follow_a_renamed_author(self, team, owner, drawn, seen_after):
        f.make_review(team, owner, task=f.make_profile(team, name="Nightly eval"))
        filters = _filters(seen_after(owner, reverse("reviews:list"), owner, username="olga"))
        assert ">olga<" in filters and ">owner<" not in filters and "review-filters" in drawn

    def test_history_filters_offer_a_new_reviewer_and_survive_a_snapshot(
        self, client, team, owner, reviewer, drawn
    ):
        from apps.scoring.services import snapshot_compute

        review = f.make_review(team, owner, title="Plan")
        client.force_login(owner)
        url = reverse("scoring:history")
        assert ">reviewer<" not in _filters(client.get(url).content.decode())
        snapshot_compute(review_id=review.pk)  # a new snapshot: the rows change, not the filters
        drawn.clear()
        assert "Plan" in client.get(url).content.decode()
        assert "history-results" in drawn and "history-filters" not in drawn
        _signoff(review, reviewer)
        assert ">reviewer<" in _filters(client.get(url).content.decode())


class CheckedFilterTests:
    """A submitted filter is checked against the submitted choice alone: another team's task or
    person is not a valid choice, says so on its field and does not filter the list."""

    def test_history_refuses_another_teams_task(self, client, team, other_team, owner, outsider):
        from apps.scoring.services import snapshot_compute

        snapshot_compute(review_id=f.make_review(team, owner, title="Ours").pk)
        theirs = f.make_profile(other_team, name="Theirs")
        client.force_login(owner)
        page = client.get(reverse("scoring:history"), {"task": theirs.pk}).content.decode()
        assert "Select a valid choice" in _filters(page) and "Ours" in page

    def test_history_filters_by_a_task_of_ours(self, client, team, owner):
        from apps.scoring.services import snapshot_compute

        kept, other = f.make_profile(team, name="Kept"), f.make_profile(team, name="Other")
        snapshot_compute(review_id=f.make_review(team, owner, task=kept, title="Kept plan").pk)
        snapshot_compute(review_id=f.make_review(team, owner, task=other, title="Other plan").pk)
        client.force_login(owner)
        page = client.get(reverse("scoring:history"), {"task": kept.pk}).content.decode()
        results = page[page.index('id="history-results"') :]
        assert "Kept plan" in results and "Other plan" not in results
        assert "Select a valid choice" not in page

    def test_review_list_refuses_an_outsider_as_author(self, client, team, owner, outsider):
        f.make_review(team, owner, title="Ours")
        client.force_login(owner)
        page = client.get(reverse("reviews:list"), {"author": outsider.pk}).content.decode()
        assert "Select a valid choice" in _filters(page) and "Ours" in page
        bad = client.get(reverse("reviews:list"), {"task": "１２"}).content.decode()
        assert "Select a valid choice" in _filters(bad) and "Ours" in bad

    def test_no_submitted_id_reads_nothing(self, team, owner):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from apps.accounts.models import team_ids_for
        from apps.reviews.selectors import review_filter_authors, review_filter_tasks
        from apps.scoring.history_list import history_reviewers, history_tasks

        task = f.make_profile(team, name="Nightly eval")
        team_ids_for(owner)  # read once per request (the team scope), not by these
        with CaptureQueriesContext(connection) as ctx:
            empty = [
                history_tasks(owner, []),
                history_reviewers(owner, []),
                review_filter_tasks(team, []),
                review_filter_authors(team, []),
            ]
        assert empty == [[], [], [], []] and len(ctx.captured_queries) == 0
        assert history_tasks(owner, [task.pk]) == [(task.pk, "Nightly eval", team.name)]
        assert review_filter_tasks(team, [task.pk]) == [(task.pk, "Nightly eval")]
