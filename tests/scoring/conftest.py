"""Fixtures of the scoring page tests: the small world of tests.scoring.helpers and its snapshot.

Imports are inside the fixtures: the engine tests in this folder run without Django."""

from __future__ import annotations

import pytest


@pytest.fixture
def world(team, owner):
    from tests.scoring.helpers import make_world

    return make_world(team, owner)


@pytest.fixture
def snapshot(world):
    from apps.reviews.snapshots.services import snapshot_compute

    return snapshot_compute(review_id=world.review.pk)
