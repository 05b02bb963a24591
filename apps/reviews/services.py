"""Writes of reviews: create, edit, candidates, link reservations, submit, sign-off, clone.

Each service is keyword-only, runs in one transaction, locks the review row first
(`workflow.lock_review`), checks the version the caller saw when it passes one, refuses a review
whose state does not allow the action, and writes an AuditEvent (who, what, old → new).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.catalog.models import NetworkLink, Offer
from apps.checklists.models import ChecklistAnswer
from apps.profiles.models import TaskProfile
from apps.scoring import engine
from apps.scoring.models import EvaluationSnapshot
from apps.scoring.services import build_review_input, current_snapshot, snapshot_compute

from .models import FINAL_STATES, Candidate, Decision, Review, ReviewState, SignOff
from .workflow import (
    ReviewConflict,
    ReviewRefused,
    audit,
    check_version,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)

__all__ = [
    "ReviewConflict",
    "ReviewRefused",
    "candidate_add",
    "candidate_remove",
    "candidate_update",
    "review_clone",
    "review_create",
    "review_reserve_links",
    "review_submit",
    "review_update",
    "signoff_create",
]


def _offer_label(offer: Offer) -> str:
    return f"{offer.provider} · {offer.name}"


def _check_machines(offer: Offer, machines: int, field: str = "machines") -> None:
    if machines is None or int(machines) < 1:
        raise ValidationError({field: _("At least one machine.")})
    if offer.max_machines is not None and int(machines) > offer.max_machines:
        raise ValidationError(
            {field: _("This offer has at most %(n)s machines.") % {"n": offer.max_machines}}
        )


def _check_offer(review_team_id: int, offer: Offer, field: str = "offer") -> None:
    if offer.team_id != review_team_id:
        raise ValidationError({field: _("Choose an offer of this team.")})


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
        _check_offer(team.pk, offer, "offers")
        _check_machines(offer, machines, "offers")
        if offer.pk in seen:
            raise ValidationError({"offers": _("Each offer can be a candidate once.")})
        seen.add(offer.pk)
    review = Review(
        team=team,
        task=task,
        author=author,
        title=(title or "").strip(),
        approvals_required=team.approvals_required,
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
            "candidates": [None, [f"{_offer_label(o)} × {m}" for o, m in candidates]],
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


# Candidates --------------------------------------------------------------------------------


@transaction.atomic
def candidate_add(
    *, review: Review, actor, offer: Offer, machines: int, version: int | None = None
) -> Candidate:
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    _check_offer(review.team_id, offer)
    _check_machines(offer, machines)
    if review.candidates.filter(offer=offer).exists():
        raise ValidationError({"offer": _("This offer is already a candidate.")})
    position = (review.candidates.aggregate(m=Max("position"))["m"] or 0) + 1
    candidate = Candidate.objects.create(
        review=review, offer=offer, machines=int(machines), position=position
    )
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_added",
        target=_offer_label(offer),
        changes={"machines": [None, candidate.machines]},
    )
    return candidate


@transaction.atomic
def candidate_update(
    *, candidate: Candidate, actor, machines: int, version: int | None = None
) -> Candidate:
    review = lock_review(candidate.review_id, version=version)
    membership_of(review, actor)
    require_editable(review)
    candidate = Candidate.objects.select_related("offer").get(pk=candidate.pk)
    _check_machines(candidate.offer, machines)
    old = candidate.machines
    if old == int(machines):
        return candidate
    candidate.machines = int(machines)
    candidate.save(update_fields=["machines"])
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_updated",
        target=_offer_label(candidate.offer),
        changes={"machines": [old, candidate.machines]},
    )
    return candidate


@transaction.atomic
def candidate_remove(*, candidate: Candidate, actor, version: int | None = None) -> None:
    review = lock_review(candidate.review_id, version=version)
    membership_of(review, actor)
    require_editable(review)
    candidate = Candidate.objects.select_related("offer").get(pk=candidate.pk)
    answered = candidate.answers.filter(status="answered").count()
    label = _offer_label(candidate.offer)
    machines = candidate.machines
    candidate.delete()
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_removed",
        target=label,
        changes={"machines": [machines, None], "answered_questions": [answered, None]},
    )


@transaction.atomic
def review_reserve_links(
    *, review: Review, actor, links: Iterable[NetworkLink], version: int | None = None
) -> Review:
    """SPEC H: the channels reserved for this review; only reservable links of its team."""
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    links = list(links)
    for link in links:
        if link.team_id != review.team_id:
            raise ValidationError({"links": _("Choose links of this team.")})
        if not link.reservable:
            raise ValidationError(
                {"links": _("Only a reservable link can be reserved (%(link)s).") % {"link": link}}
            )
    old = sorted(str(link) for link in review.reserved_links.select_related("from_site", "to_site"))
    new = sorted(str(link) for link in links)
    if old == new:
        return review
    review.reserved_links.set(links)
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review, actor=actor, action="links_reserved", changes={"reserved_links": [old, new]}
    )
    return review


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
        touch(review, inputs=False, fields=("submitted_at", "approvals_required"))
        audit(
            review=review,
            actor=actor,
            action="submitted",
            changes={
                "state": [old_state, ReviewState.SUBMITTED.value],
                "snapshot": [None, snapshot.pk],
                "round": [None, review.round],
            },
        )
    return snapshot


# Sign-off ----------------------------------------------------------------------------------


def _signoff_reasons(
    review: Review, *, reviewer, decision: str, snapshot: EvaluationSnapshot
) -> tuple[list[dict], EvaluationSnapshot | None]:
    """SPEC S through the engine for approvals; reject / request changes are always allowed for
    a reviewer who is not the author and has not decided in this round."""
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
        if approvals < review.approvals_required:
            return  # waiting for more approvals: the review itself does not change
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
    audit(
        review=review,
        actor=reviewer,
        action=action,
        changes={"state": [old_state, review.state]},
    )


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
    round and on a stale snapshot. request_changes and reject need a comment. A deadlock or a
    unique clash with a concurrent decision is retried once, then answered as a conflict.
    """
    comment = (comment or "").strip()
    if decision not in Decision.values:
        raise ValidationError({"decision": _("Choose approve, request changes or reject.")})
    if decision != Decision.APPROVE and not comment:
        raise ValidationError({"comment": _("Say why: a comment is required for this decision.")})
    for attempt in (1, 2):
        try:
            return _signoff_once(
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
    raise AssertionError("unreachable")  # pragma: no cover


# Clone -------------------------------------------------------------------------------------


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
    )
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
    links = [link for link in source.reserved_links.all() if link.reservable]
    if links:
        clone.reserved_links.set(links)
    audit(
        review=clone,
        actor=actor,
        action="created",
        target=clone.title,
        changes={"cloned_from": [None, source.pk], "candidates": [None, len(candidates)]},
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
