"""Issue 33: an approved page's warm view reads only the frame's fields of the review (title,
state, version, team, comment count), the whole review only when a part must be drawn; and
whatever feeds the parts drawn per view still shows at the next view. The draft page reads the
team's links and the reserved ones in one query, and the signed snapshot is found in one query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.comments.services import comment_delete, comment_post
from apps.reviews.models import Review
from apps.reviews.snapshots.selectors import review_with_input
from apps.reviews.snapshots.services import signed_snapshot
from tests.actuals.helpers import approved_review
from tests.teams.helpers import moving_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed(team, member, reviewer):
    return approved_review(team, member, reviewer)


def _view(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in ctx.captured_queries]


def _body(html: str) -> str:
    """The page's head and body (after the actions, whose forms carry a fresh token)."""
    return html.split('id="main"')[1].split("Clone as a new draft")[1].split('id="discussion"')[0]


def _discussion(html: str) -> str:
    return html.split('id="discussion"')[1]


class WarmViewTests:
    def test_a_warm_view_reads_the_frame_only_and_a_cold_one_the_whole_review(
        self, client, member, signed
    ):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        cold_html, cold = _view(client, url)
        warm_html, warm = _view(client, url)
        assert _body(warm_html) == _body(cold_html)
        # The cold view draws the head (author, task): it reads the whole review with its task.
        assert any('"profiles_taskprofile"' in sql and '"reviews_review"' in sql for sql in cold)
        reviews = [sql for sql in warm if sql.lstrip().startswith('SELECT "reviews_review"')]
        assert len(reviews) == 1  # the frame, once (its ETag and the page share it)
        assert '"frozen_input"' not in reviews[0] and '"task_id"' not in reviews[0]
        assert not any('"profiles_taskprofile"' in sql or '"catalog_site"' in sql for sql in warm)
        assert len(warm) <= 6

    def test_the_title_and_clone_form_in_the_frame_come_from_the_frame_read(
        self, client, member, signed
    ):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        html, _ = _view(client, url)
        assert f"<title>{signed.title}" in html
        assert reverse("reviews:clone", args=[signed.pk]) in html


class WritesShowAtTheNextViewTests:
    def test_a_first_comment_then_its_deletion_show_at_the_next_warm_view(
        self, client, member, signed
    ):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        assert "The bill came in under plan." not in client.get(url).content.decode()
        # No comment yet: the frame's comment count (0) says the threads need no read; a first
        # comment must raise it at the next view, the head and body still from the cache.
        comment = comment_post(review=signed, actor=member, text="The bill came in under plan.")
        html, _ = _view(client, url)
        assert "The bill came in under plan." in _discussion(html)
        comment_delete(comment=comment, actor=member)
        html, _ = _view(client, url)
        # Gone from the discussion (its text stays in the timeline: the audit trail).
        assert "The bill came in under plan." not in _discussion(html)

    def test_a_comment_on_a_candidate_shows_in_its_thread(self, client, member, signed):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        candidate = signed.candidates.get()
        comment_post(review=signed, actor=member, text="Spot price held.", candidate=candidate)
        html, _ = _view(client, url)
        assert "Spot price held." in _discussion(html)


class DraftLinksTests:
    def test_the_reserved_links_and_the_engine_input_come_from_one_read(self, team, member):
        review = moving_review(team, member, ready=True)  # its one link reserved
        review = Review.objects.select_related("team", "task").get(pk=review.pk)
        [link] = review.reserved_links.all()
        with CaptureQueriesContext(connection) as ctx:
            cards, reserved, review_input = review_with_input(review)
        assert [r.pk for r in reserved] == [link.pk]
        assert [entry["reserved"] for entry in review_input["links"]] == [True]
        link_reads = [sql for sql in ctx.captured_queries if '"catalog_networklink"' in sql["sql"]]
        assert len(link_reads) == 1

    def test_a_link_unreserved_shows_unreserved_on_the_draft_page(self, client, team, member):
        review = moving_review(team, member, ready=True)
        client.force_login(member)
        url = reverse("reviews:detail", args=[review.pk])
        assert "No channel reserved." not in client.get(url).content.decode()
        review.reserved_links.clear()
        assert "No channel reserved." in client.get(url).content.decode()
        review = Review.objects.select_related("team", "task").get(pk=review.pk)
        _, reserved, review_input = review_with_input(review)
        assert reserved == [] and [e["reserved"] for e in review_input["links"]] == [False]

    def test_a_link_of_the_team_not_reserved_is_in_the_input_but_not_the_reserved_list(
        self, team, member
    ):
        from tests.factories import make_link

        review = moving_review(team, member, ready=True)
        home, data = review.task.home_site, review.task.data_site
        make_link(team, data, home, bandwidth_gbps=1, reservable=True)
        review = Review.objects.select_related("team", "task").get(pk=review.pk)
        _, reserved, review_input = review_with_input(review)
        assert len(reserved) == 1
        # Two links in the input, ordered by from-site code: "data-0" before "home-0".
        assert [(e["reserved"]) for e in review_input["links"]] == [False, True]


class SignedSnapshotTests:
    def test_the_signed_snapshot_is_the_approving_sign_offs_in_one_query(
        self, signed, django_assert_num_queries
    ):
        approving = signed.signoffs.get(decision="approve")
        with django_assert_num_queries(1):
            assert signed_snapshot(signed).pk == approving.snapshot_id

    def test_a_draft_has_no_signed_snapshot_and_reads_nothing(
        self, team, member, django_assert_num_queries
    ):
        review = moving_review(team, member, ready=True)
        with django_assert_num_queries(0):
            assert signed_snapshot(review) is None
