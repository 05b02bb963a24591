"""Calibration reads actual outcomes: a run over 1.2 × its planned cost or hours is bad."""

from __future__ import annotations

import pytest

from apps.actuals import services
from apps.teams.calibration import BAD, GOOD, outcome
from apps.teams.calibration.history import calibration_points
from tests.actuals.helpers import approved_review


class OutcomeTests:
    def test_a_run_over_its_plan_is_bad_and_one_within_is_good(self):
        assert outcome(review_state="approved", actual_runs=[{"over": ["cost"]}]) == (
            BAD, ["over_cost"])
        assert outcome(review_state="approved", actual_runs=[{"over": ["hours"]}]) == (
            BAD, ["slower"])
        assert outcome(review_state="approved", actual_runs=[{"over": []}]) == (GOOD, ["on_plan"])


@pytest.mark.django_db
class CalibrationFromActualsTests:
    @pytest.mark.parametrize(
        ("compute", "label", "reasons"),
        [
            # Planned 200 + 60 = 260 per run; 1.2 × 260 = 312. 252 + 60 = 312: within the plan.
            (252.0, GOOD, ["on_plan"]),
            # 253 + 60 = 313 > 312: over.
            (253.0, BAD, ["over_cost"]),
        ],
    )
    def test_the_task_point_follows_its_actual_cost(
        self, team, member, reviewer, compute, label, reasons
    ):
        review = approved_review(team, member, reviewer)
        services.actual_create(team=team, data={
            "review": review.pk, "period": "2026-03-01", "compute_cost": compute,
            "transfer_cost": 60})
        [point] = [p for p in calibration_points(team=team) if p.review_id == review.pk]
        assert (point.label, point.reasons) == (label, reasons)

    def test_hours_over_1_2_times_the_plan_are_bad(self, team, member, reviewer):
        # Planned 10.004333 h end to end; 12.1 h > 1.2 × 10.004333 = 12.0052 h.
        review = approved_review(team, member, reviewer)
        services.actual_create(team=team, data={
            "review": review.pk, "period": "2026-03-01", "compute_cost": 200,
            "transfer_cost": 60, "hours": 12.1})
        [point] = [p for p in calibration_points(team=team) if p.review_id == review.pk]
        assert (point.label, point.reasons) == (BAD, ["slower"])
