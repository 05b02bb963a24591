"""The bell's unread count, cheap on every page.

The count is one subquery, drawn in the same query as the approvals badge and cached with it
under the generations of the person's teams (apps/teams/context_processors.py): a notification
belongs to a team, so creating or reading one moves that team's generation.
"""

from __future__ import annotations

from django.db.models import F, Func, Subquery

from .selectors import unread


def unread_count_subquery(user, team_ids: list[int] | None = None):
    """The user's unread count as an expression, to be read in another query (`team_ids`: the
    user's teams, when known)."""
    rows = unread(user=user, team_ids=team_ids).order_by()
    rows = rows.annotate(n=Func(F("pk"), function="COUNT"))
    return Subquery(rows.values("n"))
