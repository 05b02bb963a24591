"""Submitting a review for decisions and cloning a decided one: the review's writes that read
the checklists and the evaluation, so they sit above both (docs/architecture.md).

Each service is keyword-only, runs in one transaction, locks the review row first
(`workflow.lock_review`), checks the version the caller saw when it passes one, refuses a review
whose state does not allow the action, and writes an AuditEvent (who, what, old → new).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import FINAL_STATES, Candidate, Review, ReviewState
from apps.reviews.notices import notice_submitted
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.services import current_snapshot, snapshot_compute
from apps.reviews.workflow import (
    ReviewConflict,
    ReviewRefused,
    audit,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)

# Submit ------------------------------------------------------------------------------------


def _blocking_reasons(output: dict) -> list[dict]:
    return [
        {
            "code": "block_finding",
            "rule": f["rule"],
            "message": f["message"],
            "message_zh": f.get("message_zh", f["message"]),
            "offer": f.get("offer"),
        }
        for f in output.get("findings", [])
        if f.get("severity") == "block"
    ]


def _compute(review_id: int) -> EvaluationSnapshot:
    try:
        return snapshot_compute(review_id=review_id)
    except engine.EngineInputError as exc:
        reasons = [
            {"code": "input_error", "message": f"{e['field']}: {e['message']}"} for e in exc.errors
        ]
        raise ReviewRefused(
            _("The review's data cannot be evaluated; fix it first."), reasons
        ) from exc


def review_submit(*, review: Review, actor, version: int | None = None) -> EvaluationSnapshot:
    """Evaluate the review and submit it for decisions; refused while the checklist gate or any
    block finding stands (the snapshot is kept either way: it is what the page then shows)."""
    if not review.candidates.exists():
        raise ReviewRefused(
            _("Add at least one candidate before submitting."),
            [{"code": "no_candidates", "message": _("A review needs at least one candidate.")}],
        )
    # Computed in its own transaction first, so a refused submission still leaves the figures.
    snapshot = _compute(review.pk)
    with transaction.atomic():
        review = lock_review(review.pk, version=version)
        membership_of(review, actor)
        require_editable(review)
        if not review.candidates.exists():
            raise ReviewRefused(_("Add at least one candidate before submitting."))
        current = current_snapshot(review)
        if current is None:  # the inputs changed between the two steps: evaluate them again
            current = _compute(review.pk)
        snapshot = current
        reasons = _blocking_reasons(snapshot.output)
        if reasons:
            raise ReviewRefused(
                _("Not submitted: blocking findings stand. Resolve them first."), reasons
            )
        old_state = review.state
        reopen_if_changes_requested(review, actor)
        review.state = ReviewState.SUBMITTED
        review.submitted_at = timezone.now()
        review.approvals_required = max(1, review.team.approvals_required)
        review.approvals_from_two_roles = review.team.approvals_from_two_roles
        touch(
            review,
            inputs=False,
            fields=("submitted_at", "approvals_required", "approvals_from_two_roles"),
        )
        event = audit(
            review=review,
            actor=actor,
            action="submitted",
            changes={
                "state": [old_state, ReviewState.SUBMITTED.value],
                "snapshot": [None, snapshot.pk],
                "round": [None, review.round],
            },
        )
        notice_submitted(review, actor=actor, event=event)
    return snapshot


# Clone -------------------------------------------------------------------------------------


def _copy_candidates(source: Review, clone: Review, *, actor) -> int:
    """Copy the source's candidates and their checklist answers into the clone; returns how many."""
    candidates = list(source.candidates.order_by("position", "id").prefetch_related("answers"))
    for candidate in candidates:
        copy = Candidate.objects.create(
            review=clone,
            offer_id=candidate.offer_id,
            machines=candidate.machines,
            migration_effort_hours=candidate.migration_effort_hours,
            position=candidate.position,
        )
        ChecklistAnswer.objects.bulk_create(
            ChecklistAnswer(
                candidate=copy,
                question=a.question,
                status=a.status,
                text=a.text,
                evidence_benchmark_id=a.evidence_benchmark_id,
                evidence_url=a.evidence_url,
                updated_by=actor,
            )
            for a in candidate.answers.all()
        )
    return len(candidates)


@transaction.atomic
def review_clone(*, review: Review, actor) -> Review:
    """A new draft from an approved or rejected review: same task, candidates and answers."""
    source = lock_review(review.pk)
    membership_of(source, actor)
    if source.state not in FINAL_STATES:
        raise ReviewConflict(_("Only an approved or rejected review can be cloned."))
    title = _("%(title)s (copy)") % {"title": source.title}
    clone = Review.objects.create(
        team_id=source.team_id,
        task_id=source.task_id,
        author=actor,
        title=title[:200],
        cloned_from=source,
        approvals_required=source.team.approvals_required,
        approvals_from_two_roles=source.team.approvals_from_two_roles,
    )
    copied = _copy_candidates(source, clone, actor=actor)
    links = [link for link in source.reserved_links.all() if link.reservable]
    if links:
        clone.reserved_links.set(links)
    audit(
        review=clone,
        actor=actor,
        action="created",
        target=clone.title,
        changes={"cloned_from": [None, source.pk], "candidates": [None, copied]},
    )
    # The source's own audit trail is append-only, so noting the clone there is allowed.
    audit(
        review=source,
        actor=actor,
        action="cloned",
        target=clone.title,
        changes={"clone": [None, clone.pk]},
    )
    return clone
