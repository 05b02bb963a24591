from __future__ import annotations

from functools import cache


def _nav_counts(user, memberships) -> tuple[int, int]:
    """(reviews waiting for the user's decision, unread notifications): one query for both,
    cached until one of the user's teams or their inbox changes."""
    from django.contrib.auth import get_user_model
    from django.db.models import F, Func, Subquery, Value

    from apps.accounts.pagecache import cached_fragment
    from apps.notifications.bell import inbox_key, unread_count_subquery
    from apps.reviews.selectors import approvals_waiting

    def render() -> str:
        waiting = Value(0)
        if any(m.can_review for m in memberships):
            rows = approvals_waiting(user).order_by().annotate(n=Func(F("pk"), function="COUNT"))
            waiting = Subquery(rows.values("n"))
        row = (
            get_user_model()
            .objects.filter(pk=user.pk)
            .annotate(waiting=waiting, unread=unread_count_subquery(user))
            .values_list("waiting", "unread")
            .get()
        )
        return f"{row[0]}:{row[1]}"

    # One round trip when cached: the teams' generations, the inbox version and the counts.
    text = cached_fragment(
        "nav-counts",
        team_ids=[m.team_id for m in memberships],
        parts=(user.pk,),
        render=render,
        versions=(inbox_key(user.pk),),
    )
    waiting, unread = (int(n) for n in text.split(":"))
    return waiting, unread


def team_context(request) -> dict:
    membership = getattr(request, "membership", None)
    memberships = getattr(request, "memberships", [])
    user = getattr(request, "user", None)

    @cache
    def nav_counts() -> tuple[int, int]:
        # Called by the template only when the navigation is drawn; one query, once.
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
