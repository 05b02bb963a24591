"""A page's cache reads in one round trip: a GET first reads every key the same page read for the
same viewer the last time this process answered it (pagecache.reads_ahead, PageCacheMiddleware)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.pagecache import bump_team_generation, cached_fragment, reads_ahead
from tests.actuals.helpers import approved_review
from tests.factories import make_review

pytestmark = pytest.mark.django_db


def _counting_reads(monkeypatch) -> list[str]:
    from django.core.cache import cache

    reads = []
    for name in ("get", "get_many"):
        method = getattr(cache, name)
        monkeypatch.setattr(
            cache, name, lambda *a, _m=method, _n=name, **k: reads.append(_n) or _m(*a, **k)
        )
    return reads


def _renders():
    calls = []

    def render():
        calls.append(1)
        return f"<p>{len(calls)}</p>"

    return render


class ReadAheadTests:
    def test_a_list_seen_before_is_one_read_of_the_cache(self, client, team, owner, monkeypatch):
        """Its results and the navigation's counts: two reads the first time, one after."""
        make_review(team, owner, title="First plan")
        client.force_login(owner)
        url = reverse("reviews:list")
        client.get(url)
        reads = _counting_reads(monkeypatch)
        assert "First plan" in client.get(url).content.decode()
        assert reads == ["get_many"]

    def test_the_approved_page_seen_before_is_one_read_of_the_cache(
        self, client, team, owner, reviewer, monkeypatch
    ):
        """The signed parts, the plan against actual and the navigation's counts."""
        signed = approved_review(team, owner, reviewer)
        client.force_login(reviewer)
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        client.get(url)  # the first view rendered the parts; this one reads them
        reads = _counting_reads(monkeypatch)
        page = client.get(url).content.decode()
        assert "Approved and frozen." in page and "Clone as a new draft" in page
        assert reads == ["get_many"]

    def test_what_is_read_ahead_is_current(self, client, team, owner):
        """Read ahead at the start of the request, not kept from the last: a new review shows."""
        make_review(team, owner, title="First plan")
        client.force_login(owner)
        url = reverse("reviews:list")
        client.get(url)
        make_review(team, owner, title="Second plan")
        assert "Second plan" in client.get(url).content.decode()

    def test_a_change_during_the_request_drops_what_was_read_ahead(self, team):
        """A GET that changes the team's data (one that computes a snapshot) draws the fragments
        after it again, not from the generations read before the change."""
        render, page = _renders(), ("/t", None, "en", None)
        for _ in range(2):  # drawn, then remembered as this page's reads
            with reads_ahead(page):
                first = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        with reads_ahead(page):
            bump_team_generation(team.pk)
            after = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        assert (first, after) == ("<p>1</p>", "<p>2</p>")

    def test_a_post_reads_nothing_ahead(self, client, team, owner, monkeypatch):
        """A write changes what the page reads after it: no read before the view's own."""
        from apps.accounts.pagecache import _usual_page

        client.force_login(owner)
        seen = []
        monkeypatch.setattr(
            "apps.accounts.pagecache._usual_page",
            lambda request: seen.append(page := _usual_page(request)) or page,
        )
        client.post(reverse("accounts:team_switch"), {"team": team.pk, "next": "/"})
        client.get(reverse("reviews:list"))
        assert seen[0] is None and seen[1][0] == reverse("reviews:list")

    def test_a_cache_gone_at_the_start_reads_again_each_key(self, team, monkeypatch):
        """An outage at the read ahead: each read tries for itself (and draws when it fails)."""
        from django.core.cache import cache

        render, page = _renders(), ("/gone", None, "en", None)
        with reads_ahead(page):
            cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        get_many = cache.get_many
        calls = []

        def flaky(keys, *args, **kwargs):
            calls.append(keys)
            if len(calls) == 1:
                raise ConnectionError("cache down")
            return get_many(keys, *args, **kwargs)

        monkeypatch.setattr(cache, "get_many", flaky)
        with reads_ahead(page):
            html = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        assert html == "<p>1</p>" and len(calls) == 2

    def test_a_fragment_drawn_twice_after_the_cache_was_emptied_is_drawn_once(self, team):
        """Its first drawing sets the generations the read-ahead found missing: the second
        reads them as set and takes the drawing not yet written (writes_at_end)."""
        from django.core.cache import cache

        from apps.accounts.pagecache import writes_at_end

        render, page = _renders(), ("/twice", None, "en", None)
        with reads_ahead(page), writes_at_end():
            cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        cache.clear()
        with reads_ahead(page), writes_at_end():
            first = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
            again = cached_fragment("t", team_ids=[team.pk], parts=(), render=render)
        assert (first, again) == ("<p>2</p>", "<p>2</p>")
