"""The discussion's pages (apps/reviews/comments/views.py): plain and htmx, permissions, errors
that keep what was typed, and every page that shows a thread showing a new comment at its next
view (the approved review's page, cached under the team's generation, and the decision record)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.comments.models import Comment
from apps.reviews.comments.services import comment_post
from apps.web.limits import MAX_COMMENT_CHARS, THREAD_PAGE
from tests.factories import make_membership, make_team, make_user
from tests.reviews.helpers import approve, ready_review, submitted_review

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def review(team, member):
    return ready_review(team, member, offers=2, title="Nightly batch")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def thread_url(review, candidate=None) -> str:
    if candidate is None:
        return reverse("reviews:comments", args=[review.pk])
    return reverse("reviews:candidate_comments", args=[review.pk, candidate.pk])


class PostTests:
    def test_without_javascript_a_post_goes_back_to_the_comment_on_the_review(self, review, member):
        response = signed_in(member).post(thread_url(review), {"review-text": "Spot is fine?"})
        comment = Comment.objects.get()
        assert response.status_code == 302
        assert response["Location"] == f"/reviews/{review.pk}/#comment-{comment.pk}"
        page = signed_in(member).get(response["Location"]).content.decode()
        assert f'id="comment-{comment.pk}"' in page and "Spot is fine?" in page

    def test_with_htmx_the_thread_is_redrawn_with_the_comment_and_an_empty_form(
        self, review, reviewer
    ):
        candidate = review.candidates.first()
        response = signed_in(reviewer).post(
            thread_url(review, candidate), {f"candidate-{candidate.pk}-text": "Cheaper @member"},
            **HX,
        )  # fmt: skip
        html = response.content.decode()
        assert response.status_code == 200 and "HX-Request" in response["Vary"]
        assert html.lstrip().startswith(
            f'<section class="thread" id="thread-candidate-{candidate.pk}"'
        )
        assert '<span class="mention">@member</span>' in html
        assert "<html" not in html and "Cheaper" not in html.split("<textarea")[1]
        assert Comment.objects.get().candidate_id == candidate.pk

    @pytest.mark.parametrize("htmx", [False, True])
    def test_an_empty_comment_is_a_field_error(self, review, member, htmx):
        response = signed_in(member).post(
            thread_url(review), {"review-text": "  "}, **(HX if htmx else {})
        )
        assert response.status_code == (200 if htmx else 400)
        assert "Write a comment first." in response.content.decode()
        assert not Comment.objects.exists()

    @pytest.mark.parametrize("htmx", [False, True])
    def test_a_comment_too_long_keeps_every_character_typed(self, review, member, htmx):
        typed = "<b>draft</b> " + "x" * MAX_COMMENT_CHARS
        response = signed_in(member).post(
            thread_url(review), {"review-text": typed}, **(HX if htmx else {})
        )
        html = response.content.decode()
        assert response.status_code == (200 if htmx else 400)
        assert "at most 4000 characters" in html
        assert f"\n&lt;b&gt;draft&lt;/b&gt; {'x' * MAX_COMMENT_CHARS}</textarea>" in html
        assert not Comment.objects.exists()

    def test_the_thread_page_is_paginated_latest_first(self, review, member):
        for i in range(THREAD_PAGE + 3):
            comment_post(review=review, actor=member, text=f"note {i:02d}")
        client = signed_in(member)
        last = client.get(thread_url(review)).content.decode()
        assert "note 20" in last and "note 22" in last and "note 19" not in last
        first = client.get(thread_url(review) + "?page=1").content.decode()
        assert "note 00" in first and "note 19" in first and "note 20" not in first
        page = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        inline = page.split('id="discussion"')[1]
        assert "note 03" in inline and "note 02" not in inline
        assert "3 earlier comments: see the whole thread" in inline


class PermissionTests:
    def test_another_team_never_sees_the_thread(self, review, member, outsider):
        comment = comment_post(review=review, actor=member, text="secret plan")
        client = signed_in(outsider)
        candidate = review.candidates.first()
        for url in (thread_url(review), thread_url(review, candidate)):
            assert client.get(url).status_code == 404
            assert client.post(url, {"review-text": "x"}).status_code == 404
        assert client.get(reverse("reviews:comment_edit", args=[comment.pk])).status_code == 404
        assert client.post(reverse("reviews:comment_delete", args=[comment.pk])).status_code == 404
        assert Comment.objects.count() == 1

    def test_a_member_of_two_other_teams_gets_404_after_switching_team(
        self, review, member, other_team
    ):
        comment_post(review=review, actor=member, text="secret plan")
        third = make_team("Team Three", "three")
        both = make_membership(make_user("both"), other_team, "owner").user
        make_membership(both, third, "member")
        client = signed_in(both)
        for team in (other_team, third):
            client.post(reverse("accounts:team_switch"), {"team": team.pk})
            response = client.get(thread_url(review))
            assert response.status_code == 404
            assert "secret plan" not in response.content.decode()

    def test_a_candidate_of_another_review_is_not_found(self, team, review, member):
        other = ready_review(team, member)
        url = reverse("reviews:candidate_comments", args=[review.pk, other.candidates.first().pk])
        assert signed_in(member).get(url).status_code == 404

    def test_only_the_author_edits_or_deletes(self, review, member, owner):
        comment = comment_post(review=review, actor=member, text="mine")
        edit = reverse("reviews:comment_edit", args=[comment.pk])
        delete = reverse("reviews:comment_delete", args=[comment.pk])
        boss = signed_in(owner)
        assert boss.get(edit).status_code == 403
        assert boss.post(edit, {f"comment-{comment.pk}-text": "theirs"}).status_code == 403
        assert boss.post(delete).status_code == 403
        page = boss.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "mine" in page and edit not in page
        comment.refresh_from_db()
        assert comment.text == "mine"


class EditDeleteTests:
    def test_edit_with_htmx_swaps_the_comment_in_place(self, review, member):
        comment = comment_post(review=review, actor=member, text="first")
        client, edit = signed_in(member), reverse("reviews:comment_edit", args=[comment.pk])
        form = client.get(edit, **HX).content.decode()
        assert form.lstrip().startswith("<form") and "\nfirst</textarea>" in form
        saved = client.post(edit, {f"comment-{comment.pk}-text": "second"}, **HX)
        assert saved.status_code == 200 and "second" in saved.content.decode()
        assert "edited" in saved.content.decode()
        cancel = client.get(edit + "?cancel=1", **HX).content.decode()
        assert cancel.lstrip().startswith("<article") and "second" in cancel

    def test_edit_errors_keep_the_text_plain_and_htmx(self, review, member):
        comment = comment_post(review=review, actor=member, text="first")
        client, edit = signed_in(member), reverse("reviews:comment_edit", args=[comment.pk])
        too_long = "y" * (MAX_COMMENT_CHARS + 1)
        plain = client.post(edit, {f"comment-{comment.pk}-text": too_long})
        assert plain.status_code == 400 and f"\n{too_long}</textarea>" in plain.content.decode()
        htmx = client.post(edit, {f"comment-{comment.pk}-text": too_long}, **HX)
        assert htmx.status_code == 200 and f"\n{too_long}</textarea>" in htmx.content.decode()
        comment.refresh_from_db()
        assert comment.text == "first"

    def test_plain_edit_and_delete_go_back_to_the_review(self, review, member):
        comment = comment_post(review=review, actor=member, text="first")
        client = signed_in(member)
        edit = reverse("reviews:comment_edit", args=[comment.pk])
        assert client.get(edit).status_code == 200
        response = client.post(edit, {f"comment-{comment.pk}-text": "second"})
        assert response["Location"] == f"/reviews/{review.pk}/#comment-{comment.pk}"
        response = client.post(reverse("reviews:comment_delete", args=[comment.pk]))
        assert response["Location"] == f"/reviews/{review.pk}/#thread-review"
        assert not Comment.objects.exists()

    def test_delete_with_htmx_redraws_the_thread(self, review, member):
        comment = comment_post(review=review, actor=member, text="going")
        comment_post(review=review, actor=member, text="staying")
        response = signed_in(member).post(
            reverse("reviews:comment_delete", args=[comment.pk]), **HX
        )
        html = response.content.decode()
        assert 'id="thread-review"' in html and "staying" in html and "going" not in html


class ShownAtNextViewTests:
    def test_an_approved_reviews_cached_page_shows_a_new_comment_and_its_audit_entry(
        self, team, owner, reviewer, member
    ):
        review = submitted_review(team, owner, title="Signed plan")
        approve(review, reviewer)
        client, url = signed_in(member), reverse("reviews:detail", args=[review.pk])
        client.get(url)  # sets the CSRF cookie, a part of the page's ETag
        first = client.get(url)
        assert "No comments yet." in first.content.decode()
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304  # cached, and the ETag holds
        client.post(thread_url(review), {"review-text": "Ran it: 2 h early."})
        response = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        html = response.content.decode()
        assert response.status_code == 200
        assert "Ran it: 2 h early." in html  # the thread
        assert html.count("Ran it: 2 h early.") == 2  # and the timeline's audit entry
        assert "its discussion stays open" in html.lower() or "discussion stays open" in html

    def test_the_decision_record_has_the_discussion_as_its_appendix(self, review, member, owner):
        candidate = review.candidates.select_related("offer").first()
        comment_post(review=review, actor=member, text="See https://e.com/run <i>x</i> @owner")
        comment_post(review=review, actor=owner, text="On this offer.", candidate=candidate)
        html = (
            signed_in(owner)
            .get(reverse("scoring:review_record", args=[review.pk]))
            .content.decode()
        )
        appendix = html.split('id="record-discussion"')[1]
        assert '<a href="https://e.com/run" rel="noopener nofollow"' in appendix
        assert (
            "&lt;i&gt;x&lt;/i&gt;" in appendix and '<span class="mention">@owner</span>' in appendix
        )
        assert f"{candidate.offer.provider} · {candidate.offer.name}" in appendix
        assert "On this offer." in appendix
        assert "<textarea" not in appendix and "comment_delete" not in appendix
        assert "/edit/" not in appendix


class QueryCountTests:
    def test_the_review_page_reads_every_thread_in_one_query_whatever_their_length(
        self, review, member
    ):
        client, url = signed_in(member), reverse("reviews:detail", args=[review.pk])
        client.get(url)

        def count() -> int:
            client.get(url)  # the navigation's counts, cached under the moved generation
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            return len(ctx.captured_queries)

        none = count()
        candidate = review.candidates.first()
        comment_post(review=review, actor=member, text="one")
        one = count()
        for i in range(THREAD_PAGE + 5):
            comment_post(review=review, actor=member, text=f"@owner {i}", candidate=candidate)
            comment_post(review=review, actor=member, text=f"r {i}")
        many = count()
        assert (one - none, many - one) == (1, 0)
