from __future__ import annotations

from functools import cache


def team_context(request) -> dict:
    membership = getattr(request, "membership", None)
    memberships = getattr(request, "memberships", [])
    user = getattr(request, "user", None)

    @cache
    def approvals_waiting() -> int:
        # Called by the template only when the navigation is drawn; one query, once.
        if not any(m.can_review for m in memberships):
            return 0
        from apps.accounts.pagecache import cached_fragment
        from apps.reviews.selectors import approvals_waiting_count

        # Cached until one of the user's teams changes (a submission, a sign-off …).
        return int(
            cached_fragment(
                "approvals-waiting",
                team_ids=[m.team_id for m in memberships],
                parts=(user.pk,),
                render=lambda: str(approvals_waiting_count(user)),
            )
        )

    return {
        "current_team": getattr(request, "team", None),
        "current_membership": membership,
        "user_memberships": memberships,
        "is_owner": bool(membership and membership.is_owner),
        "can_review": bool(membership and membership.can_review),
        "approvals_waiting": approvals_waiting,
    }
