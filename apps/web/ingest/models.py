"""The fields every ingested record carries (benchmark records, actual costs): its idempotency
key, notes, when and by whom it was recorded, and the optimistic lock. Abstract: each app's table
holds them as its own columns."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class IngestedRecord(models.Model):
    # NULL, not "", when absent: the unique constraint applies only to given keys.
    idempotency_key = models.CharField(  # noqa: DJ001
        _("idempotency key"), max_length=120, null=True, blank=True
    )
    notes = models.TextField(_("notes"), blank=True)
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Optimistic lock (apps.web.concurrency): every write bumps it; a save made on an older
    # version changes nothing and answers 409 with what changed.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    team_path = "team"

    class Meta:
        abstract = True
