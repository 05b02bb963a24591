"""Review services of a review's life (apps/reviews/services/lifecycle.py): create, edit, submit,
clone; every transition and every refusal (SPEC S, issue 6)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import Candidate, Review
from apps.reviews.services.candidates import (
    candidate_add,
    candidate_remove,
    candidate_update,
    review_reserve_links,
)
from apps.reviews.services.lifecycle import review_create, review_update
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_clone, review_submit
from apps.reviews.snapshots.services import build_review_input, current_snapshot
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from tests.factories import (
    make_link,
    make_offer,
    make_profile,
    make_review,
    make_site,
)
from tests.reviews.helpers import (
    answer_all,
    approve,
    current_snapshot_id,
    ready_review,
    submitted_review,
)

pytestmark = pytest.mark.django_db


def actions(review) -> list[str]:
    return list(review.audit_events.order_by("id").values_list("action", flat=True))


class ReviewCreateTests:
    def test_it_creates_a_draft_with_candidates_and_an_audit_event(self, team, owner):
        task = make_profile(team)
        a, b = make_offer(team), make_offer(team)
        review = review_create(
            team=team, author=owner, task=task, title=" Where to run ", candidates=[(a, 2), (b, 1)]
        )
        assert review.state == "draft"
        assert review.title == "Where to run"
        assert list(review.candidates.values_list("offer_id", "machines", "position")) == [
            (a.pk, 2, 0),
            (b.pk, 1, 1),
        ]
        event = review.audit_events.get()
        assert (event.action, event.actor, event.changes["task"]) == (
            "created",
            owner,
            [None, task.name],
        )

    def test_it_refuses_a_task_of_another_team(self, team, other_team, owner):
        with pytest.raises(ValidationError) as exc:
            review_create(
                team=team, author=owner, task=make_profile(other_team), title="x"
            )
        assert "task" in exc.value.message_dict
        assert Review.objects.count() == 0

    def test_it_refuses_an_offer_of_another_team(self, team, other_team, owner):
        with pytest.raises(ValidationError) as exc:
            review_create(
                team=team,
                author=owner,
                task=make_profile(team),
                title="x",
                candidates=[(make_offer(other_team), 1)],
            )
        assert "offers" in exc.value.message_dict
        assert Review.objects.count() == 0

    def test_it_refuses_a_user_outside_the_team(self, team, outsider):
        with pytest.raises(PermissionDenied):
            review_create(team=team, author=outsider, task=make_profile(team), title="x")


class ReviewEditTests:
    def test_it_updates_the_title_bumping_the_version_only(self, team, owner):
        review = ready_review(team, owner)
        before = (review.version, review.inputs_generation)
        review = review_update(
            review=review, actor=owner, title="New title", version=review.version
        )
        review.refresh_from_db()
        assert review.title == "New title"
        assert (review.version, review.inputs_generation) == (before[0] + 1, before[1])
        event = review.audit_events.get(action="updated")
        assert event.changes == {"title": [f"Review of {review.task.name}", "New title"]}

    def test_it_refuses_an_edit_made_on_an_old_version(self, team, owner, member):
        review = ready_review(team, owner)
        seen = review.version
        review_update(review=review, actor=member, title="Theirs", version=seen)
        with pytest.raises(ReviewConflict):
            review_update(review=review, actor=owner, title="Mine", version=seen)
        review.refresh_from_db()
        assert review.title == "Theirs"

    def test_candidate_changes_bump_the_inputs_generation_and_are_audited(self, team, owner):
        review = ready_review(team, owner)
        gen = review.inputs_generation
        offer = make_offer(team, site=review.task.home_site)
        candidate = candidate_add(review=review, actor=owner, offer=offer, machines=2)
        candidate_update(candidate=candidate, actor=owner, machines=3)
        candidate_remove(candidate=candidate, actor=owner)
        review.refresh_from_db()
        assert review.inputs_generation == gen + 3
        assert actions(review)[-3:] == ["candidate_added", "candidate_updated", "candidate_removed"]
        updated = review.audit_events.get(action="candidate_updated")
        assert updated.changes == {"machines": [2, 3]}
        assert not Candidate.objects.filter(pk=candidate.pk).exists()

    def test_it_refuses_a_duplicate_candidate_and_too_many_machines(self, team, owner):
        review = ready_review(team, owner)
        existing = review.candidates.get().offer
        with pytest.raises(ValidationError) as exc:
            candidate_add(review=review, actor=owner, offer=existing, machines=1)
        assert "offer" in exc.value.message_dict
        small = make_offer(team, max_machines=2)
        with pytest.raises(ValidationError) as exc:
            candidate_add(review=review, actor=owner, offer=small, machines=3)
        assert "machines" in exc.value.message_dict
        assert review.candidates.count() == 1

    def test_it_reserves_only_reservable_links_of_the_team(self, team, other_team, owner):
        review = ready_review(team, owner)
        a, b = make_site(team), make_site(team)
        reservable = make_link(team, a, b, reservable=True)
        fixed = make_link(team, b, a, reservable=False)
        with pytest.raises(ValidationError):
            review_reserve_links(review=review, actor=owner, links=[fixed])
        x, y = make_site(other_team), make_site(other_team)
        with pytest.raises(ValidationError):
            review_reserve_links(
                review=review, actor=owner, links=[make_link(other_team, x, y, reservable=True)]
            )
        review_reserve_links(review=review, actor=owner, links=[reservable])
        assert list(review.reserved_links.all()) == [reservable]
        assert build_review_input(review)["links"][0]["reserved"] is True
        assert review.audit_events.filter(action="links_reserved").count() == 1

    @pytest.mark.parametrize("state", ["submitted", "approved", "rejected"])
    def test_every_edit_is_refused_unless_draft_or_changes_requested(self, team, owner, state):
        review = ready_review(team, owner)
        Review.objects.filter(pk=review.pk).update(state=state)
        candidate = review.candidates.get()
        edits = [
            lambda: review_update(review=review, actor=owner, title="x"),
            lambda: candidate_add(
                review=review, actor=owner, offer=make_offer(team), machines=1
            ),
            lambda: candidate_update(candidate=candidate, actor=owner, machines=4),
            lambda: candidate_remove(candidate=candidate, actor=owner),
            lambda: review_reserve_links(review=review, actor=owner, links=[]),
            lambda: checklist_answer_save(
                candidate=candidate, question="q1", actor=owner, status="unanswered"
            ),
        ]
        for edit in edits:
            with pytest.raises(ReviewConflict):
                edit()
        assert candidate.machines == Candidate.objects.get(pk=candidate.pk).machines == 1
        assert not review.audit_events.exclude(action="created").exists()


class ReviewSubmitTests:
    def test_it_submits_a_ready_draft_with_a_snapshot(self, team, owner):
        team.approvals_required = 2
        team.save()
        review = ready_review(team, owner)
        snapshot = review_submit(review=review, actor=owner, version=review.version)
        review.refresh_from_db()
        assert review.state == "submitted"
        assert review.submitted_at is not None
        assert review.approvals_required == 2
        assert snapshot == current_snapshot(review)
        event = review.audit_events.get(action="submitted")
        assert event.changes["state"] == ["draft", "submitted"]
        assert event.changes["snapshot"] == [None, snapshot.pk]

    def test_it_refuses_a_review_without_candidates(self, team, owner):
        review = make_review(team, owner)
        with pytest.raises(ReviewRefused) as exc:
            review_submit(review=review, actor=owner)
        assert exc.value.codes == {"no_candidates"}
        review.refresh_from_db()
        assert review.state == "draft"

    def test_it_refuses_while_the_checklist_gate_is_not_met(self, team, owner):
        review = ready_review(team, owner, unanswered=2)
        with pytest.raises(ReviewRefused) as exc:
            review_submit(review=review, actor=owner)
        rules = [r["rule"] for r in exc.value.reasons]
        assert rules == ["C"]
        assert "2 of 6" in exc.value.reasons[0]["message"]
        review.refresh_from_db()
        assert review.state == "draft"
        # The figures stay: the page shows the findings that stopped the submission.
        assert current_snapshot(review) is not None
        assert not review.audit_events.filter(action="submitted").exists()

    def test_one_unanswered_question_is_a_warning_not_a_block(self, team, owner):
        review = ready_review(team, owner, unanswered=1)
        snapshot = review_submit(review=review, actor=owner)
        assert [f["severity"] for f in snapshot.output["findings"] if f["rule"] == "C"] == ["warn"]
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_it_refuses_while_a_block_finding_stands(self, team, owner):
        # The only offer sits at a site with no recorded link: no feasible placement (P2).
        home = make_site(team)
        task = make_profile(team, site=home)
        review = make_review(team, owner, task=task, offers=[make_offer(team)])
        answer_all(review, owner)
        with pytest.raises(ReviewRefused) as exc:
            review_submit(review=review, actor=owner)
        assert "P2" in [r["rule"] for r in exc.value.reasons]
        review.refresh_from_db()
        assert review.state == "draft"

    def test_it_refuses_a_stale_version_and_a_submitted_review(self, team, owner):
        review = ready_review(team, owner)
        with pytest.raises(ReviewConflict):
            review_submit(review=review, actor=owner, version=review.version - 1)
        review_submit(review=review, actor=owner)
        with pytest.raises(ReviewConflict):
            review_submit(review=review, actor=owner)


class ReviewCloneTests:
    def test_it_clones_an_approved_review_into_a_new_draft(self, team, owner, reviewer, member):
        review = submitted_review(team, owner)
        approve(review, reviewer)
        clone = review_clone(review=review, actor=member)
        assert (clone.state, clone.author, clone.cloned_from) == ("draft", member, review)
        assert clone.task_id == review.task_id
        assert [(c.offer_id, c.machines) for c in clone.candidates.all()] == [
            (c.offer_id, c.machines) for c in review.candidates.all()
        ]
        copied = ChecklistAnswer.objects.filter(candidate__review=clone)
        assert sorted(copied.values_list("question", "status", "text")) == sorted(
            ChecklistAnswer.objects.filter(candidate__review=review).values_list(
                "question", "status", "text"
            )
        )
        assert clone.audit_events.get().changes["cloned_from"] == [None, review.pk]
        assert review.audit_events.filter(action="cloned").count() == 1
        # The clone is an ordinary draft: it can be edited and submitted again.
        review_submit(review=clone, actor=member)
        clone.refresh_from_db()
        assert clone.state == "submitted"

    def test_a_clone_keeps_each_candidates_migration_effort(self, team, owner, reviewer):
        review = ready_review(team, owner)
        checklist_answer_save(
            candidate=review.candidates.get(),
            question="q5",
            actor=owner,
            status="answered",
            text="Two days.",
            migration_effort_hours=16,
        )
        review_submit(review=review, actor=owner)
        review.refresh_from_db()
        approve(review, reviewer)
        clone = review_clone(review=review, actor=owner)
        assert clone.candidates.get().migration_effort_hours == 16.0
        assert build_review_input(clone)["offers"][0]["migration_effort_hours"] == 16.0

    def test_it_clones_a_rejected_review(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        signoff_create(
            review=review,
            reviewer=reviewer,
            decision="reject",
            comment="No.",
            snapshot_id=current_snapshot_id(review),
        )
        clone = review_clone(review=review, actor=owner)
        assert clone.state == "draft"

    @pytest.mark.parametrize("state", ["draft", "submitted", "changes_requested"])
    def test_it_refuses_to_clone_a_review_that_is_not_final(self, team, owner, state):
        review = ready_review(team, owner)
        Review.objects.filter(pk=review.pk).update(state=state)
        with pytest.raises(ReviewConflict):
            review_clone(review=review, actor=owner)
        assert Review.objects.count() == 1
