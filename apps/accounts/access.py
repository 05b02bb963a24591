"""The one place views get team-scoped objects and check roles.

Every view starts with one of these helpers, so no view can forget the team scope: an object of
another team is simply not found (404), and a role that is too low is refused (403).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest

from .models import Membership, Role, Team


def scoped(model_or_queryset: type[Model] | QuerySet, user) -> QuerySet:
    """The rows of `model_or_queryset` that belong to one of the user's teams."""
    queryset = (
        model_or_queryset
        if isinstance(model_or_queryset, QuerySet)
        else model_or_queryset.objects.all()
    )
    return queryset.for_user(user)


def get_scoped_or_404(model_or_queryset: type[Model] | QuerySet, user, **lookup):
    try:
        return scoped(model_or_queryset, user).get(**lookup)
    except (
        scoped(model_or_queryset, user).model.DoesNotExist,
        ValueError,
        TypeError,
    ) as exc:
        raise Http404("Not found") from exc


def membership_for(request: HttpRequest, team: Team | int) -> Membership | None:
    team_id = team if isinstance(team, int) else team.pk
    for membership in getattr(request, "memberships", []):
        if membership.team_id == team_id:
            return membership
    return None


def can_write(request: HttpRequest, team: Team | int) -> bool:
    """Whether the user writes records in `team`: members (who run the jobs) and owners."""
    membership = membership_for(request, team)
    return bool(membership and membership.role in (Role.MEMBER, Role.OWNER))


def require_role(request: HttpRequest, team: Team | int, *roles: str) -> Membership:
    """The user's membership of `team` with one of `roles` (owner always passes); else 403/404."""
    membership = membership_for(request, team)
    if membership is None:
        raise Http404("Not found")
    if roles and membership.role not in roles and membership.role != Role.OWNER:
        raise PermissionDenied
    return membership


def require_current_team(request: HttpRequest) -> Team:
    team = getattr(request, "team", None)
    if team is None:
        raise Http404("You are not a member of any team yet.")
    return team
