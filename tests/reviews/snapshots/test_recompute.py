"""Recomputing snapshots after an engine version change (command and task): every open review
gets a snapshot by the current engine; decided reviews keep what they were decided on."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import engine
from apps.reviews.models import Review, SignOff
from apps.reviews.snapshots import recompute
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.services import (
    current_fingerprint,
    latest_snapshot,
    signed_snapshot,
    snapshot_compute,
)
from apps.reviews.tasks import recompute_snapshots_task
from tests.factories import make_review
from tests.scoring.helpers import answer_all, approve, make_world

pytestmark = pytest.mark.django_db

OLD = "0.9.0"


def _age(snapshot: EvaluationSnapshot) -> None:
    """Make a snapshot look computed by an older engine (another version, another key)."""
    EvaluationSnapshot.objects.filter(pk=snapshot.pk).update(
        engine_version=OLD, fingerprint="0" * 64
    )


def _aged_review(team, author, world, *, state: str = "draft") -> Review:
    review = make_review(team, author, task=world.task, offers=[world.local, world.remote])
    answer_all(review)
    _age(snapshot_compute(review_id=review.pk))
    Review.objects.filter(pk=review.pk).update(state=state)
    review.refresh_from_db()
    return review


@pytest.fixture
def outdated(team, owner, reviewer, other_team, outsider):
    """Reviews of every state, computed by engine 0.9.0, plus one never evaluated and one
    already current."""
    world = make_world(team, owner)
    _age(snapshot_compute(review_id=world.review.pk))
    drafts = [world.review] + [_aged_review(team, owner, world) for _ in range(2)]
    submitted = _aged_review(team, owner, world, state="submitted")
    changes = _aged_review(team, owner, world, state="changes_requested")

    approved = make_review(team, owner, task=world.task, offers=[world.local])
    answer_all(approved)
    signed = snapshot_compute(review_id=approved.pk)
    _age(signed)
    Review.objects.filter(pk=approved.pk).update(frozen_input=signed.input)
    approve(approved, reviewer, signed, datetime(2026, 1, 5, tzinfo=UTC))

    rejected = _aged_review(team, owner, world, state="submitted")
    SignOff.objects.create(
        review=rejected,
        reviewer=reviewer,
        decision="reject",
        comment="No.",
        snapshot=rejected.snapshots.get(),
    )
    Review.objects.filter(pk=rejected.pk).update(
        state="rejected", decided_at=datetime(2026, 1, 6, tzinfo=UTC)
    )

    other = make_world(other_team, outsider)
    _age(snapshot_compute(review_id=other.review.pk))
    never = make_review(team, owner, task=world.task, offers=[world.near_data])
    current = make_review(team, owner, task=world.task, offers=[world.near_data])
    snapshot_compute(review_id=current.pk)  # already on this engine
    return {
        "open": [*drafts, submitted, changes, other.review],
        "approved": approved,
        "signed": EvaluationSnapshot.objects.get(pk=signed.pk),
        "rejected": rejected,
        "never": never,
        "current": current,
    }


def _versions(review) -> list[str]:
    return list(
        review.snapshots.order_by("created_at", "id").values_list("engine_version", flat=True)
    )


class RecomputeCommandTests:
    def test_it_gives_every_open_review_a_current_snapshot_in_batches(self, outdated):
        out = StringIO()
        call_command("recompute_snapshots", "--batch-size", "3", stdout=out)
        text = out.getvalue()
        for review in outdated["open"]:
            assert _versions(review) == [OLD, engine.ENGINE_VERSION], review.state
            latest = latest_snapshot(review)
            assert latest.fingerprint == current_fingerprint(review)
            assert latest.output["engine_version"] == engine.ENGINE_VERSION
        assert _versions(outdated["never"]) == [engine.ENGINE_VERSION]
        assert _versions(outdated["current"]) == [engine.ENGINE_VERSION]
        # 10 reviews in batches of 3: a progress line per batch, then the summary.
        assert text.count("  up to review") == 4
        assert (
            "done: 10 reviews checked, recomputed 7, 1 approved kept as signed, "
            "1 rejected kept as decided, 0 failed" in text
        )

    def test_it_leaves_the_snapshot_an_approved_review_was_signed_on_untouched(self, outdated):
        call_command("recompute_snapshots", stdout=StringIO())
        approved, signed = outdated["approved"], outdated["signed"]
        assert list(approved.snapshots.values_list("pk", flat=True)) == [signed.pk]
        after = EvaluationSnapshot.objects.get(pk=signed.pk)
        assert (after.engine_version, after.fingerprint, after.output, after.input) == (
            OLD,
            signed.fingerprint,
            signed.output,
            signed.input,
        )
        assert signed_snapshot(approved) == after

    def test_it_leaves_a_rejected_review_as_it_was_decided(self, outdated):
        call_command("recompute_snapshots", stdout=StringIO())
        assert _versions(outdated["rejected"]) == [OLD]

    def test_it_is_idempotent(self, outdated):
        call_command("recompute_snapshots", stdout=StringIO())
        count = EvaluationSnapshot.objects.count()
        out = StringIO()
        call_command("recompute_snapshots", stdout=out)
        assert EvaluationSnapshot.objects.count() == count
        assert "recomputed 0," in out.getvalue()

    def test_it_changes_nothing_in_a_dry_run(self, outdated):
        count = EvaluationSnapshot.objects.count()
        out = StringIO()
        call_command("recompute_snapshots", "--dry-run", stdout=out)
        assert EvaluationSnapshot.objects.count() == count
        assert "would recompute 7," in out.getvalue()

    def test_it_limits_itself_to_one_team(self, outdated, team):
        call_command("recompute_snapshots", "--team", str(team.pk), stdout=StringIO())
        assert _versions(outdated["open"][0])[-1] == engine.ENGINE_VERSION
        assert _versions(outdated["open"][-1]) == [OLD]  # the other team's review

    def test_it_names_the_reviews_the_engine_refuses_and_goes_on(self, outdated, monkeypatch):
        refused = outdated["open"][1]
        evaluate, original = engine.evaluate, snapshot_compute
        computing = []

        def picky(data):
            if computing[-1] == refused.pk:
                raise engine.EngineInputError([{"field": "task.gpus", "message": "required"}])
            return evaluate(data)

        def compute(*, review_id, job_id=None):
            computing.append(review_id)
            return original(review_id=review_id, job_id=job_id)

        monkeypatch.setattr(engine, "evaluate", picky)
        monkeypatch.setattr(recompute, "snapshot_compute", compute)
        out, err = StringIO(), StringIO()
        call_command("recompute_snapshots", stdout=out, stderr=err)
        assert f"review {refused.pk} cannot be evaluated: task.gpus: required" in err.getvalue()
        assert "recomputed 6, 1 approved kept as signed, 1 rejected kept as decided, 1 failed" in (
            out.getvalue()
        )
        assert _versions(refused) == [OLD]
        assert _versions(outdated["open"][2]) == [OLD, engine.ENGINE_VERSION]

    def test_it_refuses_bad_arguments(self, db):
        with pytest.raises(CommandError, match="no team"):
            call_command("recompute_snapshots", "--team", "987654", stdout=StringIO())
        with pytest.raises(CommandError, match="batch-size"):
            call_command("recompute_snapshots", "--batch-size", "0", stdout=StringIO())


class RecomputeTaskTests:
    def test_it_chains_batches_until_done(self, outdated):
        result = recompute_snapshots_task.apply(kwargs={"batch_size": 3}).get()
        assert result["reviews"] == 3  # the first batch; the rest ran as chained tasks
        for review in outdated["open"] + [outdated["never"]]:
            assert _versions(review)[-1] == engine.ENGINE_VERSION
        assert _versions(outdated["approved"]) == [OLD]
        assert _versions(outdated["rejected"]) == [OLD]
