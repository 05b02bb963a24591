"""The scoring demo: snapshots for every demo review, a quarterly history, idempotent."""

from __future__ import annotations

import pytest

from apps.accounts.models import Team
from apps.reviews.models import Review
from apps.scoring.models import QuarterlyCostReview

pytestmark = pytest.mark.django_db


class ScoringDemoTests:
    def test_it_leaves_every_review_evaluated_and_a_quarterly_history(self, demo_world):
        assert Review.objects.count() >= 8
        assert not Review.objects.filter(snapshots__isnull=True).exists()
        aurora = Team.objects.get(slug="aurora")
        rows = list(QuarterlyCostReview.objects.filter(team=aurora).order_by("quarter"))
        assert len(rows) == 3
        # Two earlier quarters moved compute next to the data: dearer compute, fees avoided.
        for row in rows[:2]:
            assert row.compute_saved < 0 < row.net and row.transfer_fees < 0
            assert row.net == pytest.approx(row.compute_saved - row.transfer_fees)
        # A second load adds no review, snapshot or quarter: tests/teams/test_demo_world.py.
