"""Actual cost records (SPEC 6.3 "plan against actual"): what one run of an approved review's
chosen option really cost and took, against the plan it was signed on."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamOwnedQuerySet, TeamScopedQuerySet
from apps.reviews.models import Review
from apps.web.ingest.models import IngestedRecord


class Source(models.TextChoices):
    FORM = "form", _("Form")
    CSV = "csv", _("CSV import")
    API = "api", _("API")
    BILL = "bill", _("Provider bill")


class BillCost(models.TextChoices):
    BILLED = "billed", _("Billed cost (as invoiced)")
    EFFECTIVE = "effective", _("Effective cost (amortised commitments)")


class ActualCost(IngestedRecord):
    """One run of a review's chosen option (a bill: the review's lines of one month), in the
    team's currency."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="actual_costs")
    review = models.ForeignKey(
        Review, on_delete=models.PROTECT, related_name="actual_costs", verbose_name=_("review")
    )
    # The day the run started; for a bill, the first day of the month its lines were used in.
    period = models.DateField(_("period"))
    compute_cost = models.FloatField(_("compute cost"), default=0)
    transfer_cost = models.FloatField(_("transfer cost"), default=0)
    gpu_hours = models.FloatField(_("GPU-hours"), null=True, blank=True)
    hours = models.FloatField(_("hours end to end"), null=True, blank=True)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default="form")
    # The provider's line reference(s): an invoice line, a CUR line item id, a job id.
    reference = models.CharField(_("reference"), max_length=200, blank=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-period", "-id"]
        indexes = [
            models.Index(fields=["review", "period"], name="actual_review_period"),
            models.Index(fields=["team", "-period"], name="actual_team_recent"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="actual_unique_idempotency_key",
            ),
            models.CheckConstraint(
                condition=Q(compute_cost__gte=0) & Q(transfer_cost__gte=0),
                name="actual_costs_nonneg",
            ),
            models.CheckConstraint(
                condition=(Q(gpu_hours__isnull=True) | Q(gpu_hours__gte=0))
                & (Q(hours__isnull=True) | Q(hours__gte=0)),
                name="actual_hours_nonneg",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.review_id} {self.period:%Y-%m-%d}"

    @property
    def total_cost(self) -> float:
        return self.compute_cost + self.transfer_cost


class ActualsSettings(models.Model):
    """A team's settings of plan against actual (absent: the defaults)."""

    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, primary_key=True, related_name="actuals_settings"
    )
    # The notice on the next review of a task: its last run cost more than this % over plan.
    over_plan_pct = models.FloatField(_("over-plan notice from (%)"), default=20.0)
    # Provider bills: the tag key that names a review on a bill line, and which cost is read.
    bill_tag_key = models.CharField(_("bill tag key"), max_length=60, default="review")
    bill_cost = models.CharField(
        _("bill cost"), max_length=9, choices=BillCost.choices, default=BillCost.BILLED
    )
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(over_plan_pct__gte=0) & Q(over_plan_pct__lte=1000),
                name="actuals_over_plan_pct_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.team_id}: {self.over_plan_pct:g} %"


class BillLine(models.Model):
    """A provider bill line imported into an actual record: a second import of the same line is
    refused by its fingerprint, so a bill imported twice saves nothing the second time."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    record = models.ForeignKey(ActualCost, on_delete=models.CASCADE, related_name="bill_lines")
    fingerprint = models.CharField(max_length=64)
    line = models.PositiveIntegerField()  # in the file it came from (header = 1)
    reference = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=8)  # compute | transfer
    amount = models.FloatField()

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "fingerprint"], name="bill_line_unique")
        ]

    def __str__(self) -> str:
        return f"{self.reference or self.fingerprint[:12]} {self.amount:g}"
