"""The navigation's counts under their own key (apps/teams/nav_counts.py): every write that can
change a count moves it, whatever path the write takes, and the next page shows the new count;
other writes of the team leave the counts cached.

What feeds the counts is read from their query's SQL (`fed_by`), not listed here: a model the
counts come to read is a model this test must write (it fails for one with no way written).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.accounts.generations import narrow_key, team_id_of
from apps.notifications.models import Notification
from apps.reviews.models import Review, SignOff
from apps.teams.nav_counts import NAV_PREFIX, fed_by, nav_counts_of
from tests.reviews.helpers import current_snapshot_id, submitted_review

pytestmark = pytest.mark.django_db

PAGE = "/profiles/"


def _shown(client: Client) -> tuple[int, int]:
    """The two counts as the page's navigation shows them (0 when no badge)."""
    html = client.get(PAGE).content.decode()
    approvals = re.search(r'href="/reviews/approvals/"[^>]*>(.*?)</a>', html)
    bell = re.search(r'id="notification-bell"(.*?)</a>', html, re.S)
    assert approvals and bell, "the navigation shows the approvals link and the bell"
    return tuple(
        int(badge.group(1)) if (badge := re.search(r'class="badge[^>]*>(\d+)', m.group(1))) else 0
        for m in (approvals, bell)
    )


def _fresh(user) -> tuple[int, int]:
    return nav_counts_of(user, list(user.memberships.all()))


class _World:
    """A reviewer who decides in the team (the viewer) and an owner who writes reviews."""

    def __init__(self, team, owner, reviewer):
        self.team, self.owner, self.viewer = team, owner, reviewer
        self.review = submitted_review(team, owner, title="Waiting")
        self.snapshot_id = current_snapshot_id(self.review)
        Notification.objects.all().delete()

    # Per model: a new row that counts for the viewer, and a change of a column the counts read
    # that makes a counted row count no more (or a row that did not count, count).
    def new(self, model):
        if model is Review:
            return Review(
                team=self.team, task=self.review.task, author=self.owner, title="Another",
                state="submitted", submitted_at=timezone.now(),
            )  # fmt: skip
        if model is SignOff:
            self.review.refresh_from_db()
            return SignOff(
                review=self.review, reviewer=self.viewer, decision="approve",
                snapshot_id=self.snapshot_id, round=self.review.round,
            )  # fmt: skip
        if model is Notification:
            return Notification(
                recipient=self.viewer, team=self.team, kind="review_submitted",
                event_key=f"e{Notification.objects.count()}-{timezone.now().timestamp()}",
            )  # fmt: skip
        return None

    def reset(self, model) -> None:
        """Before each write: no row of the viewer's the last one left that would collide."""
        if model is SignOff:
            SignOff.objects.filter(reviewer=self.viewer).delete()

    @staticmethod
    def flip(model, row) -> tuple[str, object]:
        if model is Review:
            return "state", "draft" if row.state == "submitted" else "submitted"
        if model is SignOff:
            return "round", row.round + 100  # a round the review is not in: no longer counted
        return "read_at", None if row.read_at else timezone.now()


def _paths(world: _World, model) -> dict:
    """Each way of writing a row of `model` so that a count changes."""
    manager = model._default_manager

    def saved():
        row = world.new(model)
        row.save()
        return row

    def flipped(write):
        def run():
            row = saved()
            world.seen = _shown(world.client)  # the page, cached with the row as written
            field, value = world.flip(model, row)
            setattr(row, field, value)
            write(row, field, value)

        return run

    def deleted(write):
        def run():
            row = saved()
            world.seen = _shown(world.client)
            write(row)

        return run

    return {
        "save (insert)": saved,
        "bulk_create": lambda: manager.bulk_create([world.new(model)]),
        "save": flipped(lambda row, field, value: row.save()),
        "save(update_fields)": flipped(lambda row, field, value: row.save(update_fields=[field])),
        "update": flipped(
            lambda row, field, value: manager.filter(pk=row.pk).update(**{field: value})
        ),
        "bulk_update": flipped(lambda row, field, value: manager.bulk_update([row], [field])),
        "delete": deleted(lambda row: row.delete()),
        "queryset delete": deleted(lambda row: manager.filter(pk=row.pk).delete()),
    }


@pytest.fixture
def world(team, owner, reviewer):
    world = _World(team, owner, reviewer)
    world.client = Client()
    world.client.force_login(reviewer)
    return world


class NavCountKeyTests:
    def test_what_feeds_the_counts_is_read_from_their_sql(self):
        found = {model._meta.label: columns for model, columns in fed_by().items()}
        assert {"state", "author_id", "team_id", "round"} <= found["reviews.Review"]
        assert {"reviewer_id", "round", "review_id"} <= found["reviews.SignOff"]
        assert {"read_at", "recipient_id", "team_id"} <= found["notifications.Notification"]
        assert "title" not in found["reviews.Review"]  # a renamed review moves no count
        # The query's frame is the viewer's own row, read by its key only: no write of a user
        # row changes a count (its deletion removes its rows through the models above).
        assert found[get_user_model()._meta.label] == {"id"}

    def test_every_write_that_can_change_a_count_shows_at_the_next_view(self, world):
        missed, unwritten = [], []
        for model in fed_by():
            if model is get_user_model():
                continue
            if world.new(model) is None:
                unwritten.append(model._meta.label)
                continue
            for name, write in _paths(world, model).items():
                world.reset(model)
                world.seen = _shown(world.client)  # the page viewed, its counts cached
                write()
                shown, fresh = _shown(world.client), _fresh(world.viewer)
                if shown != fresh or shown == world.seen:
                    missed.append(f"{model._meta.label} {name}: {world.seen} → {shown}, {fresh}")
        assert not unwritten, f"no count-changing write for {unwritten}: add one to _World"
        assert not missed, missed

    def test_other_writes_of_the_team_leave_the_counts_cached(self, world, team):
        from apps.reviews.comments.services import comment_post

        _shown(world.client)
        nav = narrow_key(NAV_PREFIX, team.pk)
        before = cache.get(nav)
        comment_post(review=world.review, actor=world.owner, text="a comment")
        Review.objects.filter(pk=world.review.pk).update(title="Renamed")
        world.review.title = "Renamed again"
        world.review.save(update_fields=["title"])
        assert cache.get(nav) == before
        with CaptureQueriesContext(connection) as queries:
            shown = _shown(world.client)
        assert shown == _fresh(world.viewer)
        assert not [q for q in queries if "notifications_notification" in q["sql"]]

    def test_a_new_role_is_a_new_entry(self, world, team):
        assert _shown(world.client)[0] == 1
        world.viewer.memberships.filter(team=team).update(role="member")
        assert team_id_of(world.review) == team.pk
        client = Client()
        client.force_login(world.viewer)
        html = client.get(PAGE).content.decode()
        assert 'href="/reviews/approvals/"' not in html or _shown(client)[0] == 0
