"""What every write to a review shares: locking, the version check, the state guards, the audit.

Each service in `services.py` (and `checklists/services.py`) runs inside one transaction and
starts with `lock_review`, so two writers of one review are serialised by the row lock and the
later one sees what the earlier one did (PostgreSQL; SQLite serialises writers on its own).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from apps.accounts.models import Membership

from .models import AuditEvent, Review, ReviewState


class ReviewConflict(Exception):
    """The review changed under the caller, or its state refuses the action. Never a 500:
    views turn it into a message (409 for htmx, a redirect for a full page)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ReviewRefused(Exception):
    """A rule refuses the action; `reasons` are dicts with `code`, `message` (and `message_zh`,
    `rule` when the engine gave them), shown to the user as they are."""

    def __init__(self, message: str, reasons: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.message = message
        self.reasons = reasons or []

    @property
    def codes(self) -> set[str]:
        return {r.get("code", "") for r in self.reasons}


def lock_review(review_id: int, *, version: int | str | None = None) -> Review:
    """The review row, locked until the transaction ends; refused if the caller saw another
    version. Locks the review alone (no join), so no other row is held."""
    review = Review.objects.select_for_update().get(pk=review_id)
    check_version(review, version)
    return review


def check_version(review: Review, version: int | str | None) -> None:
    """Refuse a write made on another version than the current one (None: not checked)."""
    if version in (None, ""):
        return
    try:
        seen = int(version)
    except (TypeError, ValueError):
        seen = -1
    if seen != review.version:
        raise ReviewConflict(
            _(
                "Someone changed this review since you opened it. "
                "Here it is as it is now; make your change again."
            )
        )


def membership_of(review: Review, user) -> Membership:
    membership = Membership.objects.filter(team_id=review.team_id, user=user).first()
    if membership is None:
        raise PermissionDenied
    return membership


def require_editable(review: Review) -> None:
    if review.is_final:
        raise ReviewConflict(
            _(
                "This review is %(state)s: it is final and can no longer change. "
                "Clone it to start a new one."
            )
            % {"state": review.get_state_display().lower()}
        )
    if not review.is_editable:
        raise ReviewConflict(
            _("This review is submitted and waiting for decisions; it cannot be edited now.")
        )


def audit(
    *,
    review: Review,
    actor,
    action: str,
    target: str = "",
    changes: dict[str, Any] | None = None,
) -> AuditEvent:
    return AuditEvent.objects.create(
        team_id=review.team_id,
        review=review,
        actor=actor,
        action=action,
        target=str(target)[:200],
        changes=changes or {},
    )


def reopen_if_changes_requested(review: Review, actor) -> bool:
    """The author's next edit after a request for changes moves the review back to draft
    (True when it did)."""
    if review.state != ReviewState.CHANGES_REQUESTED:
        return False
    review.state = ReviewState.DRAFT
    audit(
        review=review,
        actor=actor,
        action="reopened",
        changes={"state": [ReviewState.CHANGES_REQUESTED.value, ReviewState.DRAFT.value]},
    )
    return True


def touch(
    review: Review, *, inputs: bool, fields: tuple[str, ...] = (), stamp: bool = True
) -> None:
    """Bump the version (and the inputs generation when the engine input changed); save the
    review once with `fields` as well. `stamp` false: its time of change (what the lists show
    and sort by) stays."""
    review.version += 1
    fields = ["version", "state", *(["updated_at"] if stamp else []), *fields]
    if inputs:
        review.inputs_generation += 1
        fields.append("inputs_generation")
    review.save(update_fields=fields)
