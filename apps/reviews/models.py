"""Reviews (选型评审), their candidates, sign-offs and the audit trail."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamScopedQuerySet
from apps.catalog.models import Offer, non_finite_errors, raise_if
from apps.profiles.models import TaskProfile

# The checklist answers of a review's candidates, the snapshots computed on a review and the
# comments of its discussion are models of this app, each topic in a package of its own: imported
# here, Django registers them.
from apps.reviews.checklists.models import ChecklistAnswer  # noqa: F401
from apps.reviews.comments.models import Comment  # noqa: F401
from apps.reviews.snapshots.models import EvaluationSnapshot, SnapshotJob  # noqa: F401


class ReviewState(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SUBMITTED = "submitted", _("Submitted")
    APPROVED = "approved", _("Approved")
    CHANGES_REQUESTED = "changes_requested", _("Changes requested")
    REJECTED = "rejected", _("Rejected")


FINAL_STATES = {ReviewState.APPROVED, ReviewState.REJECTED}


class Review(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="reviews")
    task = models.ForeignKey(
        TaskProfile, on_delete=models.PROTECT, related_name="reviews", verbose_name=_("task")
    )
    title = models.CharField(_("title"), max_length=200)
    state = models.CharField(
        _("state"), max_length=20, choices=ReviewState.choices, default=ReviewState.DRAFT
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="authored_reviews"
    )
    approvals_required = models.PositiveSmallIntegerField(_("approvals required"), default=1)
    # The team's separation-of-duties option as it was when the round was submitted.
    approvals_from_two_roles = models.BooleanField(
        _("approvals from two roles"), default=False, db_default=False
    )
    cloned_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="clones"
    )
    # Optimistic lock: every write bumps it; a writer holding an old version loses cleanly.
    version = models.PositiveIntegerField(default=1)
    # Bumped by every edit of the review's inputs; a snapshot records the one it saw.
    inputs_generation = models.PositiveIntegerField(default=1)
    # The round of review: a request for changes ends one, and sign-offs count per round.
    round = models.PositiveIntegerField(default=1)
    # SPEC H: channels reserved for this review's transfers (only reservable links qualify).
    reserved_links = models.ManyToManyField(
        "catalog.NetworkLink", blank=True, related_name="reserved_by_reviews"
    )
    # The engine input as signed, frozen when the review is approved.
    frozen_input = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["team", "state", "-updated_at"], name="review_team_state_recent"),
            # The review list's page of ids is read from this index alone (apps.web.paging).
            models.Index(fields=["team", "-updated_at", "-id"], name="review_team_page"),
            models.Index(fields=["author", "state"], name="review_author_state"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(approvals_required__gte=1), name="review_approvals_at_least_one"
            )
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def approvals_needed(self) -> int:
        """Approvals that decide the round: the required count, at least two when approvals must
        come from two roles."""
        if self.approvals_from_two_roles:
            return max(2, self.approvals_required)
        return self.approvals_required

    @property
    def is_final(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def is_editable(self) -> bool:
        return self.state in {ReviewState.DRAFT, ReviewState.CHANGES_REQUESTED}


class Candidate(models.Model):
    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="candidates")
    offer = models.ForeignKey(
        Offer, on_delete=models.PROTECT, related_name="candidates", verbose_name=_("offer")
    )
    machines = models.PositiveIntegerField(_("machines"), default=1)
    # SPEC 6.1 T: engineer hours to move the task onto this offer, entered with its Q5 answer
    # (blank: the largest of the task's pilot records, else unknown).
    migration_effort_hours = models.FloatField(
        _("migration effort (engineer hours)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    position = models.PositiveSmallIntegerField(default=0)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "review__team"

    class Meta:
        ordering = ["review_id", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["review", "offer"], name="candidate_unique_offer"),
            models.CheckConstraint(condition=Q(machines__gte=1), name="candidate_machines_pos"),
            models.CheckConstraint(
                condition=Q(migration_effort_hours__isnull=True) | Q(migration_effort_hours__gte=0),
                name="candidate_migration_effort_nonneg",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.offer} × {self.machines}"

    def clean(self) -> None:
        raise_if(non_finite_errors(self))


class Decision(models.TextChoices):
    APPROVE = "approve", _("Approve")
    REQUEST_CHANGES = "request_changes", _("Request changes")
    REJECT = "reject", _("Reject")


class SignOff(models.Model):
    review = models.ForeignKey(Review, on_delete=models.PROTECT, related_name="signoffs")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="signoffs"
    )
    decision = models.CharField(_("decision"), max_length=20, choices=Decision.choices)
    comment = models.TextField(_("comment"), blank=True)
    snapshot = models.ForeignKey(
        "reviews.EvaluationSnapshot", on_delete=models.PROTECT, related_name="signoffs"
    )
    # The round of review it belongs to: a request for changes starts a new round.
    round = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "review__team"

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["review", "reviewer", "round"], name="signoff_one_per_reviewer_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.reviewer} {self.decision} {self.review}"


class AuditEvent(models.Model):
    """Who changed what and when. Written once by services; never edited through the app."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="audit_events")
    review = models.ForeignKey(
        Review, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    changes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["review", "created_at"], name="audit_review_time")]

    def __str__(self) -> str:
        return f"{self.action} {self.target}"

