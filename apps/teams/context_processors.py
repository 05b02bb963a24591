from __future__ import annotations

from functools import cache

from .nav_counts import cached_nav_counts, nav_counts_of

__all__ = ["nav_counts_of", "team_context"]


def team_context(request) -> dict:
    membership = getattr(request, "membership", None)
    memberships = getattr(request, "memberships", [])
    user = getattr(request, "user", None)

    @cache
    def nav_counts() -> tuple[int, int]:
        # Called by the template only when the navigation is drawn; once.
        if user is None or not user.is_authenticated:
            return 0, 0
        return cached_nav_counts(user, memberships)

    return {
        "current_team": getattr(request, "team", None),
        "current_membership": membership,
        "user_memberships": memberships,
        "is_owner": bool(membership and membership.is_owner),
        "can_review": bool(membership and membership.can_review),
        "approvals_waiting": lambda: nav_counts()[0],
        "notifications_unread": lambda: nav_counts()[1],
    }
