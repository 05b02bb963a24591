from __future__ import annotations

from functools import cache

# Stands for the viewer's id while the counting query is built once per process.
_VIEWER = -1_999_999_999  # in the range of an integer column, so the query is not cut short


@cache
def _counts_query(can_review: bool) -> tuple[str, tuple]:
    """The SQL of (reviews waiting for the viewer's decision, their unread notifications),
    compiled once per process: building it through the ORM cost ~3 ms a time (two subqueries,
    an EXISTS), more than running it. The rules stay in their selectors; `_VIEWER` marks where
    the viewer's id goes."""
    from django.contrib.auth import get_user_model
    from django.db.models import F, Func, Subquery, Value

    from apps.notifications.bell import unread_count_subquery
    from apps.reviews.selectors import approvals_waiting

    waiting = Value(0)
    if can_review:
        rows = approvals_waiting(_VIEWER).order_by().annotate(n=Func(F("pk"), function="COUNT"))
        waiting = Subquery(rows.values("n"))
    query = (
        get_user_model()
        .objects.filter(pk=_VIEWER)
        .annotate(waiting=waiting, unread=unread_count_subquery(_VIEWER))
        .values_list("waiting", "unread")
    )
    sql, params = query.query.sql_with_params()
    assert _VIEWER in params, "the counting query no longer depends on the viewer"
    return sql, tuple(params)


def nav_counts_of(user, memberships) -> tuple[int, int]:
    """(reviews waiting for the user's decision, unread notifications), counted now."""
    from django.db import connection

    sql, params = _counts_query(any(m.can_review for m in memberships))
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk if p == _VIEWER else p for p in params])
        waiting, unread = cursor.fetchone()
    return waiting, unread


def _nav_counts(user, memberships) -> tuple[int, int]:
    """The navigation's counts, cached until one of the user's teams or their inbox changes:
    one read of the cache when they did not."""
    from apps.accounts.pagecache import cached_fragment
    from apps.notifications.bell import inbox_key

    def render() -> str:
        waiting, unread = nav_counts_of(user, memberships)
        return f"{waiting}:{unread}"

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
