"""Cached list fragments: served from the cache until the team's data changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.accounts.pagecache import (
    bump_team_generation,
    cached_fragment,
    team_generations,
    topic_generations,
)
from tests.factories import make_profile, make_review

pytestmark = pytest.mark.django_db


def _get(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


class GenerationTests:
    def test_a_save_bumps_the_team_generation(self, team, owner):
        before = team_generations([team.pk])[team.pk]
        make_review(team, owner)
        assert team_generations([team.pk])[team.pk] > before

    def test_a_save_bumps_again_when_it_commits(
        self, team, owner, django_capture_on_commit_callbacks
    ):
        """A request that read the old rows while the write was not yet committed cached them
        under the first new generation: the bump on commit leaves that entry behind."""
        before = team_generations([team.pk])[team.pk]
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            make_review(team, owner)
        during = team_generations([team.pk])[team.pk]
        assert during > before and callbacks
        for callback in callbacks:
            callback()
        assert team_generations([team.pk])[team.pk] > during

    def test_another_teams_save_does_not(self, team, other_team, outsider):
        before = team_generations([team.pk])[team.pk]
        make_review(other_team, outsider)
        assert team_generations([team.pk])[team.pk] == before

    def test_a_row_bumps_its_models_topics_in_its_team(self, team, other_team, owner):
        """A saved row bumps its model's topic; one added or removed also "<model>:rows"."""
        topics = ("reviews.Review", "reviews.Review:rows", "profiles.TaskProfile")

        def gens():
            return topic_generations([team.pk], *topics), topic_generations([other_team.pk], *topics)

        (edit, added, tasks), theirs = gens()
        review = make_review(team, owner, task=make_profile(team))
        (edit2, added2, tasks2), theirs2 = gens()
        assert edit2 > edit and added2 > added and tasks2 > tasks and theirs2 == theirs
        review.title = "Edited"
        review.save()
        (edit3, added3, tasks3), _ = gens()
        assert edit3 > edit2 and added3 == added2 and tasks3 == tasks2  # edited, none added
        review.delete()
        (edit4, added4, _tasks), _ = gens()
        assert edit4 > edit3 and added4 > added3  # removed

    def test_a_renamed_user_bumps_their_teams_not_a_login(self, team, other_team, owner):
        from django.contrib.auth.models import update_last_login

        def gens():
            return (
                team_generations([team.pk])[team.pk],
                topic_generations([team.pk, other_team.pk], "auth.User"),
            )

        before, (users, others) = gens()
        update_last_login(None, owner)
        assert gens() == (before, (users, others))
        owner.first_name = "Olga"
        owner.save()
        after, (users2, others2) = gens()
        assert after > before and users2 > users and others2 == others

    def test_a_fragment_is_rendered_once_per_generation(self, team):
        calls = []

        def render():
            calls.append(1)
            return f"<p>{len(calls)}</p>"

        first = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        again = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        other = cached_fragment("t", team_ids=[team.pk], parts=("page", "2"), render=render)
        bump_team_generation(team.pk)
        fresh = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        assert (first, again, other, fresh) == ("<p>1</p>", "<p>1</p>", "<p>2</p>", "<p>3</p>")

    def test_a_hit_is_one_read_of_the_cache(self, team, other_team, monkeypatch):
        """The generations, the other versions and the entry come back in one round trip."""
        from django.core.cache import cache

        def render():
            return "<p>x</p>"

        args = {"team_ids": [team.pk, other_team.pk], "parts": (), "render": render}
        cached_fragment("t", versions=("v:1",), **args)
        reads = []
        for name in ("get", "get_many", "add", "set", "incr"):
            method = getattr(cache, name)
            monkeypatch.setattr(
                cache, name, lambda *a, _m=method, _n=name, **k: reads.append(_n) or _m(*a, **k)
            )
        assert cached_fragment("t", versions=("v:1",), **args) == "<p>x</p>"
        assert reads == ["get_many"]

    def test_a_changed_version_key_renders_again(self, team):
        from django.core.cache import cache

        calls = []

        def render():
            calls.append(1)
            return f"<p>{len(calls)}</p>"

        args = {"team_ids": [team.pk], "parts": (), "render": render, "versions": ("v:2",)}
        assert cached_fragment("t", **args) == cached_fragment("t", **args) == "<p>1</p>"
        cache.set("v:2", "another", None)
        assert cached_fragment("t", **args) == "<p>2</p>"
        cache.delete("v:2")  # lost: a value never used before, so rendered again
        assert cached_fragment("t", **args) == "<p>3</p>"

    def test_a_lost_generation_never_serves_an_older_entry(self, team):
        """Counting again from a fixed first value after the cache lost a team's generation
        could meet the stamp of a fragment rendered before, and serve it stale."""
        from django.core.cache import cache

        calls = []

        def render():
            calls.append(1)
            return f"<p>{len(calls)}</p>"

        first = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        bump_team_generation(team.pk)
        second = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        for _ in range(3):
            cache.delete(f"teamgen:{team.pk}")
            bump_team_generation(team.pk)  # a write after the loss
            cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        cache.delete(f"teamgen:{team.pk}")
        last = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        assert (first, second, last) == ("<p>1</p>", "<p>2</p>", "<p>6</p>")


class ReviewListCacheTests:
    def test_the_list_is_served_from_the_cache_until_a_review_changes(self, client, team, owner):
        make_review(team, owner, title="First plan")
        client.force_login(owner)
        url = reverse("reviews:list")
        page, misses = _get(client, url)
        again, hits = _get(client, url)
        rows = page.split('id="review-results"')[1]
        assert "First plan" in rows and again.split('id="review-results"')[1] == rows
        assert hits < misses
        make_review(team, owner, title="Second plan")
        fresh, _ = _get(client, url)
        assert "Second plan" in fresh and "First plan" in fresh

    def test_a_state_change_shows_at_once(self, client, team, owner):
        review = make_review(team, owner, title="Plan")
        client.force_login(owner)
        url = reverse("reviews:list")
        assert "badge--draft" in _get(client, url)[0]
        review.state = "submitted"
        review.save()
        assert "badge--submitted" in _get(client, url)[0]


class WritesAtEndTests:
    """A request's fragments and rows are written in one round trip when its view has answered
    (pagecache.writes_at_end, PageCacheMiddleware)."""

    def _counting(self, monkeypatch):
        from django.core.cache import cache

        writes = []
        set_many = cache.set_many
        monkeypatch.setattr(
            cache, "set_many", lambda entries, *a, **k: writes.append(set(entries)) or set_many(
                entries, *a, **k
            )
        )
        return writes

    def test_fragments_are_written_once_at_the_end(self, team, monkeypatch):
        from apps.accounts.pagecache import writes_at_end

        writes, calls = self._counting(monkeypatch), []

        def render():
            calls.append(1)
            return f"<p>{len(calls)}</p>"

        with writes_at_end():
            first = cached_fragment("a", team_ids=[team.pk], parts=(), render=render)
            again = cached_fragment("a", team_ids=[team.pk], parts=(), render=render)
            other = cached_fragment("b", team_ids=[team.pk], parts=(), render=render)
            assert writes == []  # nothing written yet
        assert (first, again, other) == ("<p>1</p>", "<p>1</p>", "<p>2</p>")  # "a" drawn once
        assert len(writes) == 1 and len(writes[0]) == 2
        assert cached_fragment("a", team_ids=[team.pk], parts=(), render=render) == "<p>1</p>"

    def test_a_list_page_after_a_change_writes_once(self, client, team, owner, monkeypatch):
        make_review(team, owner, title="First plan")
        client.force_login(owner)
        url = reverse("reviews:list")
        client.get(url)
        make_review(team, owner, title="Second plan")
        writes = self._counting(monkeypatch)
        page, _ = _get(client, url)
        assert "Second plan" in page
        # the results, the new row and the navigation counts: one write
        assert len(writes) == 1 and len(writes[0]) >= 3

    def test_a_cache_gone_at_the_end_loses_the_writes_only(self, team, monkeypatch):
        from django.core.cache import cache

        from apps.accounts.pagecache import writes_at_end

        def down(*args, **kwargs):
            raise ConnectionError("cache down")

        with writes_at_end():
            html = cached_fragment("t", team_ids=[team.pk], parts=(), render=lambda: "<p>x</p>")
            monkeypatch.setattr(cache, "set_many", down)
        assert html == "<p>x</p>"
