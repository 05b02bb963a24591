"""Sign-off services (apps/reviews/services/signoff.py): every decision and every refusal (SPEC S,
issue 6), and what an approval freezes."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import AuditEvent, SignOff
from apps.reviews.services.candidates import (
    candidate_add,
    candidate_remove,
)
from apps.reviews.services.lifecycle import review_update
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_submit
from apps.reviews.snapshots.services import build_review_input, current_snapshot, snapshot_compute
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from tests.factories import (
    make_membership,
    make_offer,
    make_site,
    make_user,
)
from tests.reviews.helpers import (
    approve,
    current_snapshot_id,
    ready_review,
    second_reviewer,
    submitted_review,
)

pytestmark = pytest.mark.django_db


def actions(review) -> list[str]:
    return list(review.audit_events.order_by("id").values_list("action", flat=True))


class SignOffTests:
    def test_one_approval_approves_and_freezes_the_input(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        signoff = approve(review, reviewer, comment="Fine.")
        review.refresh_from_db()
        assert review.state == "approved"
        assert review.decided_at is not None
        assert review.frozen_input == signoff.snapshot.input
        assert (signoff.decision, signoff.round, signoff.comment) == ("approve", 1, "Fine.")
        assert actions(review)[-2:] == ["signed_off", "approved"]
        assert review.audit_events.get(action="approved").changes == {
            "state": ["submitted", "approved"]
        }

    def test_it_waits_for_the_required_number_of_approvals(self, team, owner, reviewer):
        team.approvals_required = 2
        team.save()
        review = submitted_review(team, owner)
        version = review.version
        approve(review, reviewer, version=version)
        review.refresh_from_db()
        assert review.state == "submitted"
        assert review.version == version  # a sign-off that changes nothing leaves the version
        # The second reviewer saw the same page: the first approval does not make it stale.
        approve(review, second_reviewer(team), version=version)
        review.refresh_from_db()
        assert review.state == "approved"
        assert review.signoffs.filter(decision="approve").count() == 2
        assert review.audit_events.filter(action="approved").count() == 1

    def test_an_owner_may_approve(self, team, member):
        review = submitted_review(team, member)
        other_owner = make_membership(make_user("owner2"), team, "owner").user
        approve(review, other_owner)
        review.refresh_from_db()
        assert review.state == "approved"

    def test_it_refuses_self_approval(self, team, owner):
        review = submitted_review(team, owner)
        with pytest.raises(ReviewRefused) as exc:
            approve(review, owner)
        assert exc.value.codes == {"self_approval"}
        with pytest.raises(ReviewRefused) as exc:
            signoff_create(
                review=review,
                reviewer=owner,
                decision="reject",
                comment="no",
                snapshot_id=current_snapshot_id(review),
            )
        assert exc.value.codes == {"self_approval"}
        assert not SignOff.objects.exists()

    def test_it_refuses_a_second_decision_by_the_same_reviewer(self, team, owner, reviewer):
        team.approvals_required = 2
        team.save()
        review = submitted_review(team, owner)
        approve(review, reviewer)
        with pytest.raises(ReviewRefused) as exc:
            approve(review, reviewer)
        assert exc.value.codes == {"already_decided"}
        with pytest.raises(ReviewRefused) as exc:
            signoff_create(
                review=review,
                reviewer=reviewer,
                decision="reject",
                comment="changed my mind",
                snapshot_id=current_snapshot_id(review),
            )
        assert exc.value.codes == {"already_decided"}
        assert review.signoffs.count() == 1

    def test_it_refuses_a_stale_snapshot(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        seen = current_snapshot_id(review)
        # The profile changes after submission: the figures the reviewer saw are stale.
        review.task.compute_hours = 99
        review.task.save()
        with pytest.raises(ReviewRefused) as exc:
            signoff_create(
                review=review, reviewer=reviewer, decision="approve", snapshot_id=seen
            )
        assert exc.value.codes == {"stale_snapshot"}
        review.refresh_from_db()
        assert review.state == "submitted"
        # On the fresh figures the approval goes through.
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"
        assert review.frozen_input["task"]["compute_hours"] == 99

    def test_it_refuses_approval_while_a_block_finding_stands(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        # Two answers withdrawn behind the services' back: checklist gate C blocks.
        ChecklistAnswer.objects.filter(question__in=["q5", "q6"]).update(status="unanswered")
        with pytest.raises(ReviewRefused) as exc:
            approve(review, reviewer)
        assert exc.value.codes == {"block_finding"}
        assert exc.value.reasons[0]["data"]["rule"] == "C"
        # Request changes stays possible, with a comment.
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision="request_changes",
            comment="Answer Q5 and Q6.",
            snapshot_id=current_snapshot_id(review),
        )
        review.refresh_from_db()
        assert review.state == "changes_requested"

    def test_it_refuses_approval_when_nothing_is_feasible(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        # The offer moves to a site with no link: no feasible placement, chosen is null (P2).
        offer = review.candidates.get().offer
        offer.site = make_site(team)
        offer.save()
        with pytest.raises(ReviewRefused) as exc:
            approve(review, reviewer)
        assert [r["data"]["rule"] for r in exc.value.reasons] == ["P2"]

    def test_a_member_who_is_not_a_reviewer_cannot_decide(self, team, owner, member):
        review = submitted_review(team, owner)
        with pytest.raises(PermissionDenied):
            approve(review, member)
        assert not SignOff.objects.exists()

    def test_a_reviewer_of_another_team_cannot_decide(self, team, other_team, owner):
        review = submitted_review(team, owner)
        foreign = make_membership(make_user("foreign"), other_team, "reviewer").user
        with pytest.raises(PermissionDenied):
            approve(review, foreign)

    @pytest.mark.parametrize("decision", ["reject", "request_changes"])
    def test_reject_and_request_changes_need_a_comment(self, team, owner, reviewer, decision):
        review = submitted_review(team, owner)
        with pytest.raises(ValidationError) as exc:
            signoff_create(
                review=review,
                reviewer=reviewer,
                decision=decision,
                comment="  ",
                snapshot_id=current_snapshot_id(review),
            )
        assert "comment" in exc.value.message_dict

    def test_reject_is_final(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision="reject",
            comment="Too expensive.",
            snapshot_id=current_snapshot_id(review),
        )
        review.refresh_from_db()
        assert (review.state, review.frozen_input) == ("rejected", None)
        assert review.decided_at is not None
        with pytest.raises(ReviewConflict):
            review_submit(review=review, actor=owner)
        with pytest.raises(ReviewConflict):
            approve(review, second_reviewer(team))

    def test_request_changes_starts_a_new_round_after_resubmission(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision="request_changes",
            comment="Add a second candidate.",
            snapshot_id=current_snapshot_id(review),
        )
        review.refresh_from_db()
        assert (review.state, review.round) == ("changes_requested", 2)
        # The author's next edit moves it back to draft.
        offer = make_offer(team, site=review.task.home_site)
        candidate = candidate_add(review=review, actor=owner, offer=offer, machines=1)
        review.refresh_from_db()
        assert review.state == "draft"
        for question in ("q1", "q2", "q3", "q4", "q5", "q6"):
            checklist_answer_save(
                candidate=candidate, question=question, actor=owner, status="answered", text="ok"
            )
        review_submit(review=review, actor=owner)
        # The same reviewer decides again in the new round.
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"
        assert list(review.signoffs.values_list("round", "decision")) == [
            (1, "request_changes"),
            (2, "approve"),
        ]
        assert actions(review).count("reopened") == 1

    def test_resubmitting_straight_from_changes_requested_reopens_then_submits(
        self, team, owner, reviewer
    ):
        review = submitted_review(team, owner)
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision="request_changes",
            comment="Look again.",
            snapshot_id=current_snapshot_id(review),
        )
        review_submit(review=review, actor=owner)
        review.refresh_from_db()
        assert review.state == "submitted"
        assert actions(review)[-2:] == ["reopened", "submitted"]

    def test_a_decision_on_a_review_that_is_not_submitted_is_a_conflict(
        self, team, owner, reviewer
    ):
        review = ready_review(team, owner)
        snapshot = snapshot_compute(review_id=review.pk)
        with pytest.raises(ReviewConflict):
            signoff_create(
                review=review, reviewer=reviewer, decision="approve", snapshot_id=snapshot.pk
            )

    def test_it_refuses_a_snapshot_of_another_review(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        other = ready_review(team, owner)
        with pytest.raises(ValidationError) as exc:
            signoff_create(
                review=review,
                reviewer=reviewer,
                decision="approve",
                snapshot_id=snapshot_compute(review_id=other.pk).pk,
            )
        assert "snapshot" in exc.value.message_dict


class ImmutabilityTests:
    def test_an_approved_review_keeps_what_was_signed(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        signoff = approve(review, reviewer)
        review.refresh_from_db()
        signed = build_review_input(review)
        # The profile and the offer change later; the signed review does not.
        review.task.compute_hours = 500
        review.task.save()
        offer = review.candidates.get().offer
        offer.price = 99
        offer.save()
        review.refresh_from_db()
        assert build_review_input(review) == signed
        assert current_snapshot(review) == signoff.snapshot

    def test_services_refuse_every_change_of_an_approved_review(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        candidate = review.candidates.get()
        with pytest.raises(ReviewConflict):
            review_update(review=review, actor=owner, title="x")
        with pytest.raises(ReviewConflict):
            checklist_answer_save(
                candidate=candidate, question="q1", actor=owner, status="unanswered"
            )
        with pytest.raises(ReviewConflict):
            candidate_remove(candidate=candidate, actor=owner)
        with pytest.raises(ReviewConflict):
            review_submit(review=review, actor=owner)
        assert review.audit_events.filter(action__in=["updated", "answer_saved"]).count() == 0

    def test_every_transition_is_in_the_audit_trail(self, team, owner, reviewer):
        review = ready_review(team, owner)
        review_submit(review=review, actor=owner)
        approve(review, reviewer)
        events = list(AuditEvent.objects.filter(review=review).order_by("id"))
        assert [(e.action, e.actor.username) for e in events] == [
            ("submitted", "owner"),
            ("signed_off", "reviewer"),
            ("approved", "reviewer"),
        ]
        assert all(e.team_id == team.pk for e in events)
