"""Reads of reviews: the team's list, the reviewer's queue, one review's page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Role
from apps.checklists.models import AnswerStatus, Question
from apps.checklists.selectors import checklist_cards
from apps.profiles.models import Cadence, Coupling, TaskProfile, Workload
from apps.scoring import engine
from apps.scoring.engine.checklist import gate_severity, ready_to_sign
from apps.scoring.services.snapshots import build_review_input

from .four_eyes import approver_roles, contribution_reason
from .models import AuditEvent, Candidate, Decision, Review, ReviewState, SignOff

DECIDER_ROLES = (Role.REVIEWER, Role.OWNER)
QUESTION_COUNT = len(Question.values)


def _with_round_approvals(queryset: QuerySet) -> QuerySet:
    return queryset.annotate(
        round_approvals=Count(
            "signoffs",
            filter=Q(signoffs__decision=Decision.APPROVE, signoffs__round=F("round")),
            distinct=True,
        ),
        candidate_count=Count("candidates", distinct=True),
    )


def review_list(
    *,
    team,
    state: str | None = None,
    task_id: int | None = None,
    author_id: int | None = None,
    q: str | None = None,
) -> QuerySet[Review]:
    """The team's reviews, newest change first, with counts for the list (one query a page)."""
    reviews = (
        Review.objects.for_team(team)
        .select_related("task", "author")
        # A list row never shows the signed input (a whole engine document) or the task text.
        .defer("frozen_input", "task__description")
    )
    if state:
        reviews = reviews.filter(state=state)
    if task_id:
        reviews = reviews.filter(task_id=task_id)
    if author_id:
        reviews = reviews.filter(author_id=author_id)
    if q:
        reviews = reviews.filter(Q(title__icontains=q) | Q(task__name__icontains=q))
    return _with_round_approvals(reviews).order_by("-updated_at", "-id")


def review_filter_choices(team) -> dict[str, list]:
    """Tasks and authors to filter the team's reviews by (two queries)."""
    User = get_user_model()
    return {
        "tasks": list(
            TaskProfile.objects.filter(team=team).order_by("name").values_list("pk", "name")
        ),
        "authors": list(
            User.objects.filter(authored_reviews__team=team)
            .distinct()
            .order_by("username")
            .values_list("pk", "username")
        ),
    }


def _waiting_for(user) -> QuerySet[Review]:
    """Submitted reviews of teams where `user` decides, not authored by them, without their
    decision in the current round."""
    decided = SignOff.objects.filter(review=OuterRef("pk"), reviewer=user, round=OuterRef("round"))
    return (
        Review.objects.filter(
            state=ReviewState.SUBMITTED,
            team__memberships__user=user,
            team__memberships__role__in=DECIDER_ROLES,
        )
        .exclude(author=user)
        .exclude(Exists(decided))
    )


def approvals_queue(user) -> QuerySet[Review]:
    """The reviewer's queue, oldest submission first (it has waited longest)."""
    if not getattr(user, "is_authenticated", False):
        return Review.objects.none()
    queue = (
        _waiting_for(user)
        .select_related("task", "author", "team")
        .defer("frozen_input", "task__description")
    )
    return _with_round_approvals(queue).order_by("submitted_at", "id")


def approvals_waiting_count(user) -> int:
    """How many reviews wait for this user's decision: the navigation badge. One query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return _waiting_for(user).count()


@dataclass
class CandidateView:
    candidate: Candidate
    offer: dict[str, Any]  # the offer as the engine sees it (frozen once approved)
    answered: int
    unanswered: int
    ready_to_sign: bool
    blocked_rules: list[str]

    @property
    def gate(self) -> str:
        """SPEC C for this candidate: "block", "warn" or "ok" (components/gate_badge.html)."""
        return gate_severity(self.unanswered)

    @property
    def migration_effort_hours(self) -> float | None:
        """The Q5 effort as the engine sees it (frozen once approved)."""
        if self.offer:
            return self.offer.get("migration_effort_hours")
        return self.candidate.migration_effort_hours


def review_candidates(
    review: Review, review_input: dict, output: dict | None, cards: list | None = None
) -> list:
    """The candidates with their checklist progress; from the checklist cards when the page
    already loaded them (no query), else one query."""
    if cards is not None:
        counted = [(card.candidate, QUESTION_COUNT - card.unanswered) for card in cards]
    else:
        counted = [
            (c, c.answered_count)
            for c in review.candidates.select_related("offer__site")
            .annotate(
                answered_count=Count("answers", filter=Q(answers__status=AnswerStatus.ANSWERED))
            )
            .order_by("position", "id")
        ]
    offers = {str(o["id"]): o for o in review_input.get("offers", [])}
    signoff = (output or {}).get("signoff", {})
    views = []
    for c, answered in counted:
        unanswered = QUESTION_COUNT - answered
        views.append(
            CandidateView(
                candidate=c,
                offer=offers.get(str(c.offer_id), {}),
                answered=answered,
                unanswered=unanswered,
                ready_to_sign=ready_to_sign(unanswered),
                blocked_rules=signoff.get(str(c.offer_id), {}).get("rules", []),
            )
        )
    return views


ACTION_LABELS = {
    "created": _("created the review"),
    "updated": _("edited the review"),
    "candidate_added": _("added a candidate"),
    "candidate_updated": _("changed a candidate"),
    "candidate_removed": _("removed a candidate"),
    "links_reserved": _("changed the reserved channels"),
    "readiness_confirmed": _("confirmed the task's readiness (H2)"),
    "answer_saved": _("answered the checklist"),
    "reopened": _("reopened the review as a draft"),
    "submitted": _("submitted the review"),
    "signed_off": _("signed off"),
    "approved": _("— the review is approved"),
    "changes_requested": _("— changes are requested"),
    "rejected": _("— the review is rejected"),
    "cloned": _("cloned the review"),
}

FIELD_LABELS = {
    "title": _("title"),
    "task": _("task"),
    "candidates": _("candidates"),
    "machines": _("machines"),
    "answered_questions": _("answered questions"),
    "reserved_links": _("reserved channels"),
    "status": _("status"),
    "text": _("answer"),
    "evidence_benchmark": _("evidence: benchmark record"),
    "evidence_url": _("evidence: link"),
    "migration_effort_hours": _("migration effort (engineer hours)"),
    "state": _("state"),
    "snapshot": _("snapshot"),
    "round": _("round"),
    "decision": _("decision"),
    "comment": _("comment"),
    "cloned_from": _("cloned from review"),
    "clone": _("new review"),
}


@dataclass
class TimelineEntry:
    event: AuditEvent
    label: str
    changes: list[tuple[str, str, str]]
    is_state_change: bool


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value) or "—"
    if value in ReviewState.values:
        return str(ReviewState(value).label)
    if value in Decision.values:
        return str(Decision(value).label)
    if value in AnswerStatus.values:
        return str(AnswerStatus(value).label)
    return str(value)


def timeline_entries(events: list[AuditEvent]) -> list[TimelineEntry]:
    entries = []
    for event in events:
        changes = [
            (str(FIELD_LABELS.get(name, name)), _shown(pair[0]), _shown(pair[1]))
            for name, pair in (event.changes or {}).items()
            if isinstance(pair, list) and len(pair) == 2
        ]
        entries.append(
            TimelineEntry(
                event=event,
                label=str(ACTION_LABELS.get(event.action, event.action)),
                changes=changes,
                is_state_change=event.action
                in {"submitted", "approved", "rejected", "changes_requested", "reopened"},
            )
        )
    return entries


def task_summary(task: dict) -> list[tuple[str, str]]:
    """The profile as the engine saw it (frozen once approved), as label/value pairs."""
    if not task:
        return []

    def label_of(choices, value):
        try:
            return str(choices(value).label)
        except ValueError:
            return value or "—"

    def num(value, unit=""):
        if value is None:
            return "—"
        text = f"{value:,.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
        return f"{text} {unit}".strip()

    budgets = task.get("latency_budget_hours") or {}
    budget_text = " · ".join(
        f"{name} {num(budgets.get(key), 'h') if budgets.get(key) is not None else '∞'}"
        for key, name in (
            ("transfer", _("transfer")),
            ("queue", _("queue")),
            ("compute", _("compute")),
        )
    )
    return [
        (str(_("Workload")), label_of(Workload, task.get("workload"))),
        (str(_("Cadence")), label_of(Cadence, task.get("cadence"))),
        (str(_("Model")), f"{num(task.get('params_b'))} B · {task.get('precision', '')}"),
        (str(_("Planned GPUs")), num(task.get("gpus"))),
        (str(_("Coupling")), label_of(Coupling, task.get("coupling"))),
        (str(_("Compute")), num(task.get("compute_hours"), "h")),
        (
            str(_("Input / results")),
            f"{num(task.get('input_gb'), 'GB')} / {num(task.get('result_gb'), 'GB')}",
        ),
        (
            str(_("Sites (home · data · results)")),
            f"{task.get('home_site')} · {task.get('data_site')} · {task.get('result_site')}",
        ),
        (str(_("Latency budget")), budget_text),
    ]


def review_signoffs(review: Review) -> list[SignOff]:
    return list(review.signoffs.select_related("reviewer").order_by("created_at", "id"))


def review_timeline(review: Review) -> list[AuditEvent]:
    return list(review.audit_events.select_related("actor").order_by("created_at", "id"))


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
) -> dict[str, Any]:
    """Everything the review page shows besides the evaluation block (the checklist cards and
    reserved links are passed when the caller already loaded them)."""
    if review_input is None:
        review_input = build_review_input(review)
    output = snapshot.output if snapshot is not None else None
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
