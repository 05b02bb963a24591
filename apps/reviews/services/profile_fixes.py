"""Block fixes written on the task profile from the review (issue 15: every block has its fix in
place): the planned GPU count (P3), a splitting strategy (R1a), someone who maintains a scheduler
(J4). The value goes through the profile's own write (`profile_update`: its optimistic lock and
every check of the model), so the review page never accepts what the profile form would refuse;
the review records who set what (four eyes: the one who fixes has contributed to the round)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.profiles.models import TaskProfile
from apps.profiles.services import profile_update
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
from apps.web.concurrency import StaleVersion

# The profile fields a block finding can set from the review, by the rule that asks for them.
PROFILE_FIELD_FIXES = {"gpus": "P3", "parallelism": "R1a", "can_maintain_scheduler": "J4"}


@transaction.atomic
def review_fix_profile_field(
    *,
    review: Review,
    actor,
    field: str,
    value: Any,
    version: int | None = None,
    profile_version: int | None = None,
) -> Review:
    """Set one profile field named by a block finding of this review."""
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    if field not in PROFILE_FIELD_FIXES:
        raise ValidationError(
            {"field": _("This field of the task profile is not set from a review.")}
        )
    profile = TaskProfile.objects.get(pk=review.task_id)
    before = getattr(profile, field)
    try:
        profile_update(profile=profile, actor=actor, version=profile_version, **{field: value})
    except StaleVersion as exc:
        raise ReviewConflict(
            _("The task profile changed since this page was loaded: look at it again, then "
              "save.")
        ) from exc
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="profile_field_fixed",
        target=profile.name,
        changes={field: [before, value]},
    )
    return review
