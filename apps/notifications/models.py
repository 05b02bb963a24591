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
    WEBHOOK_PAUSED = "webhook_paused", _("A webhook of your team failed for a day and is paused")
    COMMENT_MENTION = "comment_mention", _("Someone mentions you in a review's discussion")


# What a webhook endpoint may subscribe to: the team's events (a paused webhook is told to its
# owner, not sent to the webhooks).
WEBHOOK_EVENTS = [
    Kind.REVIEW_SUBMITTED,
    Kind.DECISION_TAKEN,
    Kind.CHANGES_REQUESTED,
    Kind.SNAPSHOT_STALE,
    Kind.QUARTERLY_READY,
    Kind.COMMENT_MENTION,
]


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


class WebhookShape(models.TextChoices):
    SIGNED_JSON = "json", _("JSON, signed with HMAC-SHA256")
    SLACK = "slack", _("Slack-compatible (text and blocks)")


class WebhookEndpoint(models.Model):
    """A URL a team's events are posted to (apps/notifications/webhooks.py)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(_("URL"), max_length=500)
    events = models.JSONField(_("events"), default=list)
    shape = models.CharField(
        _("shape"), max_length=8, choices=WebhookShape.choices, default=WebhookShape.SIGNED_JSON
    )
    # Needed to sign each delivery, so kept; shown to the owner once, when the endpoint is added.
    secret = models.CharField(max_length=80, editable=False)
    active = models.BooleanField(_("active"), default=True)
    # Since when every attempt failed (None: the last attempt succeeded); a day of it pauses.
    failing_since = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ("created_at", "id")

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed")


class WebhookDelivery(models.Model):
    """One event for one endpoint: sent once, retried with backoff, as the email outbox."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(max_length=32)
    event_key = models.CharField(max_length=200)
    body = models.TextField()  # the exact bytes signed and sent (UTF-8)
    status = models.CharField(
        max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=("endpoint", "event_key"), name="webhook_delivery_once_per_event"
            )
        ]
        indexes = [models.Index(fields=("status", "updated_at"), name="webhook_delivery_status")]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint_id} ({self.status})"


class WebhookAttempt(models.Model):
    """One try of a delivery: the endpoint's delivery log, with the status code it answered."""

    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log"
    )
    status_code = models.PositiveIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return f"{self.delivery_id}: {self.status_code or self.error}"
