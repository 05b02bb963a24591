"""The scoring demo: snapshots for every demo review, a quarterly history, idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.accounts.models import Team
from apps.reviews.models import Review
from apps.scoring.models import EvaluationSnapshot, QuarterlyCostReview

pytestmark = pytest.mark.django_db


class ScoringDemoTests:
    def test_it_leaves_every_review_evaluated_and_a_quarterly_history(self):
        call_command("load_demo", verbosity=0)
        reviews = Review.objects.count()
        snapshots = EvaluationSnapshot.objects.count()
        assert reviews >= 8
        assert not Review.objects.filter(snapshots__isnull=True).exists()
        aurora = Team.objects.get(slug="aurora")
        rows = list(QuarterlyCostReview.objects.filter(team=aurora).order_by("quarter"))
        assert len(rows) == 3
        # Two earlier quarters moved compute next to the data: dearer compute, fees avoided.
        for row in rows[:2]:
            assert row.compute_saved < 0 < row.net and row.transfer_fees < 0
            assert row.net == pytest.approx(row.compute_saved - row.transfer_fees)

        call_command("load_demo", verbosity=0)
        assert Review.objects.count() == reviews
        assert EvaluationSnapshot.objects.count() == snapshots
        assert QuarterlyCostReview.objects.filter(team=aurora).count() == 3
