"""checklist_answer_save: validation, evidence, versions, audit and concurrent saves."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import AnswerConflict, answer_token, checklist_answer_save
from apps.reviews.models import Review
from apps.reviews.snapshots.services import build_review_input
from apps.reviews.workflow import ReviewConflict
from tests.factories import make_benchmark, make_offer, make_profile, make_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def candidate(team, owner):
    review = make_review(team, owner, offers=[make_offer(team)])
    return review.candidates.get()


class AnswerSaveTests:
    def test_it_saves_an_answer_and_bumps_version_and_inputs(self, candidate, owner):
        review = candidate.review
        answer = checklist_answer_save(
            candidate=candidate,
            question="q1",
            actor=owner,
            status="answered",
            text="  Fits one machine.  ",
            evidence_url="https://wiki.example.com/q1",
        )
        assert (answer.status, answer.text, answer.updated_by) == (
            "answered",
            "Fits one machine.",
            owner,
        )
        review.refresh_from_db()
        assert (review.version, review.inputs_generation) == (2, 2)
        checklists = build_review_input(review)["checklists"][str(candidate.offer_id)]
        assert checklists["q1"] == "answered" and checklists["q2"] == "unanswered"
        event = review.audit_events.get()
        assert event.action == "answer_saved"
        assert event.target.endswith("· Q1")
        assert event.changes == {
            "status": ["unanswered", "answered"],
            "text": ["", "Fits one machine."],
            "evidence_url": ["", "https://wiki.example.com/q1"],
        }

    def test_answered_needs_a_text(self, candidate, owner):
        with pytest.raises(ValidationError) as exc:
            checklist_answer_save(
                candidate=candidate, question="q2", actor=owner, status="answered", text="  "
            )
        assert "text" in exc.value.message_dict
        assert not ChecklistAnswer.objects.exists()

    def test_unknown_question_and_status_are_refused(self, candidate, owner):
        with pytest.raises(ValidationError):
            checklist_answer_save(
                candidate=candidate, question="q7", actor=owner, status="answered", text="x"
            )
        with pytest.raises(ValidationError):
            checklist_answer_save(candidate=candidate, question="q1", actor=owner, status="maybe")

    def test_evidence_must_be_a_record_of_the_same_team_and_task(
        self, candidate, owner, other_team
    ):
        review = candidate.review
        good = make_benchmark(review.team, review.task, candidate.offer)
        other_task = make_benchmark(review.team, make_profile(review.team))
        foreign = make_benchmark(other_team, make_profile(other_team))
        for record in (other_task, foreign):
            with pytest.raises(ValidationError) as exc:
                checklist_answer_save(
                    candidate=candidate,
                    question="q3",
                    actor=owner,
                    status="answered",
                    text="Resumes.",
                    evidence_benchmark=record,
                )
            assert "evidence_benchmark" in exc.value.message_dict
        answer = checklist_answer_save(
            candidate=candidate,
            question="q3",
            actor=owner,
            status="answered",
            text="Resumes.",
            evidence_benchmark=good,
        )
        assert answer.evidence_benchmark == good

    def test_a_blank_unanswered_first_save_writes_nothing(self, candidate, owner):
        checklist_answer_save(candidate=candidate, question="q2", actor=owner, status="unanswered")
        review = Review.objects.get(pk=candidate.review_id)
        assert (review.version, review.audit_events.count()) == (1, 0)
        assert not ChecklistAnswer.objects.exists()

    def test_an_unchanged_save_writes_nothing(self, candidate, owner):
        checklist_answer_save(
            candidate=candidate, question="q4", actor=owner, status="answered", text="GPU-hour"
        )
        review = Review.objects.get(pk=candidate.review_id)
        checklist_answer_save(
            candidate=candidate, question="q4", actor=owner, status="answered", text="GPU-hour"
        )
        after = Review.objects.get(pk=candidate.review_id)
        assert after.version == review.version
        assert after.audit_events.count() == 1

    def test_a_save_over_someone_elses_newer_answer_is_a_conflict(self, candidate, owner, member):
        first = checklist_answer_save(
            candidate=candidate, question="q5", actor=owner, status="answered", text="Mine"
        )
        seen = answer_token(first)
        checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=member,
            status="answered",
            text="Theirs",
            seen=seen,
        )
        with pytest.raises(AnswerConflict) as exc:
            checklist_answer_save(
                candidate=candidate,
                question="q5",
                actor=owner,
                status="answered",
                text="Mine again",
                seen=seen,
            )
        assert exc.value.current.text == "Theirs"
        assert ChecklistAnswer.objects.get(question="q5").text == "Theirs"
        # Saving on top of theirs, knowingly, goes through.
        checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="Mine again",
            seen=answer_token(exc.value.current),
        )
        assert ChecklistAnswer.objects.get(question="q5").text == "Mine again"

    def test_a_first_answer_created_meanwhile_is_a_conflict(self, candidate, owner, member):
        checklist_answer_save(
            candidate=candidate, question="q6", actor=member, status="answered", text="x", seen=""
        )
        with pytest.raises(AnswerConflict):
            checklist_answer_save(
                candidate=candidate, question="q6", actor=owner, status="unanswered", seen=""
            )

    def test_an_answer_reopens_a_review_with_changes_requested(self, candidate, owner):
        Review.objects.filter(pk=candidate.review_id).update(state="changes_requested")
        checklist_answer_save(
            candidate=candidate, question="q1", actor=owner, status="answered", text="Fits."
        )
        review = Review.objects.get(pk=candidate.review_id)
        assert review.state == "draft"
        assert list(review.audit_events.values_list("action", flat=True)) == [
            "reopened",
            "answer_saved",
        ]

    @pytest.mark.parametrize("state", ["submitted", "approved", "rejected"])
    def test_it_refuses_a_review_that_is_not_editable(self, candidate, owner, state):
        Review.objects.filter(pk=candidate.review_id).update(state=state)
        with pytest.raises(ReviewConflict):
            checklist_answer_save(
                candidate=candidate, question="q1", actor=owner, status="answered", text="x"
            )
        assert not ChecklistAnswer.objects.exists()

    def test_it_refuses_a_user_outside_the_team(self, candidate, outsider):
        with pytest.raises(PermissionDenied):
            checklist_answer_save(
                candidate=candidate, question="q1", actor=outsider, status="answered", text="x"
            )


class MigrationEffortSaveTests:
    """SPEC 6.1 T: the Q5 answer carries its candidate's migration effort (engineer hours)."""

    def test_it_stores_the_effort_on_the_candidate_and_audits_it(self, candidate, owner):
        checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="Same image; two days of work.",
            migration_effort_hours=16,
        )
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours == 16.0
        review = Review.objects.get(pk=candidate.review_id)
        assert (review.version, review.inputs_generation) == (2, 2)
        offer = build_review_input(review)["offers"][0]
        assert offer["migration_effort_hours"] == 16.0
        event = review.audit_events.get()
        assert event.target.endswith("· Q5")
        assert event.changes["migration_effort_hours"] == [None, "16.0"]

    def test_an_effort_change_alone_is_saved_audited_and_moves_the_token(self, candidate, owner):
        first = checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="x",
            migration_effort_hours=4,
        )
        token = answer_token(first)
        second = checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="x",
            migration_effort_hours=None,
            seen=token,
        )
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours is None
        assert answer_token(second) != token  # another editor's form now sees a conflict
        event = Review.objects.get(pk=candidate.review_id).audit_events.order_by("id").last()
        assert event.changes == {"migration_effort_hours": ["4.0", None]}

    def test_an_unchanged_effort_writes_nothing(self, candidate, owner):
        for _ in range(2):
            checklist_answer_save(
                candidate=candidate,
                question="q5",
                actor=owner,
                status="answered",
                text="x",
                migration_effort_hours=4.0,
            )
        review = Review.objects.get(pk=candidate.review_id)
        assert (review.version, review.audit_events.count()) == (2, 1)

    @pytest.mark.parametrize("value", [-1, float("nan"), float("inf"), "soon"])
    def test_it_refuses_a_bad_effort_on_its_field_and_stores_nothing(self, candidate, owner, value):
        with pytest.raises(ValidationError) as exc:
            checklist_answer_save(
                candidate=candidate,
                question="q5",
                actor=owner,
                status="answered",
                text="x",
                migration_effort_hours=value,
            )
        assert "migration_effort_hours" in exc.value.message_dict
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours is None
        assert not ChecklistAnswer.objects.exists()

    def test_only_q5_carries_an_effort(self, candidate, owner):
        with pytest.raises(ValidationError) as exc:
            checklist_answer_save(
                candidate=candidate,
                question="q4",
                actor=owner,
                status="answered",
                text="x",
                migration_effort_hours=3,
            )
        assert "migration_effort_hours" in exc.value.message_dict
        assert not ChecklistAnswer.objects.exists()

    def test_another_question_leaves_the_effort_alone(self, candidate, owner):
        checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="x",
            migration_effort_hours=6,
        )
        checklist_answer_save(
            candidate=candidate, question="q1", actor=owner, status="answered", text="Fits."
        )
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours == 6.0

    def test_a_signed_review_keeps_its_effort(self, candidate, owner):
        Review.objects.filter(pk=candidate.review_id).update(state="approved")
        with pytest.raises(ReviewConflict):
            checklist_answer_save(
                candidate=candidate,
                question="q5",
                actor=owner,
                status="unanswered",
                migration_effort_hours=99,
            )
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours is None
