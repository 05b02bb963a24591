"""Reads of the history list: its filters, its rows and the choices of its filter form."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import CharField, Exists, F, OuterRef, Q, QuerySet
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from apps.accounts.access import scoped
from apps.accounts.models import team_ids_for
from apps.reviews.models import ReviewState, SignOff
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.web.search import search_queryset, term_filter
from apps.web.typeahead import TypeAhead

# What a row of the history shows: not the JSON documents, nor the other columns of the review,
# the task and the team (reading them cost more than drawing the row), whose few fields shown
# come as values (HISTORY_ROW_JOINED), not as model instances (~1 ms a page to build).
HISTORY_ROW_FIELDS = (
    "id",
    "created_at",
    "platform",
    "chosen_kind",
    "chosen_offer",
    "chosen_site",
    "chosen_total_cost",
    "chosen_total_hours",
    "block_count",
    "warn_count",
    "engine_version",
)
HISTORY_ROW_JOINED = {
    "team_name": "team__name",
    "team_currency": "team__currency",
    "review_title": "review__title",
    "review_status": "review__state",
    "task_name": "task__name",
}


# What the search box looks in (apps.web.search), the chosen offer's name aside.
HISTORY_SEARCH_FIELDS = (
    "task__name",
    "review__title",
    "review__author__username",
    "review__author__first_name",
    "review__author__last_name",
    "chosen_site",
    "team__name",
)


@dataclass(frozen=True)
class HistoryFilters:
    team: int | None = None
    tasks: Any = None  # ids the type-ahead box named, a list or a subquery (None: no filter)
    state: str = ""
    decision: str = ""
    reviewers: Any = None
    date_from: date | None = None
    date_to: date | None = None
    q: str = ""


def history_snapshots(user, filters: HistoryFilters) -> QuerySet[EvaluationSnapshot]:
    """Every snapshot of the user's teams, newest first, filtered; a row's fields only.

    `state` filters on the review's current state (what it is now, not what it was when the
    snapshot was computed); `decision` and `reviewer` on the review's sign-offs.
    """
    qs = scoped(EvaluationSnapshot, user).order_by("-created_at", "-id")
    if filters.team:
        qs = qs.filter(team_id=filters.team)
    if filters.tasks is not None:
        qs = qs.filter(task_id__in=filters.tasks)
    if filters.state:
        qs = qs.filter(review__state=filters.state)
    if filters.decision or filters.reviewers is not None:
        signoffs = SignOff.objects.filter(review=OuterRef("review_id"))
        if filters.decision:
            signoffs = signoffs.filter(decision=filters.decision)
        if filters.reviewers is not None:
            signoffs = signoffs.filter(reviewer_id__in=filters.reviewers)
        qs = qs.filter(Exists(signoffs))
    if filters.date_from:
        qs = qs.filter(created_at__date__gte=filters.date_from)
    if filters.date_to:
        qs = qs.filter(created_at__date__lte=filters.date_to)
    if filters.q:
        qs = search_queryset(qs, filters.q, HISTORY_SEARCH_FIELDS, extra=_chosen_offer_matching)
    return qs


def _chosen_offer_matching(term: str) -> Q:
    """Snapshots whose chosen offer (kept as its id, a string) has `term` in its name or
    provider."""
    from apps.catalog.models import Offer

    offers = Offer.objects.filter(term_filter(term, ("name", "provider")))
    return Q(chosen_offer__in=offers.annotate(key=Cast("pk", CharField())).values("key"))


def history_rows(ids: Iterable[int]) -> QuerySet[EvaluationSnapshot]:
    """The rows of a page of the history by id (apps.web.paging): a row's fields, no more."""
    rows = EvaluationSnapshot.objects.filter(pk__in=list(ids)).only(*HISTORY_ROW_FIELDS)
    return rows.annotate(**{name: F(path) for name, path in HISTORY_ROW_JOINED.items()})


def label_rows(snapshots) -> None:
    """Set `chosen_offer_label` ("provider · name") and `review_state_label` on each snapshot of
    a page: one query."""
    from apps.catalog.models import Offer

    snapshots = list(snapshots)
    ids = {int(o) for o in (s.chosen_offer for s in snapshots) if o.isascii() and o.isdigit()}
    names = {
        str(pk): f"{provider} · {name}"
        for pk, provider, name in Offer.objects.filter(pk__in=ids).values_list(
            "pk", "provider", "name"
        )
    }
    for snapshot in snapshots:
        snapshot.chosen_offer_label = names.get(snapshot.chosen_offer, snapshot.chosen_offer)
        snapshot.review_state_label = str(ReviewState(snapshot.review_status).label)


def history_typeaheads(user, several_teams: bool) -> dict[str, TypeAhead]:
    """The history's type-ahead filters (apps.web.typeahead): the tasks of the user's teams by
    name (labelled with the team when they have several), and who signed off a review of their
    teams by username or name."""
    from apps.profiles.models import TaskProfile

    reviewers = get_user_model().objects.filter(
        signoffs__review__team_id__in=team_ids_for(user)
    ).distinct()
    return {
        "task": TypeAhead(
            rows=lambda: scoped(TaskProfile, user),
            names=("name",),
            label_fields=("team__name",),
            label=lambda r: f"{r['name']} · {r['team__name']}" if several_teams else r["name"],
            missing=_("No task of your teams is called or contains “%(text)s”."),
        ),
        "reviewer": TypeAhead(
            rows=lambda: reviewers,
            names=("username", "first_name", "last_name"),
            label=lambda r: f"{r['first_name']} {r['last_name']}".strip() or r["username"],
            missing=_("No one who signed off is called or contains “%(text)s”."),
        ),
    }
