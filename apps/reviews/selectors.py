"""Reads of reviews: the team's list, the reviewer's queue, sign-offs and the timeline (the
review page that composes them is apps.reviews.views.page)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, F, Func, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Role
from apps.profiles.models import TaskProfile
from apps.web.search import search_queryset, term_filter
from apps.web.typeahead import TypeAhead

from .models import AuditEvent, Candidate, Decision, Review, ReviewState, SignOff

DECIDER_ROLES = (Role.REVIEWER, Role.OWNER)
# The checklist answer states the audit trail records (checklists.models.AnswerStatus), with the
# same words.
ANSWER_STATES = {"answered": _("Answered"), "unanswered": _("Unanswered")}


# The fields a review's row shows (lists, queue, dashboard), its counts aside; of its task, author
# and team only a name each, as values (ROW_JOINED), not as model instances (~1 ms a page).
ROW_FIELDS = (
    "id",
    "title",
    "state",
    "round",
    "updated_at",
    "submitted_at",
    "approvals_required",
    "approvals_from_two_roles",
)
ROW_JOINED = {
    "task_name": "task__name",
    "author_username": "author__username",
    "team_name": "team__name",
}
# What the list's search box looks in (apps.web.search), the candidate offers aside.
REVIEW_SEARCH_FIELDS = (
    "title",
    "task__name",
    "author__username",
    "author__first_name",
    "author__last_name",
)


def _count_of(rows: QuerySet) -> Coalesce:
    """The number of `rows` (correlated to the outer review) as a scalar subquery."""
    counted = rows.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Coalesce(Subquery(counted), 0)


def _with_round_approvals(queryset: QuerySet) -> QuerySet:
    # Scalar subqueries, not COUNT over joined sign-offs and candidates: the joins and the GROUP
    # BY over every selected column made PostgreSQL spend ~20 ms planning the queue's query.
    approvals = SignOff.objects.filter(
        review=OuterRef("pk"), decision=Decision.APPROVE, round=OuterRef("round")
    )
    return queryset.annotate(
        round_approvals=_count_of(approvals),
        candidate_count=_count_of(Candidate.objects.filter(review=OuterRef("pk"))),
    )


def review_list(
    *,
    team,
    state: str | None = None,
    task_ids: Iterable[int] | QuerySet | None = None,
    author_ids: Iterable[int] | QuerySet | None = None,
    q: str | None = None,
) -> QuerySet[Review]:
    """The team's reviews, filtered, newest change first: their ids (a page's rows are read by
    `review_rows`, apps.web.paging). `task_ids`, `author_ids`: what a type-ahead filter named
    (apps.web.typeahead); None filters nothing."""
    reviews = Review.objects.for_team(team)
    if state:
        reviews = reviews.filter(state=state)
    if task_ids is not None:
        reviews = reviews.filter(task_id__in=task_ids)
    if author_ids is not None:
        reviews = reviews.filter(author_id__in=author_ids)
    if q:
        reviews = search_queryset(reviews, q, REVIEW_SEARCH_FIELDS, extra=_with_offer_matching)
    return reviews.order_by("-updated_at", "-id")


def _with_offer_matching(term: str) -> Q:
    """Reviews with a candidate offer whose name, provider or site code holds `term`."""
    offers = Candidate.objects.filter(review=OuterRef("pk")).filter(
        term_filter(term, ("offer__name", "offer__provider", "offer__site__code"))
    )
    return Q(Exists(offers))


def review_rows(ids: Iterable[int]) -> QuerySet[Review]:
    """The rows of a page of reviews (the list, the queue) by id, with their counts: what a row
    shows, no more (every column of the task and author cost more to build and read than the
    whole row takes to draw), and none of the list's filters again (they chose the ids)."""
    return _as_rows(Review.objects.filter(pk__in=list(ids)))


def _as_rows(reviews: QuerySet[Review]) -> QuerySet[Review]:
    rows = reviews.only(*ROW_FIELDS).annotate(
        **{name: F(path) for name, path in ROW_JOINED.items()}
    )
    return _with_round_approvals(rows)


def review_filter_typeaheads(team) -> dict[str, TypeAhead]:
    """The list's type-ahead filters (apps.web.typeahead): the team's tasks by name, and who
    wrote the team's reviews by username."""
    authors = get_user_model().objects.filter(authored_reviews__team=team).distinct()
    return {
        "task": TypeAhead(
            rows=lambda: TaskProfile.objects.filter(team=team),
            names=("name",),
            label=lambda row: row["name"],
            missing=_("No task of this team is called or contains “%(text)s”."),
        ),
        "author": TypeAhead(
            rows=lambda: authors,
            names=("username",),
            label=lambda row: row["username"],
            missing=_("No author of this team's reviews is called or contains “%(text)s”."),
        ),
    }


def _waiting_for(user, team_ids: Iterable[int] | None = None) -> QuerySet[Review]:
    """Submitted reviews of teams where `user` decides, not authored by them, without their
    decision in the current round. `team_ids`: the teams where they decide, when the caller
    has their memberships at hand (the navigation: a plainer query, cheaper to build)."""
    decided = SignOff.objects.filter(review=OuterRef("pk"), reviewer=user, round=OuterRef("round"))
    if team_ids is None:
        reviews = Review.objects.filter(
            state=ReviewState.SUBMITTED,
            team__memberships__user=user,
            team__memberships__role__in=DECIDER_ROLES,
        )
    else:
        reviews = Review.objects.filter(state=ReviewState.SUBMITTED, team_id__in=list(team_ids))
    return reviews.exclude(author=user).exclude(Exists(decided))


def approvals_waiting(user, team_ids: Iterable[int] | None = None) -> QuerySet[Review]:
    """The reviews the navigation badge counts (unordered: to count, or to count in a subquery);
    `team_ids`: the teams where `user` decides, if known."""
    return _waiting_for(user, team_ids)


def approvals_queue(user) -> QuerySet[Review]:
    """The reviewer's queue, oldest submission first (it has waited longest): its ids (a page's
    rows are read by `review_rows`)."""
    if not getattr(user, "is_authenticated", False):
        return Review.objects.none()
    return _waiting_for(user).order_by("submitted_at", "id")


def approvals_queue_rows(user) -> QuerySet[Review]:
    """The reviewer's queue as rows (the dashboard): a row's fields and counts."""
    return _as_rows(approvals_queue(user))


def approvals_waiting_count(user) -> int:
    """How many reviews wait for this user's decision: the navigation badge. One query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return _waiting_for(user).count()


ACTION_LABELS = {
    "created": _("created the review"),
    "updated": _("edited the review"),
    "candidate_added": _("added a candidate"),
    "candidate_updated": _("changed a candidate"),
    "candidate_removed": _("removed a candidate"),
    "links_reserved": _("changed the reserved channels"),
    "readiness_confirmed": _("confirmed the task's readiness (H2)"),
    "profile_field_fixed": _("set a field of the task profile from a finding"),
    "answer_saved": _("answered the checklist"),
    "reopened": _("reopened the review as a draft"),
    "submitted": _("submitted the review"),
    "signed_off": _("signed off"),
    "approved": _("— the review is approved"),
    "changes_requested": _("— changes are requested"),
    "rejected": _("— the review is rejected"),
    "cloned": _("cloned the review"),
    "comment_posted": _("commented"),
    "comment_edited": _("edited a comment"),
    "comment_deleted": _("deleted a comment"),
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
    if value in ANSWER_STATES:
        return str(ANSWER_STATES[value])
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


def review_signoffs(review: Review) -> list[SignOff]:
    return list(review.signoffs.select_related("reviewer").order_by("created_at", "id"))


def review_timeline(review: Review) -> list[AuditEvent]:
    return list(review.audit_events.select_related("actor").order_by("created_at", "id"))
