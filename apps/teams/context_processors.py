from __future__ import annotations

from functools import cache


def nav_counts_of(user, memberships) -> tuple[int, int]:
    """(reviews waiting for the user's decision, unread notifications), counted now: one query."""
    from django.contrib.auth import get_user_model
    from django.db.models import F, Func, Subquery, Value

    from apps.notifications.bell import unread_count_subquery
    from apps.reviews.selectors import approvals_waiting

    # The teams as the request already read them: plain id lists, no join to memberships again
    # (building the joined query cost more than running it).
    deciding = [m.team_id for m in memberships if m.can_review]
    waiting = Value(0)
    if deciding:
        rows = approvals_waiting(user, deciding).order_by()
        waiting = Subquery(rows.annotate(n=Func(F("pk"), function="COUNT")).values("n"))
    team_ids = [m.team_id for m in memberships]
    unread = unread_count_subquery(user, team_ids) if team_ids else Value(0)
    counts = get_user_model().objects.filter(pk=user.pk)
    counts = counts.annotate(waiting=waiting, unread=unread)
    return counts.values_list("waiting", "unread").get()


def _nav_counts(user, memberships) -> tuple[int, int]:
    """The navigation's counts, cached until one of the user's teams changes (a notification
    belongs to a team too): one read of the cache when none did."""
    from apps.web.fragments import cached_fragments

    def counts() -> str:
        waiting, unread = nav_counts_of(user, memberships)
        return f"{waiting}:{unread}"

    text = cached_fragments(
        "nav-counts",
        team_ids=[m.team_id for m in memberships],
        parts=(user.pk,),
        fragments={"counts": counts},
    )["counts"]
    waiting, unread = (int(n) for n in text.split(":"))
    return waiting, unread


def team_context(request) -> dict:
    membership = getattr(request, "membership", None)
    memberships = getattr(request, "memberships", [])
    user = getattr(request, "user", None)

    @cache
    def nav_counts() -> tuple[int, int]:
        # Called by the template only when the navigation is drawn; once.
        if user is None or not user.is_authenticated:
            return 0, 0
        return _nav_counts(user, memberships)

    return {
        "current_team": getattr(request, "team", None),
        "current_membership": membership,
        "user_memberships": memberships,
        "is_owner": bool(membership and membership.is_owner),
        "can_review": bool(membership and membership.can_review),
        "approvals_waiting": lambda: nav_counts()[0],
        "notifications_unread": lambda: nav_counts()[1],
    }
