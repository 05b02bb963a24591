"""Benchmark records: measured runs, network probes and pilot migrations (SPEC section 2)."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamScopedQuerySet
from apps.catalog.models import NetworkLink, Offer, Site, Tier
from apps.profiles.models import TaskProfile
from apps.web.ingest.models import IngestedRecord


class BenchmarkKind(models.TextChoices):
    SINGLE = "single", _("Single machine")
    MULTI = "multi", _("Multi-machine")
    NETWORK_PROBE = "network_probe", _("Network probe")
    PILOT_MIGRATION = "pilot_migration", _("Pilot migration")
    # SPEC 6.4: a preprocessing run next to the data; its figures can fill the task's staged plan.
    PREPROCESS = "preprocess", _("Preprocessing run")


class Recovery(models.TextChoices):
    FULL_RERUN = "full_rerun", _("Full rerun")
    PARTIAL_RETRY = "partial_retry", _("Partial retry")
    RESUME = "resume", _("Resume from checkpoint")


class Source(models.TextChoices):
    FORM = "form", _("Form")
    CSV = "csv", _("CSV import")
    API = "api", _("API")
    MLFLOW = "mlflow", _("MLflow import")


class BenchmarkRecord(IngestedRecord):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="benchmarks")
    task = models.ForeignKey(
        TaskProfile, on_delete=models.PROTECT, related_name="benchmarks", verbose_name=_("task")
    )
    offer = models.ForeignKey(
        Offer,
        on_delete=models.PROTECT,
        related_name="benchmarks",
        null=True,
        blank=True,
        verbose_name=_("offer"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=BenchmarkKind.choices)
    nodes = models.PositiveIntegerField(_("nodes"), default=1)
    gpus_per_node = models.PositiveIntegerField(_("GPUs per node"), default=1)
    e2e_hours = models.FloatField(_("end-to-end hours"), default=0)
    compute_hours = models.FloatField(_("compute hours"), default=0)
    transfer_hours = models.FloatField(_("transfer hours"), default=0)
    queue_hours = models.FloatField(_("queue hours (incl. start-up)"), default=0)
    comm_hours = models.FloatField(_("communication hours"), null=True, blank=True)
    peak_gpu_mem_gb = models.FloatField(_("peak GPU memory (GB)"), null=True, blank=True)
    failure_reruns = models.PositiveIntegerField(_("failure reruns"), default=0)
    hours_lost_per_rerun = models.FloatField(_("hours lost per rerun"), default=0)
    recovery = models.CharField(
        _("recovery"), max_length=16, choices=Recovery.choices, default=Recovery.FULL_RERUN
    )
    cost = models.FloatField(_("cost"), null=True, blank=True)
    # Network probes
    from_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    to_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bandwidth_gbps = models.FloatField(_("measured bandwidth (Gbit/s)"), null=True, blank=True)
    rtt_ms = models.FloatField(_("measured RTT (ms)"), null=True, blank=True)
    applied_to_link = models.ForeignKey(
        NetworkLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="probes"
    )
    # When the probe's figures were last copied onto applied_to_link (the link shows the latest).
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    # Pilot migrations
    tier = models.CharField(_("tier"), max_length=20, choices=Tier.choices, blank=True)
    succeeded = models.BooleanField(_("succeeded"), null=True, blank=True)
    migration_effort_hours = models.FloatField(
        _("migration effort (h)"), null=True, blank=True
    )
    # Preprocessing runs (SPEC 6.4): where, how long, what went in and out, and its hourly cost.
    site = models.ForeignKey(
        Site, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("site"),
    )
    preprocess_hours = models.FloatField(_("preprocessing hours"), null=True, blank=True)
    input_gb = models.FloatField(_("input (GB)"), null=True, blank=True)
    output_gb = models.FloatField(_("output (GB)"), null=True, blank=True)
    preprocess_cost_per_hour = models.FloatField(
        _("preprocessing cost per hour"), null=True, blank=True
    )
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default="form")


    objects = TeamScopedQuerySet.as_manager()

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [
            models.Index(fields=["task", "kind"], name="bench_task_kind"),
            models.Index(fields=["team", "-recorded_at"], name="bench_team_recent"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="bench_unique_idempotency_key",
            ),
            models.CheckConstraint(
                condition=Q(e2e_hours__gte=F("compute_hours")), name="bench_e2e_ge_compute"
            ),
            models.CheckConstraint(
                condition=Q(compute_hours__gte=0)
                & Q(transfer_hours__gte=0)
                & Q(queue_hours__gte=0)
                & Q(hours_lost_per_rerun__gte=0),
                name="bench_hours_nonneg",
            ),
            models.CheckConstraint(condition=Q(nodes__gte=1), name="bench_nodes_pos"),
            # NULL passes a CHECK: the figures of other kinds stay empty.
            models.CheckConstraint(
                condition=Q(preprocess_hours__gt=0)
                & Q(input_gb__gt=0)
                & Q(output_gb__gt=0)
                & Q(preprocess_cost_per_hour__gte=0),
                name="bench_preprocess_figures",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.task} · {self.nodes}×{self.gpus_per_node}"

    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node


class MlflowMapping(models.Model):
    """Where a team's MLflow runs are and which of their tags, params and metrics give a
    benchmark record's figures (apps/benchmarks/mlflow_import.py). Saved once, used by the page
    and by `manage.py import_mlflow`."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="mlflow_mapping")
    tracking_uri = models.URLField(_("tracking URI"), max_length=500)
    experiment = models.CharField(_("experiment"), max_length=250)
    task = models.ForeignKey(
        TaskProfile, on_delete=models.CASCADE, related_name="+", verbose_name=_("task")
    )
    offer_tag = models.CharField(_("tag naming the offer"), max_length=250)
    nodes_key = models.CharField(_("param or tag of the node count"), max_length=250)
    gpus_per_node_key = models.CharField(
        _("param or tag of the GPUs per node"), max_length=250
    )
    compute_hours_metric = models.CharField(_("metric of the compute hours"), max_length=250)
    peak_gpu_mem_metric = models.CharField(
        _("metric of the peak GPU memory (GB)"), max_length=250, blank=True
    )
    failure_reruns_metric = models.CharField(
        _("metric of the failure reruns"), max_length=250, blank=True
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    def __str__(self) -> str:
        return f"{self.team_id}: {self.experiment}"
