"""SPEC H2 fix from the review: confirm that resuming from a checkpoint was verified and that the
environments at both ends are aligned. These are facts about the task, so they are written on its
profile (under the profile's own optimistic lock, apps.web.concurrency) and the review records who
confirmed them; the one who confirms has contributed to the round (four eyes, apps.reviews.four_eyes
reads the profile's latest editor)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.profiles.models import TaskProfile
from apps.reviews.models import Review
from apps.reviews.workflow import (
    ReviewConflict,
    audit,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)
from apps.web.concurrency import StaleVersion, claim

READINESS_FIELDS = ("resume_verified", "env_aligned")


@transaction.atomic
def review_confirm_readiness(
    *,
    review: Review,
    actor,
    fields: list[str],
    version: int | None = None,
    profile_version: int | None = None,
) -> Review:
    """Set the named readiness fields of the review's task profile to true."""
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    unknown = sorted(set(fields) - set(READINESS_FIELDS))
    if unknown or not fields:
        raise ValidationError(
            {"fields": _("Confirm resume verified, environments aligned, or both.")}
        )
    profile = TaskProfile.objects.get(pk=review.task_id)
    try:
        claim(profile, profile_version)
    except StaleVersion as exc:
        raise ReviewConflict(
            _("The task profile changed since this page was loaded: look at it again, then "
              "confirm.")
        ) from exc
    before = {name: getattr(profile, name) for name in fields}
    for name in fields:
        setattr(profile, name, True)
    profile.updated_by = actor
    profile.save(update_fields=[*fields, "updated_by", "version", "updated_at"])
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="readiness_confirmed",
        target=profile.name,
        changes={name: [before[name], True] for name in fields},
    )
    return review
