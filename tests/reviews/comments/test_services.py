"""Writes of a review's discussion (apps/reviews/comments/services.py): who may write, what is
refused with a field error, what the audit trail keeps, who is told of a mention, and that an
approved review's thread stays open without changing anything that was signed."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError

from apps.accounts.generations import generation_key
from apps.notifications.models import Kind, Notification
from apps.reviews.comments.models import Comment
from apps.reviews.comments.services import comment_delete, comment_edit, comment_post
from apps.reviews.models import AuditEvent, Review
from apps.web.limits import MAX_COMMENT_CHARS, MAX_MENTIONS
from tests.factories import make_membership, make_user
from tests.notifications.helpers import inboxed, mailed, prefer
from tests.reviews.helpers import approve, ready_review, submitted_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(team, member):
    return ready_review(team, member, offers=2, title="Nightly batch")


def comment_events(review):
    return list(
        AuditEvent.objects.filter(review=review, action__startswith="comment_")
        .order_by("id")
        .values_list("action", "actor__username", "target", "changes")
    )


class PostTests:
    def test_a_member_posts_on_the_review_and_on_a_candidate(self, review, member, reviewer):
        candidate = review.candidates.select_related("offer").first()
        first = comment_post(review=review, actor=member, text="  Why not spot?\r\n  ")
        second = comment_post(review=review, actor=reviewer, text="Cheaper.", candidate=candidate)
        assert (first.text, first.candidate_id, first.author_id) == (
            "Why not spot?",
            None,
            member.pk,
        )
        assert (second.candidate_id, second.review_id) == (candidate.pk, review.pk)
        offer = f"{candidate.offer.provider} · {candidate.offer.name}"
        assert comment_events(review) == [
            ("comment_posted", "member", "", {
                "comment": [None, "Why not spot?"], "comment_id": first.pk, "candidate": None}),
            ("comment_posted", "reviewer", offer, {
                "comment": [None, "Cheaper."], "comment_id": second.pk,
                "candidate": candidate.pk}),
        ]  # fmt: skip

    @pytest.mark.parametrize("text", ["", "   ", "\n\r\n"])
    def test_an_empty_comment_is_a_field_error(self, review, member, text):
        with pytest.raises(ValidationError) as caught:
            comment_post(review=review, actor=member, text=text)
        assert list(caught.value.error_dict) == ["text"]
        assert not Comment.objects.exists() and not comment_events(review)

    def test_a_comment_over_the_limit_is_a_field_error_and_one_at_it_is_kept(self, review, member):
        with pytest.raises(ValidationError) as caught:
            comment_post(review=review, actor=member, text="x" * (MAX_COMMENT_CHARS + 1))
        assert list(caught.value.error_dict) == ["text"]
        assert "4000" in caught.value.error_dict["text"][0].messages[0]
        kept = comment_post(review=review, actor=member, text="y" * MAX_COMMENT_CHARS)
        assert len(kept.text) == 4000

    def test_someone_outside_the_team_cannot_post(self, review, outsider):
        with pytest.raises(PermissionDenied):
            comment_post(review=review, actor=outsider, text="hello")
        assert not Comment.objects.exists()

    def test_a_candidate_of_another_review_is_refused(self, team, review, member):
        other = ready_review(team, member)
        with pytest.raises(ValidationError) as caught:
            comment_post(review=review, actor=member, text="x", candidate=other.candidates.first())
        assert list(caught.value.error_dict) == ["candidate"]

    def test_a_comment_moves_the_teams_generation(self, review, member):
        cache.set(generation_key(review.team_id), 5)
        comment_post(review=review, actor=member, text="x")
        assert cache.get(generation_key(review.team_id)) != 5


class EditDeleteTests:
    def test_only_the_author_edits_and_the_trail_keeps_both_texts(self, review, member, owner):
        comment = comment_post(review=review, actor=member, text="first")
        with pytest.raises(PermissionDenied):
            comment_edit(comment=comment, actor=owner, text="hijacked")
        edited = comment_edit(comment=comment, actor=member, text="second")
        assert edited.text == "second" and edited.edited_at is not None
        assert comment_events(review)[-1][:2] == ("comment_edited", "member")
        assert comment_events(review)[-1][3]["comment"] == ["first", "second"]
        comment.refresh_from_db()
        assert comment.text == "second"

    def test_an_edit_that_changes_nothing_writes_nothing(self, review, member):
        comment = comment_post(review=review, actor=member, text="same")
        comment_edit(comment=comment, actor=member, text=" same ")
        assert [e[0] for e in comment_events(review)] == ["comment_posted"]

    def test_an_edit_to_empty_is_a_field_error(self, review, member):
        comment = comment_post(review=review, actor=member, text="kept")
        with pytest.raises(ValidationError) as caught:
            comment_edit(comment=comment, actor=member, text="  ")
        assert list(caught.value.error_dict) == ["text"]
        comment.refresh_from_db()
        assert comment.text == "kept"

    def test_only_the_author_deletes_and_the_trail_keeps_the_text(self, review, member, reviewer):
        comment = comment_post(review=review, actor=member, text="to go")
        with pytest.raises(PermissionDenied):
            comment_delete(comment=comment, actor=reviewer)
        comment_delete(comment=comment, actor=member)
        assert not Comment.objects.exists()
        action, actor, _, changes = comment_events(review)[-1]
        assert (action, actor, changes["comment"]) == ("comment_deleted", "member", ["to go", None])

    def test_an_author_who_left_the_team_can_no_longer_edit(self, review, member):
        comment = comment_post(review=review, actor=member, text="mine")
        member.memberships.all().delete()
        with pytest.raises(PermissionDenied):
            comment_edit(comment=comment, actor=member, text="still mine?")


class MentionTests:
    def test_a_mentioned_member_is_told_by_bell_and_email(self, review, member, reviewer, owner):
        comment = comment_post(review=review, actor=member, text="@reviewer and @Owner: H100?")
        assert comment.mentions == ["owner", "reviewer"]
        assert inboxed(Kind.COMMENT_MENTION) == {"reviewer", "owner"}
        assert mailed("comment-mention") == sorted([reviewer.email, owner.email])
        note = Notification.objects.get(recipient=reviewer)
        assert note.url.startswith(f"/reviews/{review.pk}/#comment-")
        assert note.text == (
            "member mentioned owner, reviewer in the discussion of “Nightly batch”: "
            "“@reviewer and @Owner: H100?”"
        )

    def test_preferences_choose_the_channels(self, review, member, reviewer, owner):
        prefer(reviewer, Kind.COMMENT_MENTION, inbox=False, email=True)
        prefer(owner, Kind.COMMENT_MENTION, inbox=True, email=False)
        comment_post(review=review, actor=member, text="@reviewer @owner")
        assert inboxed(Kind.COMMENT_MENTION) == {"owner"}
        assert mailed("comment-mention") == [reviewer.email]

    def test_no_one_outside_the_team_nor_the_author_is_told(self, review, member, outsider):
        comment_post(review=review, actor=member, text="@outsider @member @nobody")
        assert inboxed(Kind.COMMENT_MENTION) == set()
        assert mailed("comment-mention") == []

    def test_a_member_of_two_teams_is_told_only_of_their_teams_review(
        self, team, other_team, review, member
    ):
        both = make_membership(make_user("both"), other_team, "owner").user
        comment_post(review=review, actor=member, text="@both?")
        assert inboxed(Kind.COMMENT_MENTION) == set()
        make_membership(both, team, "member")
        comment_post(review=review, actor=member, text="@both now")
        assert inboxed(Kind.COMMENT_MENTION) == {"both"}
        assert Notification.objects.get(recipient=both).team_id == team.pk

    def test_an_edit_tells_only_the_people_it_newly_mentions(self, review, member, reviewer, owner):
        comment = comment_post(review=review, actor=member, text="@reviewer first")
        comment_edit(comment=comment, actor=member, text="@reviewer and now @owner")
        comment_edit(comment=comment, actor=member, text="@reviewer and now @owner!")
        counts = {
            user.username: Notification.objects.filter(recipient=user).count()
            for user in (reviewer, owner)
        }
        assert counts == {"reviewer": 1, "owner": 1}
        assert len(mailed("comment-mention")) == 2

    def test_too_many_mentions_is_a_field_error(self, team, review, member):
        for i in range(MAX_MENTIONS + 1):
            make_membership(make_user(f"p{i}"), team, "member")
        text = " ".join(f"@p{i}" for i in range(MAX_MENTIONS + 1))
        with pytest.raises(ValidationError) as caught:
            comment_post(review=review, actor=member, text=text)
        assert list(caught.value.error_dict) == ["text"]
        comment_post(review=review, actor=member, text=text.rsplit(" ", 1)[0])
        assert len(inboxed(Kind.COMMENT_MENTION)) == MAX_MENTIONS


class ApprovedReviewTests:
    def test_the_thread_stays_open_and_nothing_signed_changes(self, team, owner, reviewer, member):
        """On PostgreSQL, migration 0005's triggers would also refuse any write to the signed
        review row, its candidates or sign-offs: run with DATABASE_URL to have them watch."""
        review = submitted_review(team, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        signed = Review.objects.values().get(pk=review.pk)
        snapshots = list(review.snapshots.values())
        signoffs = list(review.signoffs.values())
        candidate = review.candidates.first()
        comment = comment_post(review=review, actor=member, text="Follow-up: ran fine.")
        comment_post(review=review, actor=reviewer, text="Good.", candidate=candidate)
        comment_edit(comment=comment, actor=member, text="Follow-up: ran fine, 2 h early.")
        comment_delete(comment=comment, actor=member)
        assert Review.objects.values().get(pk=review.pk) == signed
        assert list(review.snapshots.values()) == snapshots
        assert list(review.signoffs.values()) == signoffs
        assert [e[0] for e in comment_events(review)] == [
            "comment_posted",
            "comment_posted",
            "comment_edited",
            "comment_deleted",
        ]


class MentionWebhookTests:
    """A mention reaches the team's webhooks subscribed to it (a real receiver on 127.0.0.1),
    once per post or edit that mentions someone new, and never another team's."""

    @pytest.fixture
    def receiver(self, settings):
        from tests.receiver import start_receiver

        settings.OUTBOUND_ALLOW_PRIVATE = False
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        receiver = start_receiver()
        yield receiver
        receiver.server.shutdown()
        receiver.server.server_close()

    def test_a_mention_is_posted_to_the_subscribed_endpoint_once(
        self, review, member, reviewer, owner, outsider, other_team, receiver,
        django_capture_on_commit_callbacks,
    ):  # fmt: skip
        import json

        from apps.notifications.webhooks import webhook_endpoint_create

        for team, url, events, who in (
            (review.team, receiver.url(), [Kind.COMMENT_MENTION], owner),
            (review.team, receiver.url("/submissions"), [Kind.REVIEW_SUBMITTED], owner),
            (other_team, receiver.url("/other"), [Kind.COMMENT_MENTION], outsider),
        ):
            webhook_endpoint_create(team=team, url=url, events=events, shape="json", created_by=who)
        with django_capture_on_commit_callbacks(execute=True):
            comment = comment_post(review=review, actor=member, text="@reviewer look")
        with django_capture_on_commit_callbacks(execute=True):
            comment_edit(comment=comment, actor=member, text="@reviewer look!")  # no one new
        with django_capture_on_commit_callbacks(execute=True):
            comment_post(review=review, actor=member, text="no mention here")
        assert [r.path for r in receiver.received] == ["/hook"]
        body = json.loads(receiver.received[0].body)
        assert body["event"] == "comment_mention" and body["team"] == review.team.slug
        assert body["text"] == (
            "member mentioned reviewer in the discussion of “Nightly batch”: “@reviewer look”"
        )
        assert body["url"].endswith(f"/reviews/{review.pk}/#comment-{comment.pk}")


class FourEyesTests:
    def test_a_reviewer_who_commented_may_still_decide(self, team, owner, reviewer):
        """A comment is not a contribution to the round (apps/reviews/four_eyes.py): the
        reviewer who asked a question in the thread still signs off."""
        from apps.reviews.four_eyes import contribution_reason

        review = submitted_review(team, owner)
        comment_post(review=review, actor=reviewer, text="Why this one?")
        assert contribution_reason(review, reviewer) is None
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"
