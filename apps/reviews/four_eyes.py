"""Four eyes (issue 17; SOX-style separation of duties): nobody decides on a round of review they
contributed to. A contribution is an edit of the round found in the audit trail (a checklist
answer, the title, a candidate, the reserved links, the submission) or the task profile's latest
edit when it fell in the round (profiles keep only their latest editor).

A round starts when the review is created, and again at each request for changes (the event that
bumps `Review.round`).

A team may also require its approvals from two roles (`Team.approvals_from_two_roles`, stricter
only): the round is then decided by at least two approvals, from an owner and a reviewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from apps.accounts.models import Membership

from .models import AuditEvent, Decision, Review, SignOff

# The audited actions that change what the round decides on (signed_off, approved, rejected,
# changes_requested and cloned are decisions or notes, not contributions; reopened always comes
# with the edit that caused it).
CONTRIBUTING_ACTIONS = (
    "created",
    "updated",
    "candidate_added",
    "candidate_updated",
    "candidate_removed",
    "links_reserved",
    "readiness_confirmed",
    "profile_field_fixed",
    "answer_saved",
    "submitted",
)
ROUND_END_ACTION = "changes_requested"
MAX_NAMED = 6


@dataclass(frozen=True)
class Contribution:
    action: str
    target: str = ""


def round_start(review: Review) -> tuple[int, datetime]:
    """The id of the audit event that opened the current round (0: its creation) and when."""
    ended = (
        AuditEvent.objects.filter(review=review, action=ROUND_END_ACTION)
        .order_by("-id")
        .values_list("id", "created_at")
        .first()
    )
    return ended if ended is not None else (0, review.created_at)


def contributions(review: Review, user) -> list[Contribution]:
    """What `user` contributed to the review's current round, in the order it happened."""
    start_id, started_at = round_start(review)
    events = (
        AuditEvent.objects.filter(
            review=review, actor=user, id__gt=start_id, action__in=CONTRIBUTING_ACTIONS
        )
        .order_by("id")
        .values_list("action", "target")
    )
    found: list[Contribution] = []
    for action, target in events:
        item = Contribution(action, target if action != "updated" else "")
        if item not in found:
            found.append(item)
    task = review.task
    if task.updated_by_id == user.pk and task.updated_at >= started_at:
        found.append(Contribution("profile_edited", task.name))
    return found


def _offer_and_question(target: str) -> tuple[str, str]:
    """An answer's audit target is "provider · offer · Q3"."""
    offer, _sep, question = target.rpartition(" · ")
    return offer or target, question


def _phrase(item: Contribution) -> str:
    target = item.target
    if item.action == "answer_saved":
        offer, question = _offer_and_question(target)
        return _("answered %(question)s for the offer %(offer)s") % {
            "question": question,
            "offer": offer,
        }
    phrases = {
        "created": _("created this review"),
        "updated": _("edited the title"),
        "candidate_added": _("added the candidate %(target)s"),
        "candidate_updated": _("changed the machines of %(target)s"),
        "candidate_removed": _("removed the candidate %(target)s"),
        "links_reserved": _("changed the reserved links"),
        "readiness_confirmed": _("confirmed the task's readiness on %(target)s"),
        "profile_field_fixed": _("set a field of the task profile %(target)s from a finding"),
        "submitted": _("submitted this round"),
        "profile_edited": _("edited the task profile %(target)s"),
    }
    return phrases[item.action] % {"target": target}


def _listing(phrases: list[str]) -> str:
    if len(phrases) > MAX_NAMED:
        more = len(phrases) - MAX_NAMED + 1
        phrases = [*phrases[: MAX_NAMED - 1], _("%(n)d more changes") % {"n": more}]
    if len(phrases) == 1:
        return phrases[0]
    return _("%(items)s and %(last)s") % {
        "items": _(", ").join(phrases[:-1]),
        "last": phrases[-1],
    }


def _message(found: list[Contribution]) -> str:
    return _(
        "Four eyes: you contributed to this round of the review (you %(what)s), so another "
        "reviewer who did not work on it decides."
    ) % {"what": _listing([_phrase(item) for item in found])}


def contribution_reason(review: Review, user) -> dict[str, Any] | None:
    """The refusal reason of a contributor (None: `user` did not contribute to the round), in
    the shape of the engine's reasons: its words in English and Chinese."""
    found = contributions(review, user)
    if not found:
        return None
    with translation.override("en"):
        message = _message(found)
    with translation.override("zh-hans"):
        message_zh = _message(found)
    return {
        "rule": "S",
        "code": "contributed",
        "message": message,
        "message_zh": message_zh,
        "data": {
            "reviewer": str(user.pk),
            "round": review.round,
            "contributions": [[c.action, c.target] for c in found],
        },
    }


def approver_roles(review: Review) -> set[str]:
    """The team roles of this round's approvers (the separation-of-duties option counts them)."""
    approvers = SignOff.objects.filter(
        review=review, round=review.round, decision=Decision.APPROVE
    ).values("reviewer_id")
    return set(
        Membership.objects.filter(team_id=review.team_id, user_id__in=approvers)
        .values_list("role", flat=True)
        .distinct()
    )
