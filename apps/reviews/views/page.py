"""The review page (besides its evaluation block): the profile as evaluated, the candidates with
their checklist progress, sign-offs, the timeline, what a reviewer's approval would meet (SPEC S),
four eyes and the separation of duties. It reads reviews, checklists and the evaluation, so it sits
above them (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

import engine
from apps.accounts.models import Role
from apps.profiles.summary import task_summary
from apps.reviews.checklists.selectors import checklist_cards, review_candidates
from apps.reviews.four_eyes import approver_roles, contribution_reason
from apps.reviews.models import Decision, Review, ReviewState
from apps.reviews.selectors import review_signoffs, review_timeline, timeline_entries
from apps.reviews.snapshots.services import build_review_input


def _approve_preview(review: Review, output: dict, user, round_signoffs: list) -> dict:
    """SPEC S as the engine would answer this reviewer's approval of the chosen option now."""
    chosen = output.get("chosen")
    return engine.signoff_check(
        output,
        offer_id=chosen["offer"] if chosen else "",
        author_id=review.author_id,
        reviewer_id=user.pk,
        previous_decider_ids=[s.reviewer_id for s in round_signoffs],
        snapshot_is_latest=True,
    )


def _two_roles(review: Review, round_signoffs: list) -> dict[str, Any] | None:
    """Separation of duties (Team.approvals_from_two_roles): the deciding roles that approved
    this round and those still missing, for a submitted review of such a team (one query)."""
    if not review.approvals_from_two_roles or review.state != ReviewState.SUBMITTED:
        return None
    approved = any(s.decision == Decision.APPROVE for s in round_signoffs)
    have = approver_roles(review) if approved else set()
    deciding = (Role.OWNER, Role.REVIEWER)
    return {
        "have": [Role(r).label for r in deciding if r in have],
        "missing": [Role(r).label for r in deciding if r not in have],
    }


def review_page(
    review: Review,
    *,
    user,
    membership,
    snapshot,
    review_input: dict | None = None,
    cards: list | None = None,
    reserved_links: list | None = None,
    signoffs: list | None = None,
) -> dict[str, Any]:
    """Everything the review page shows besides the evaluation block (the checklist cards,
    reserved links and sign-offs are passed when the caller already loaded them)."""
    if review_input is None:
        review_input = build_review_input(review)
    output = snapshot.output if snapshot is not None else None
    if signoffs is None:
        signoffs = review_signoffs(review)
    round_signoffs = [s for s in signoffs if s.round == review.round]
    decided = any(s.reviewer_id == user.pk for s in round_signoffs)
    can_review = bool(membership and membership.can_review)
    contribution = None
    if review.state == ReviewState.SUBMITTED and can_review and review.author_id != user.pk:
        contribution = contribution_reason(review, user)
    preview = None
    if output is not None and review.state == ReviewState.SUBMITTED and can_review:
        preview = _approve_preview(review, output, user, round_signoffs)
    chosen = (output or {}).get("chosen")
    return {
        "task_summary": task_summary(review_input.get("task", {})),
        "candidates": review_candidates(review, review_input, output, cards),
        "reserved_links": (
            reserved_links
            if reserved_links is not None
            else list(review.reserved_links.select_related("from_site", "to_site").order_by("id"))
        ),
        "signoffs": signoffs,
        "round_approvals": sum(1 for s in round_signoffs if s.decision == Decision.APPROVE),
        "two_roles": _two_roles(review, round_signoffs),
        "changes_request": next(
            (s for s in reversed(signoffs) if s.decision == Decision.REQUEST_CHANGES), None
        ),
        "answer_cards": cards if cards is not None else checklist_cards(review),
        "timeline": timeline_entries(review_timeline(review)),
        "chosen_offer_id": chosen["offer"] if chosen else None,
        "approve_check": preview,
        "is_author": review.author_id == user.pk,
        "can_edit": review.is_editable and membership is not None,
        "can_decide": (
            review.state == ReviewState.SUBMITTED
            and can_review
            and review.author_id != user.pk
            and not decided
            and contribution is None
        ),
        "contribution": contribution,
        "has_decided": decided,
        "can_clone": review.is_final and membership is not None,
    }
