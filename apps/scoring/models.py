"""The quarterly cost review (the snapshots it is drawn from are the reviews app's)."""

from __future__ import annotations

from django.db import models

from apps.accounts.models import Team, TeamScopedQuerySet


class QuarterlyCostReview(models.Model):
    """按季对账: compute cost saved by chosen placements against transfer fees paid."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="quarterly_reviews")
    quarter = models.CharField(max_length=7)  # e.g. 2026Q4
    compute_saved = models.FloatField(default=0)
    transfer_fees = models.FloatField(default=0)
    net = models.FloatField(default=0)
    reviews_counted = models.PositiveIntegerField(default=0)
    # Plan against actual (SPEC 6.3): reviews counted from their plan alone, the actual runs
    # counted, and the plan against the actuals of those runs.
    planned_reviews = models.PositiveIntegerField(default=0)
    runs_counted = models.PositiveIntegerField(default=0)
    planned_compute = models.FloatField(default=0)
    planned_transfer = models.FloatField(default=0)
    actual_compute = models.FloatField(default=0)
    actual_transfer = models.FloatField(default=0)
    # What the figures were computed from (apps.scoring.quarterly.figures_inputs): when the team's
    # actual costs or sign-offs no longer match it, the figures are stale and recomputed.
    inputs = models.CharField(max_length=64, blank=True, default="")
    computed_at = models.DateTimeField(auto_now=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["team_id", "quarter"]
        constraints = [
            models.UniqueConstraint(fields=["team", "quarter"], name="quarterly_unique")
        ]

    def __str__(self) -> str:
        return f"{self.team_id} {self.quarter}"

    @property
    def actual_variance(self) -> float:
        """What the runs counted from actuals cost over (+) or under (−) their plan."""
        return (self.actual_compute + self.actual_transfer) - (
            self.planned_compute + self.planned_transfer
        )
