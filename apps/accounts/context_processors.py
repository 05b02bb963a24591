from __future__ import annotations


def team_context(request) -> dict:
    membership = getattr(request, "membership", None)
    return {
        "current_team": getattr(request, "team", None),
        "current_membership": membership,
        "user_memberships": getattr(request, "memberships", []),
        "is_owner": bool(membership and membership.is_owner),
        "can_review": bool(membership and membership.can_review),
    }
