"""Teams, memberships and roles; the team scope every other app's queries go through."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .generations import TeamOwnedQuerySet

# SPEC 6.1 rollout order: a new team starts with the same site only and validates the wider tiers
# one by one, each after its own pilots. Existing teams keep the tiers they stored.
DEFAULT_VALIDATED_TIERS = ["same_site"]


def default_validated_tiers() -> list[str]:
    return list(DEFAULT_VALIDATED_TIERS)


class Team(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    currency = models.CharField(
        _("currency"),
        max_length=3,
        default="USD",
        help_text=_("One currency per team; no conversion."),
    )
    approvals_required = models.PositiveSmallIntegerField(_("approvals required"), default=1)
    # Separation of duties, stricter only (issue 17): an approval decides a review only together
    # with one from a member of another role (an owner and a reviewer), so at least two.
    approvals_from_two_roles = models.BooleanField(
        _("approvals from two roles"), default=False, db_default=False
    )
    # SPEC H / 6.1: same_site is always validated; owners add the wider tiers in order, each once
    # two pilots succeeded on it (apps.teams.services.team_tier_validate).
    validated_tiers = models.JSONField(_("validated tiers"), default=default_validated_tiers)
    # Team overrides of the engine's thresholds (SPEC M/A/X); missing keys use the defaults.
    thresholds = models.JSONField(_("thresholds"), default=dict, blank=True)
    # Bumped whenever a setting that changes evaluations changes: drafts then recompute.
    settings_generation = models.PositiveIntegerField(default=1)
    # Optimistic lock of the general settings (approvals and currency): a save made
    # on an older version changes nothing and answers 409 with what changed (apps.web.concurrency).
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)
    # Members sign in through the company's identity provider only (OIDC), never with a password.
    sso_only = models.BooleanField(
        _("sign in with single sign-on only"), default=False, db_default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(approvals_required__gte=1), name="team_approvals_at_least_one"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    MEMBER = "member", _("Member")
    REVIEWER = "reviewer", _("Reviewer")
    OWNER = "owner", _("Owner")


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ["team__name", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["user", "team"], name="membership_unique_user_team")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.team} ({self.role})"

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER

    @property
    def can_review(self) -> bool:
        # Owners can do what reviewers and members do.
        return self.role in {Role.REVIEWER, Role.OWNER}


class TeamScopedQuerySet(TeamOwnedQuerySet):
    """Querysets of objects that belong to one team (their bulk writes move its generation).

    Each model names the path to its team in `team_path`; `for_user` keeps only the rows of the
    user's teams, `for_team` the rows of one team. Views reach objects only through these.
    """

    def for_user(self, user) -> TeamScopedQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(**{f"{self.model.team_path}__in": team_ids_for(user)})

    def for_team(self, team) -> TeamScopedQuerySet:
        return self.filter(**{self.model.team_path: team})


def team_ids_for(user) -> list[int]:
    """The ids of the user's teams, computed once per user object (one query per request)."""
    cached = getattr(user, "_team_ids_cache", None)
    if cached is None:
        cached = list(Membership.objects.filter(user=user).values_list("team_id", flat=True))
        user._team_ids_cache = cached
    return cached


class ApiToken(models.Model):
    """A team API token. Only a hash is stored; the token itself is shown once at creation."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=80)
    prefix = models.CharField(max_length=12, db_index=True)
    key_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class EmailStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class OutgoingEmail(models.Model):
    """One email, rendered when it was queued and sent by a Celery task (apps.accounts.outbox).

    `key` makes queueing idempotent: the same event queued twice is one row and one email. The
    task claims the row (pending -> sending) with a conditional update, so a task delivered twice
    sends once.
    """

    key = models.CharField(max_length=200, unique=True)
    to = models.EmailField(max_length=254)
    subject = models.CharField(max_length=255)
    text = models.TextField()
    html = models.TextField(blank=True)
    status = models.CharField(
        max_length=8, choices=EmailStatus.choices, default=EmailStatus.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the row last changed state: the sweep re-queues rows left pending or sending too long.
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject} ({self.status})"


class Invitation(models.Model):
    """An owner invites an email address to a team with a role. Only a hash of the link's token
    is stored; the link works once, until `expires_at` (apps.accounts.invitations)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("email"), max_length=254)
    # When the owner invited by username: that name, shown to the team instead of the address
    # (apps.accounts.invitations.invitation_for_person).
    invited_name = models.CharField(_("invited as"), max_length=150, blank=True, default="")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open invitation per address and team (an expired one is revoked before another).
            models.UniqueConstraint(
                models.F("team"),
                Lower("email"),
                condition=models.Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="invitation_one_open_per_team_email",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.team} ({self.role})"

    @property
    def is_open(self) -> bool:
        return self.accepted_at is None and self.revoked_at is None

    def is_expired(self, now=None) -> bool:
        return (now or timezone.now()) >= self.expires_at
