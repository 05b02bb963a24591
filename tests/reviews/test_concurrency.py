"""Two connections acting on one review at the same moment (PostgreSQL only).

Each thread has its own database connection (Django's connections are per thread); a Barrier
releases them together, and whoever gets the review lock first holds it until the other one has
really arrived (PostgreSQL shows it waiting on a lock) or is done: an event waited for with a
bound, not a fixed pause.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from apps.profiles.models import TaskProfile
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import AuditEvent, Review, SignOff
from apps.reviews.services import signoff as signoff_service
from apps.reviews.services.signoff import signoff_create
from apps.reviews.snapshots.services import snapshot_compute
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from tests.reviews.helpers import second_reviewer, submitted_review
from tests.services import need_postgres

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10  # seconds: the bound on waiting for the other thread, never reached when all is well


class LockProbe:
    """What the thread holding the review lock waits for: the other thread blocked on a lock, or
    done (a write the lock does not cover, a refusal). `held` is set once the lock is held."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.done = threading.Event()

    def other_arrived(self) -> bool:
        if self.done.is_set():
            return True
        with connection.cursor() as cur:
            cur.execute("SELECT pg_stat_clear_snapshot()")  # fresh, not the transaction's view
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            return cur.fetchone()[0] > 0


def wait_for(condition, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def run_together(*calls, probe: LockProbe | None = None):
    """Run the calls in parallel threads, released together; [(ok, value or exception)]."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def runner(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = (True, call())
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = (False, exc)
        finally:
            connections.close_all()
            if probe is not None:
                probe.done.set()

    threads = [threading.Thread(target=runner, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(r is not None for r in results), "a thread did not finish"
    return results


@pytest.fixture
def slow_lock(monkeypatch) -> LockProbe:
    """In every sign-off, the first to hold the review lock keeps it until the other thread has
    arrived (blocked on it, or done), so the two really overlap."""
    probe = LockProbe()
    original = signoff_service._signoff_reasons

    def held_until_the_other_arrives(*args, **kwargs):
        if not probe.held.is_set():  # inside the lock: one thread at a time gets here
            probe.held.set()
            wait_for(probe.other_arrived)
        return original(*args, **kwargs)

    monkeypatch.setattr(signoff_service, "_signoff_reasons", held_until_the_other_arrives)
    return probe


def decide(review_id: int, reviewer, decision: str, snapshot_id: int, version: int):
    review = Review.objects.get(pk=review_id)
    return signoff_create(
        review=review,
        reviewer=reviewer,
        decision=decision,
        comment="" if decision == "approve" else "Not this one.",
        snapshot_id=snapshot_id,
        version=version,
    )


class ConcurrentSignOffTests:
    def test_two_approvals_at_once_both_count_and_approve_exactly_once(
        self, team, owner, reviewer, slow_lock
    ):
        need_postgres()
        team.approvals_required = 2
        team.save()
        review = submitted_review(team, owner)
        other = second_reviewer(team)
        snapshot = snapshot_compute(review_id=review.pk)
        results = run_together(
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            lambda: decide(review.pk, other, "approve", snapshot.pk, review.version),
            probe=slow_lock,
        )
        assert [ok for ok, _ in results] == [True, True], results
        review.refresh_from_db()
        assert review.state == "approved"
        assert set(review.signoffs.values_list("reviewer__username", flat=True)) == {
            "reviewer",
            "reviewer2",
        }
        assert AuditEvent.objects.filter(review=review, action="approved").count() == 1
        assert AuditEvent.objects.filter(review=review, action="signed_off").count() == 2
        assert review.frozen_input == snapshot.input

    def test_approve_against_reject_one_wins_and_the_other_is_told(
        self, team, owner, reviewer, slow_lock
    ):
        need_postgres()
        review = submitted_review(team, owner)
        other = second_reviewer(team)
        snapshot = snapshot_compute(review_id=review.pk)
        results = run_together(
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            lambda: decide(review.pk, other, "reject", snapshot.pk, review.version),
            probe=slow_lock,
        )
        winners = [value for ok, value in results if ok]
        losers = [value for ok, value in results if not ok]
        assert len(winners) == 1 and len(losers) == 1, results
        assert isinstance(losers[0], ReviewConflict)
        assert "no longer waiting for a decision" in losers[0].message
        review.refresh_from_db()
        signoffs = list(SignOff.objects.filter(review=review))
        assert signoffs == winners  # the only decision recorded is the winner's
        expected = {"approve": "approved", "reject": "rejected"}[winners[0].decision]
        assert review.state == expected
        assert AuditEvent.objects.filter(review=review, action=expected).count() == 1
        assert AuditEvent.objects.filter(review=review, action="signed_off").count() == 1

    def test_the_same_reviewer_twice_at_once_records_one_decision(
        self, team, owner, reviewer, slow_lock
    ):
        need_postgres()
        team.approvals_required = 2
        team.save()
        review = submitted_review(team, owner)
        snapshot = snapshot_compute(review_id=review.pk)
        results = run_together(
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            probe=slow_lock,
        )
        assert sorted(ok for ok, _ in results) == [False, True]
        loser = next(value for ok, value in results if not ok)
        assert isinstance(loser, ReviewRefused)
        assert loser.codes == {"already_decided"}
        assert SignOff.objects.filter(review=review).count() == 1


class AuthorEditsWhileReviewerApprovesTests:
    def test_an_answer_saved_during_the_approval_is_refused_never_both(
        self, team, owner, reviewer, slow_lock
    ):
        need_postgres()
        review = submitted_review(team, owner)
        candidate = review.candidates.get()
        snapshot = snapshot_compute(review_id=review.pk)

        def edit():
            return checklist_answer_save(
                candidate=candidate,
                question="q6",
                actor=owner,
                status="unanswered",
                text="On second thought…",
            )

        results = run_together(
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            edit,
            probe=slow_lock,
        )
        approved_ok, edit_ok = results[0][0], results[1][0]
        assert not (approved_ok and edit_ok), results
        review.refresh_from_db()
        answer = ChecklistAnswer.objects.get(candidate=candidate, question="q6")
        if approved_ok:
            assert review.state == "approved"
            assert isinstance(results[1][1], ReviewConflict)
            assert answer.status == "answered"
            assert review.frozen_input == snapshot.input
        else:
            assert review.state == "submitted"

    def test_a_profile_edited_during_the_approval_makes_it_stale_or_is_not_signed(
        self, team, owner, reviewer, slow_lock
    ):
        need_postgres()
        review = submitted_review(team, owner)
        snapshot = snapshot_compute(review_id=review.pk)
        signed_hours = snapshot.input["task"]["compute_hours"]

        def edit_profile():
            assert slow_lock.held.wait(timeout=WAIT)  # while the approval holds the review lock
            TaskProfile.objects.filter(pk=review.task_id).update(compute_hours=signed_hours + 7)
            return "edited"

        results = run_together(
            lambda: decide(review.pk, reviewer, "approve", snapshot.pk, review.version),
            edit_profile,
            probe=slow_lock,
        )
        assert results[1] == (True, "edited")
        review.refresh_from_db()
        approved_ok, outcome = results[0]
        if approved_ok:
            # Signed before the edit could be seen: what is frozen is what was signed.
            assert review.state == "approved"
            assert review.frozen_input == snapshot.input
            assert review.frozen_input["task"]["compute_hours"] == signed_hours
        else:
            assert isinstance(outcome, ReviewRefused)
            assert outcome.codes == {"stale_snapshot"}
            assert review.state == "submitted"
            assert not review.signoffs.exists()
