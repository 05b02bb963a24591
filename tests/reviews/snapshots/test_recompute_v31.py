"""Engine 3.1.0 (SPEC 7.4, 7.5, 7.11) over the reviews of 3.0.0, as 3.0 did over 2.x: open ones
get a 3.1.0 snapshot carrying the new figures; an approved one keeps the 3.0.0 snapshot it was
signed on."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command

import engine
from apps.reviews.models import EvaluationSnapshot, Review
from apps.reviews.snapshots.services import snapshot_compute
from tests.factories import make_review
from tests.scoring.helpers import answer_all, approve, make_world

pytestmark = pytest.mark.django_db


def _as_3_0(snapshot: EvaluationSnapshot) -> None:
    output = dict(snapshot.output, engine_version="3.0.0")
    for option in output["options"]:  # what 3.0.0 wrote: neither 3.1 figure
        option.pop("input_overlapped", None)
        option.pop("scheduler_ops_cost", None)
    EvaluationSnapshot.objects.filter(pk=snapshot.pk).update(
        engine_version="3.0.0", fingerprint="3" * 64, output=output
    )


def test_open_reviews_move_to_3_1_and_an_approved_one_keeps_3_0(team, owner, reviewer):
    assert engine.ENGINE_VERSION == "3.1.0"
    world = make_world(team, owner)
    _as_3_0(snapshot_compute(review_id=world.review.pk))

    approved = make_review(team, owner, task=world.task, offers=[world.local])
    answer_all(approved)
    signed = snapshot_compute(review_id=approved.pk)
    _as_3_0(signed)
    Review.objects.filter(pk=approved.pk).update(frozen_input=signed.input)
    approve(approved, reviewer, signed, datetime(2026, 1, 5, tzinfo=UTC))

    call_command("recompute_snapshots", stdout=StringIO())

    latest = world.review.snapshots.order_by("-created_at", "-id").first()
    assert latest.engine_version == "3.1.0"
    for option in latest.output["options"]:
        assert "input_overlapped" in option and "scheduler_ops_cost" in option
    assert list(approved.snapshots.values_list("engine_version", flat=True)) == ["3.0.0"]
