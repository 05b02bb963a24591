"""Notifications: one row per person and event (the inbox), and each person's choices per kind.

A notification keeps the event's parameters, not a rendered sentence, so it reads in the
language of whoever opens the inbox (apps/notifications/messages.py words them).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamOwnedQuerySet


class Kind(models.TextChoices):
    REVIEW_SUBMITTED = "review_submitted", _("A review is submitted for your decision")
    DECISION_TAKEN = "decision_taken", _("A review you worked on is approved or rejected")
    CHANGES_REQUESTED = "changes_requested", _("Changes are requested on a review you worked on")
    SNAPSHOT_STALE = "snapshot_stale", _("A submitted review's figures changed before sign-off")
    QUARTERLY_READY = "quarterly_ready", _("A quarterly cost review is ready")


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # What happened, once: the same key never notifies one person twice (a retried service,
    # a task run again).
    event_key = models.CharField(max_length=200)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=("recipient", "event_key"), name="notification_once_per_event"
            )
        ]
        indexes = [
            models.Index(fields=("recipient", "-created_at", "-id"), name="notification_inbox"),
            # The bell counts unread rows only: a small partial index, whatever the history.
            models.Index(
                fields=("recipient", "team"),
                condition=models.Q(read_at__isnull=True),
                name="notification_unread",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient_id} ({self.event_key})"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None

    @property
    def text(self) -> str:
        from .messages import notification_text

        return notification_text(self.kind, self.params)


class Preference(models.Model):
    """A person's choice for one kind; no row means both channels on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    inbox = models.BooleanField(_("in the inbox"), default=True)
    email = models.BooleanField(_("by email"), default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("user", "kind"), name="notification_preference_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: inbox={self.inbox} email={self.email}"


class EmailLanguage(models.Model):
    """The language a person's notification emails are written in (the site's without a row)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_language"
    )
    language = models.CharField(_("language of emails"), max_length=16)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
