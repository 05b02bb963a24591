"""Evaluation snapshots of a review (never changed once written) and the jobs that compute them.

Models of the reviews app (apps/reviews/models.py registers them, so they name the review by its
label); they keep the tables they had when they were the scoring app's."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamScopedQuerySet
from apps.profiles.models import TaskProfile


class EvaluationSnapshot(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="snapshots")
    review = models.ForeignKey("reviews.Review", on_delete=models.PROTECT, related_name="snapshots")
    task = models.ForeignKey(TaskProfile, on_delete=models.PROTECT, related_name="snapshots")
    # sha256 of the canonical engine input plus the engine version: same inputs, same snapshot.
    fingerprint = models.CharField(max_length=64)
    input_hash = models.CharField(max_length=64)
    engine_version = models.CharField(max_length=20)
    input = models.JSONField()
    output = models.JSONField()
    table_rows = models.JSONField(default=list)
    chart_data = models.JSONField(default=dict)
    # Denormalised headline figures, for lists and history filters without reading the JSON.
    review_state = models.CharField(max_length=20, blank=True)
    platform = models.CharField(max_length=24, blank=True)
    chosen_kind = models.CharField(max_length=16, blank=True)
    chosen_site = models.CharField(max_length=40, blank=True)
    chosen_offer = models.CharField(max_length=40, blank=True)
    chosen_total_cost = models.FloatField(null=True, blank=True)
    chosen_total_hours = models.FloatField(null=True, blank=True)
    block_count = models.PositiveIntegerField(default=0)
    warn_count = models.PositiveIntegerField(default=0)
    inputs_generation = models.PositiveIntegerField(default=1)
    settings_generation = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        db_table = "scoring_evaluationsnapshot"  # the table it had in apps.scoring
        ordering = ["-created_at", "-id"]
        indexes = [
            # The history's page of ids is read from this index alone (apps.web.paging).
            models.Index(fields=["team", "-created_at", "-id"], name="snapshot_team_page"),
            models.Index(fields=["review", "-created_at"], name="snapshot_review_recent"),
            models.Index(fields=["task", "-created_at"], name="snapshot_task_recent"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["review", "fingerprint"], name="snapshot_unique_fingerprint"
            )
        ]

    def __str__(self) -> str:
        return f"{self.review} @ {self.created_at:%Y-%m-%d %H:%M}"


class JobStatus(models.TextChoices):
    PENDING = "pending", _("Pending (broker unavailable)")
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class SnapshotJob(models.Model):
    """A request to compute a review's snapshot; what the progress fragment polls."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="snapshot_jobs")
    review = models.ForeignKey(
        "reviews.Review", on_delete=models.CASCADE, related_name="snapshot_jobs"
    )
    # The input fingerprint the job was requested for: a failed job is not retried on the same
    # inputs (they would fail the same way), a changed input gets a new job.
    fingerprint = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=12, choices=JobStatus.choices, default=JobStatus.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    snapshot = models.ForeignKey(
        EvaluationSnapshot, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        db_table = "scoring_snapshotjob"  # the table it had in apps.scoring
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "updated_at"], name="job_status_time")]

    def __str__(self) -> str:
        return f"job {self.pk} {self.status}"
