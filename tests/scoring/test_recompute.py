"""Recomputing snapshots after an engine version change (command and task)."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.scoring import engine, services
from apps.scoring.models import EvaluationSnapshot
from apps.scoring.tasks import recompute_snapshots
from tests.factories import make_review
from tests.scoring.helpers import answer_all, approve, make_world

pytestmark = pytest.mark.django_db


def _age(snapshot: EvaluationSnapshot) -> None:
    """Make a snapshot look computed by an older engine (another version, another key)."""
    EvaluationSnapshot.objects.filter(pk=snapshot.pk).update(
        engine_version="0.9.0", fingerprint="0" * 64
    )


@pytest.fixture
def outdated(team, owner, reviewer, other_team, outsider):
    world = make_world(team, owner)
    drafts = [world.review]
    for _ in range(4):
        review = make_review(team, owner, task=world.task, offers=[world.local, world.remote])
        answer_all(review)
        drafts.append(review)
    for review in drafts:
        _age(services.snapshot_compute(review_id=review.pk))
    approved = make_review(team, owner, task=world.task, offers=[world.local])
    signed = services.snapshot_compute(review_id=approved.pk)
    _age(signed)
    approve(approved, reviewer, signed, datetime(2026, 1, 5, tzinfo=UTC))
    other = make_world(other_team, outsider)
    _age(services.snapshot_compute(review_id=other.review.pk))
    current = make_review(team, owner, task=world.task, offers=[world.near_data])
    services.snapshot_compute(review_id=current.pk)  # already on this engine
    return {"drafts": drafts, "approved": approved, "other": other.review, "current": current}


def _versions(review) -> list[str]:
    return list(review.snapshots.order_by("created_at", "id").values_list("engine_version", flat=True))


class RecomputeCommandTests:
    def test_it_recomputes_outdated_reviews_in_batches_and_keeps_approved_ones(self, outdated):
        out = StringIO()
        call_command("recompute_snapshots", "--batch-size", "2", stdout=out)
        text = out.getvalue()
        for review in outdated["drafts"] + [outdated["other"]]:
            assert _versions(review) == ["0.9.0", engine.ENGINE_VERSION]
        assert _versions(outdated["approved"]) == ["0.9.0"]
        assert _versions(outdated["current"]) == [engine.ENGINE_VERSION]
        # 8 reviews in batches of 2: a progress line per batch, then the summary.
        assert text.count("  up to review") == 4
        assert "recomputed 6, 1 approved kept as signed, 0 failed" in text

    def test_it_is_idempotent(self, outdated):
        call_command("recompute_snapshots", stdout=StringIO())
        count = EvaluationSnapshot.objects.count()
        out = StringIO()
        call_command("recompute_snapshots", stdout=out)
        assert EvaluationSnapshot.objects.count() == count
        assert "recomputed 0" in out.getvalue()

    def test_it_changes_nothing_in_a_dry_run(self, outdated):
        count = EvaluationSnapshot.objects.count()
        out = StringIO()
        call_command("recompute_snapshots", "--dry-run", stdout=out)
        assert EvaluationSnapshot.objects.count() == count
        assert "would recompute 6" in out.getvalue()

    def test_it_limits_itself_to_one_team(self, outdated, team):
        call_command("recompute_snapshots", "--team", str(team.pk), stdout=StringIO())
        assert _versions(outdated["drafts"][0])[-1] == engine.ENGINE_VERSION
        assert _versions(outdated["other"]) == ["0.9.0"]

    def test_it_refuses_bad_arguments(self, db):
        with pytest.raises(CommandError, match="no team"):
            call_command("recompute_snapshots", "--team", "987654", stdout=StringIO())
        with pytest.raises(CommandError, match="batch-size"):
            call_command("recompute_snapshots", "--batch-size", "0", stdout=StringIO())


class RecomputeTaskTests:
    def test_it_chains_batches_until_done(self, outdated):
        result = recompute_snapshots.apply(kwargs={"batch_size": 3}).get()
        assert result["reviews"] == 3  # the first batch; the rest ran as chained tasks
        for review in outdated["drafts"] + [outdated["other"]]:
            assert _versions(review)[-1] == engine.ENGINE_VERSION
        assert _versions(outdated["approved"]) == ["0.9.0"]
