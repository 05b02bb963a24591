"""Four eyes on every sign-off (issue 17, hole 1; apps/reviews/four_eyes.py): whoever contributed
to the round being decided (a checklist answer, a candidate, the reserved links, the title, the
submission, the task profile's latest edit) is refused every decision on it, with the reason in
plain words; a contribution to an earlier round does not count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from apps.profiles.services import profile_update
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.services.candidates import candidate_update, review_reserve_links
from apps.reviews.services.lifecycle import review_update
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_submit
from apps.reviews.workflow import ReviewRefused
from tests.reviews.helpers import (
    approve,
    current_snapshot_id,
    ready_review,
    second_reviewer,
)
from tests.teams.helpers import moving_review

pytestmark = pytest.mark.django_db


def answered_by(review, user, question: str = "q6") -> None:
    """`user` answers the one question left open, through the audited service."""
    checklist_answer_save(
        candidate=review.candidates.get(),
        question=question,
        actor=user,
        status="answered",
        text="Checked by hand.",
    )


def submit(review, actor):
    review_submit(review=review, actor=actor)
    review.refresh_from_db()
    return review


def refusal(review, reviewer, decision: str = "approve") -> ReviewRefused:
    with pytest.raises(ReviewRefused) as caught:
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision=decision,
            comment="" if decision == "approve" else "Why not.",
            snapshot_id=current_snapshot_id(review),
        )
    review.refresh_from_db()
    assert review.state == "submitted"
    assert not review.signoffs.filter(reviewer=reviewer).exists()
    return caught.value


def contributed(exc: ReviewRefused) -> dict:
    (reason,) = [r for r in exc.reasons if r["code"] == "contributed"]
    return reason


class FourEyesServiceTests:
    def test_it_refuses_a_reviewer_who_answered_a_question_of_the_round(
        self, team, owner, reviewer
    ):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, reviewer)
        submit(review, owner)
        offer = review.candidates.get().offer
        reason = contributed(refusal(review, reviewer))
        assert reason["rule"] == "S"
        assert reason["data"]["contributions"] == [
            ["answer_saved", f"{offer.provider} · {offer.name} · Q6"]
        ]
        assert (
            f"you answered Q6 for the offer {offer.provider} · {offer.name}" in (reason["message"])
        )
        assert "Four eyes" in reason["message"]
        assert "Q6" in reason["message_zh"] and "四眼原则" in reason["message_zh"]

    def test_every_decision_is_refused_to_a_contributor(self, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, reviewer)
        submit(review, owner)
        for decision in ("approve", "request_changes", "reject"):
            assert "contributed" in refusal(review, reviewer, decision).codes

    def test_a_candidate_editor_cannot_approve(self, team, owner, reviewer):
        review = ready_review(team, owner)
        candidate_update(candidate=review.candidates.get(), actor=reviewer, machines=2)
        submit(review, owner)
        offer = review.candidates.get().offer
        reason = contributed(refusal(review, reviewer))
        assert f"changed the machines of {offer.provider} · {offer.name}" in reason["message"]

    def test_whoever_reserved_the_links_cannot_approve(self, team, owner, reviewer):
        review = moving_review(team, owner, ready=True)
        links = list(review.reserved_links.all())
        review.reserved_links.clear()
        review_reserve_links(review=review, actor=reviewer, links=links)
        submit(review, owner)
        reason = contributed(refusal(review, reviewer))
        assert "changed the reserved links" in reason["message"]

    def test_whoever_submitted_cannot_approve(self, team, owner, reviewer):
        review = ready_review(team, owner)
        submit(review, reviewer)
        reason = contributed(refusal(review, reviewer))
        assert reason["data"]["contributions"] == [["submitted", ""]]
        assert "you submitted this round" in reason["message"]

    def test_every_contribution_is_named_once(self, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        review_update(review=review, actor=reviewer, title="Renamed")
        review_update(review=review, actor=reviewer, title="Renamed again")
        answered_by(review, reviewer)
        submit(review, reviewer)
        reason = contributed(refusal(review, reviewer))
        assert [c[0] for c in reason["data"]["contributions"]] == [
            "updated",
            "answer_saved",
            "submitted",
        ]
        assert "edited the title, answered Q6" in reason["message"]
        assert "and submitted this round" in reason["message"]

    def test_a_contribution_to_an_earlier_round_does_not_count(self, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, reviewer)
        submit(review, owner)
        other = second_reviewer(team)
        signoff_create(
            review=review,
            reviewer=other,
            decision="request_changes",
            comment="Say more about Q2.",
            snapshot_id=current_snapshot_id(review),
        )
        review.refresh_from_db()
        assert review.round == 2
        review_update(review=review, actor=owner, title="With more on Q2")
        submit(review, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"

    def test_the_profiles_latest_editor_in_the_round_cannot_approve(self, team, owner, reviewer):
        review = ready_review(team, owner)
        submit(review, owner)
        profile_update(profile=review.task, actor=reviewer, description="Measured again.")
        review.task.refresh_from_db()
        assert review.task.updated_by == reviewer
        reason = contributed(refusal(review, reviewer))
        assert reason["data"]["contributions"] == [["profile_edited", review.task.name]]
        assert f"edited the task profile {review.task.name}" in reason["message"]

    def test_a_profile_edit_before_the_round_does_not_count(self, team, owner, reviewer):
        review = ready_review(team, owner)
        profile = review.task
        profile_update(profile=profile, actor=reviewer, description="Before the review.")
        # The edit happened a minute before this review (and so its first round) began.
        type(profile).objects.filter(pk=profile.pk).update(
            updated_at=review.created_at - timedelta(minutes=1)
        )
        submit(review, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"

    def test_a_reviewer_who_did_not_contribute_approves(self, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, second_reviewer(team))  # someone else worked on it
        submit(review, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"


class FourEyesPageTests:
    def test_the_approval_answers_with_the_reason(self, client, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, reviewer)
        submit(review, owner)
        offer = review.candidates.get().offer
        client.force_login(reviewer)
        url = reverse("reviews:decide", args=[review.pk])
        data = {"decision": "approve", "snapshot": current_snapshot_id(review)}
        response = client.post(url, data)
        assert response.status_code == 409
        body = response.content.decode()
        assert "This sign-off is not allowed." in body
        assert f"you answered Q6 for the offer {offer.provider} · {offer.name}" in body
        fragment = client.post(url, data, HTTP_HX_REQUEST="true")
        assert "you answered Q6" in fragment.content.decode()
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_the_decision_panel_says_why_in_both_languages(self, client, team, owner, reviewer):
        review = ready_review(team, owner, unanswered=1)
        answered_by(review, reviewer)
        submit(review, reviewer)
        client.force_login(reviewer)
        url = reverse("reviews:detail", args=[review.pk])
        page = client.get(url)
        body = page.content.decode()
        assert page.context["can_decide"] is False
        assert page.context["contribution"]["code"] == "contributed"
        assert "data-four-eyes" in body and "you answered Q6" in body
        assert 'value="approve"' not in body
        chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "四眼原则" in chinese and "提交了本轮" in chinese

    def test_a_clean_reviewer_still_gets_the_form(self, client, team, owner, reviewer):
        review = ready_review(team, owner)
        submit(review, owner)
        client.force_login(reviewer)
        page = client.get(reverse("reviews:detail", args=[review.pk]))
        assert page.context["can_decide"] is True
        assert page.context["contribution"] is None
        assert 'value="approve"' in page.content.decode()
