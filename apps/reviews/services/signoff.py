"""Writes of the sign-off (SPEC S): a reviewer approves, requests changes or rejects the snapshot
they saw, and the review's state follows once enough approvals are in.

A sign-off locks the review row, checks the version the caller saw, asks the engine whether the
decision is allowed, and writes the SignOff and its AuditEvents in one transaction.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from apps.reviews.four_eyes import approver_roles, contribution_reason
from apps.reviews.models import FINAL_STATES, Decision, Review, ReviewState, SignOff
from apps.reviews.notices import notice_decided
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.services import build_review_input, current_snapshot
from apps.reviews.workflow import (
    ReviewConflict,
    ReviewRefused,
    audit,
    check_version,
    lock_review,
    membership_of,
)

# The quarterly figures count approvals and read actual costs. They are the scoring app's, a
# floor above: its task is called by name, here and (through this function) by apps.actuals.
QUARTERLY_TASK = "scoring.refresh_quarterly_task"
log = logging.getLogger(__name__)


def quarterly_figures_changed(*, team_id: int) -> None:
    """Once this commits, the team's quarterly figures are recomputed through the worker (at once
    when tasks run eagerly). Until then the quarterly page finds them stale and says so."""

    def enqueue() -> None:
        from config.celery import app

        try:
            app.tasks[QUARTERLY_TASK].apply_async(args=[team_id], retry=False)
        except Exception as exc:  # noqa: BLE001 - the page recomputes what it finds stale
            log.warning("quarterly figures of team %s not enqueued: %s", team_id, exc)

    transaction.on_commit(enqueue)


def _signoff_reasons(
    review: Review, *, reviewer, decision: str, snapshot: EvaluationSnapshot
) -> tuple[list[dict], EvaluationSnapshot | None]:
    """SPEC S through the engine for approvals; reject / request changes are allowed for a
    reviewer who is not the author and has not decided in this round. Every decision is refused
    to a reviewer who contributed to the round (four eyes, apps.reviews.four_eyes)."""
    current = current_snapshot(review)
    deciders = list(
        SignOff.objects.filter(review=review, round=review.round).values_list(
            "reviewer_id", flat=True
        )
    )
    output = (current or snapshot).output
    chosen = output.get("chosen")
    check = engine.signoff_check(
        output,
        # The candidate being approved is the chosen option's offer; none (P2) blocks anyway.
        offer_id=chosen["offer"] if chosen else "",
        author_id=review.author_id,
        reviewer_id=reviewer.pk,
        previous_decider_ids=deciders,
        snapshot_is_latest=current is not None and current.pk == snapshot.pk,
    )
    reasons = check["reasons"]
    if decision != Decision.APPROVE:
        reasons = [r for r in reasons if r["code"] in {"self_approval", "already_decided"}]
    # Four eyes (issue 17): a contributor of the round is refused every decision, like its author
    # (whose own reason, self_approval, already says it).
    if reviewer.pk != review.author_id:
        contributed = contribution_reason(review, reviewer)
        if contributed is not None:
            reasons.append(contributed)
    return reasons, current


def _signoff_once(
    *,
    review_id: int,
    reviewer,
    decision: str,
    comment: str,
    snapshot_id: int | None,
    version: int | None,
) -> SignOff:
    with transaction.atomic():
        review = lock_review(review_id)
        membership = membership_of(review, reviewer)
        if not membership.can_review:
            raise PermissionDenied
        if review.state != ReviewState.SUBMITTED:
            raise ReviewConflict(
                _("This review is no longer waiting for a decision: it is %(state)s.")
                % {"state": review.get_state_display().lower()}
            )
        # Other reviewers' sign-offs of this round leave the version alone (they change nothing
        # the reviewer looked at); an edit, a new round or a decision of the review bumps it.
        check_version(review, version)
        snapshot = EvaluationSnapshot.objects.filter(pk=snapshot_id, review=review).first()
        if snapshot is None:
            raise ValidationError({"snapshot": _("Decide on a snapshot of this review.")})
        reasons, current = _signoff_reasons(
            review, reviewer=reviewer, decision=decision, snapshot=snapshot
        )
        if reasons:
            raise ReviewRefused(_("This sign-off is not allowed."), reasons)
        signoff = SignOff(
            review=review,
            reviewer=reviewer,
            decision=decision,
            comment=comment,
            snapshot=snapshot,
            round=review.round,
        )
        signoff.full_clean(exclude=["review", "reviewer", "snapshot"], validate_unique=False)
        signoff.save()
        audit(
            review=review,
            actor=reviewer,
            action="signed_off",
            target=signoff.get_decision_display(),
            changes={
                "decision": [None, decision],
                "comment": [None, comment],
                "snapshot": [None, snapshot.pk],
                "round": [None, review.round],
            },
        )
        _apply_decision(review, reviewer=reviewer, decision=decision, signed=current)
        return signoff


def _apply_decision(
    review: Review, *, reviewer, decision: str, signed: EvaluationSnapshot | None
) -> None:
    old_state = review.state
    if decision == Decision.APPROVE:
        approvals = SignOff.objects.filter(
            review=review, round=review.round, decision=Decision.APPROVE
        ).count()
        if approvals < review.approvals_needed:
            return  # waiting for more approvals: the review itself does not change
        if review.approvals_from_two_roles and len(approver_roles(review)) < 2:
            return  # separation of duties: waiting for an approver of another role
        # Frozen before the state changes: later edits of the profile, offers or catalog never
        # change what was signed (the database refuses any change once it is approved). The
        # input of the snapshot just checked as current is build_review_input(review) by its
        # fingerprint, and unlike a rebuild it cannot pick up a profile edit committed since.
        review.frozen_input = signed.input if signed is not None else build_review_input(review)
        review.state = ReviewState.APPROVED
        action = "approved"
    elif decision == Decision.REJECT:
        review.state = ReviewState.REJECTED
        action = "rejected"
    else:
        review.state = ReviewState.CHANGES_REQUESTED
        review.round += 1  # a request for changes ends the round
        action = "changes_requested"
    review.decided_at = timezone.now() if review.state in FINAL_STATES else None
    review.version += 1
    review.save(
        update_fields=["frozen_input", "state", "round", "decided_at", "version", "updated_at"]
    )
    event = audit(
        review=review,
        actor=reviewer,
        action=action,
        changes={"state": [old_state, review.state]},
    )
    notice_decided(review, actor=reviewer, event=event)


def signoff_create(
    *,
    review: Review,
    reviewer,
    decision: str,
    comment: str = "",
    snapshot_id: int | None,
    version: int | None = None,
) -> SignOff:
    """A reviewer's decision on the snapshot they saw (SPEC S).

    approve: counts toward `approvals_required` of this round; refused while a block finding
    stands for the chosen candidate or the review, for the author, for a second decision in the
    round and on a stale snapshot. Every decision is refused to whoever contributed to the round
    (four eyes). request_changes and reject need a comment. A deadlock or a
    unique clash with a concurrent decision is retried once, then answered as a conflict.
    """
    comment = (comment or "").strip()
    if decision not in Decision.values:
        raise ValidationError({"decision": _("Choose approve, request changes or reject.")})
    if decision != Decision.APPROVE and not comment:
        raise ValidationError({"comment": _("Say why: a comment is required for this decision.")})
    for attempt in (1, 2):
        try:
            signoff = _signoff_once(
                review_id=review.pk,
                reviewer=reviewer,
                decision=decision,
                comment=comment,
                snapshot_id=snapshot_id,
                version=version,
            )
        except (IntegrityError, OperationalError) as exc:
            if attempt == 2:
                raise ReviewConflict(
                    _(
                        "Another decision on this review was being recorded at the same moment. "
                        "Here it is as it is now."
                    )
                ) from exc
            continue
        quarterly_figures_changed(team_id=review.team_id)  # an approval counts in them
        return signoff
    raise AssertionError("unreachable")  # pragma: no cover
