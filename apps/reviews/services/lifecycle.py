"""Writes of a review's life: create and edit the title (submitting for decisions and cloning a
decided review: `submission`).

Each service is keyword-only, runs in one transaction, locks the review row first
(`workflow.lock_review`), checks the version the caller saw when it passes one, refuses a review
whose state does not allow the action, and writes an AuditEvent (who, what, old → new).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.catalog.models import Offer
from apps.profiles.models import TaskProfile
from apps.reviews.models import Candidate, Review
from apps.reviews.workflow import (
    audit,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)

from .candidates import check_machines, check_offer, offer_label

# Create and edit -----------------------------------------------------------------------------


@transaction.atomic
def review_create(
    *,
    team,
    author,
    task: TaskProfile,
    title: str,
    candidates: Sequence[tuple[Offer, int]] = (),
) -> Review:
    """A draft review of `task` with the given (offer, machines) candidates."""
    if not team.memberships.filter(user=author).exists():
        raise PermissionDenied
    if task.team_id != team.pk:
        raise ValidationError({"task": _("Choose a task profile of this team.")})
    seen: set[int] = set()
    for offer, machines in candidates:
        check_offer(team.pk, offer, "offers")
        check_machines(offer, machines, "offers")
        if offer.pk in seen:
            raise ValidationError({"offers": _("Each offer can be a candidate once.")})
        seen.add(offer.pk)
    review = Review(
        team=team,
        task=task,
        author=author,
        title=(title or "").strip(),
        approvals_required=team.approvals_required,
        approvals_from_two_roles=team.approvals_from_two_roles,
    )
    review.full_clean()
    review.save()
    Candidate.objects.bulk_create(
        Candidate(review=review, offer=offer, machines=int(machines), position=i)
        for i, (offer, machines) in enumerate(candidates)
    )
    audit(
        review=review,
        actor=author,
        action="created",
        target=review.title,
        changes={
            "title": [None, review.title],
            "task": [None, task.name],
            "candidates": [None, [f"{offer_label(o)} × {m}" for o, m in candidates]],
        },
    )
    return review


@transaction.atomic
def review_update(*, review: Review, actor, title: str, version: int | None = None) -> Review:
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    old = review.title
    review.title = (title or "").strip()
    review.full_clean(exclude=["task", "author", "team"])
    if review.title == old:
        return review
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=False, fields=("title",))
    audit(review=review, actor=actor, action="updated", changes={"title": [old, review.title]})
    return review
