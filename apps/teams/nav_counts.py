"""The navigation's counts (reviews waiting for the viewer's decision, unread notifications),
kept under their own key: `navgen:<team id>`, moved only by writes of what the counts read.

What they read is found from the counting query's own SQL (`fed_by`): the models whose tables
it names and, of each, the columns it names. A write of such a model moves the key of its team
(apps/accounts/generations.py: save and delete through signals, `update`, `delete`,
`bulk_create` and `bulk_update` through the team models' queryset, each again on commit); one
that names its fields (`save(update_fields=…)`, `update`, `bulk_update`) only when one of them
is a column the counts read. Any other write of the team (a comment, an actual cost, a review's
title) leaves the counts cached. The viewer's memberships (which teams, where they decide) are
part of the entry's key, so a new role or team is a new entry.
tests/teams/test_nav_count_key.py writes every model the SQL names through every path and views
a page after each.
"""

from __future__ import annotations

import re
from functools import cache
from types import SimpleNamespace

from django.apps import apps
from django.db import connection

NAV_PREFIX = "navgen"


def counts_query(user, memberships):
    """The counts as one query (a row of two numbers) over the user's row."""
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
    return counts.annotate(waiting=waiting, unread=unread).values_list("waiting", "unread")


def nav_counts_of(user, memberships) -> tuple[int, int]:
    """(reviews waiting for the user's decision, unread notifications), counted now: one query."""
    return counts_query(user, memberships).get()


def fed_by() -> dict:
    """Model → the columns of it the counts read: every table and column the query's SQL names
    (for a viewer who decides in a team; a column name met in another table's clause counts
    too, which only ever adds one)."""
    from django.contrib.auth import get_user_model

    probe = [SimpleNamespace(team_id=0, can_review=True)]
    query = counts_query(get_user_model()(pk=0), probe).query
    sql, _ = query.get_compiler(connection=connection).as_sql()
    names = set(re.findall(r'"([^"]+)"', sql))
    found = {}
    for model in apps.get_models():
        if model._meta.db_table in names:
            columns = {f.column for f in model._meta.concrete_fields}
            found[model] = frozenset(columns & names)
    return found


def cached_nav_counts(user, memberships) -> tuple[int, int]:
    """The counts, cached until a write that feeds them moves the key of one of the user's teams:
    one read of the cache when none did."""
    from apps.web.fragments import cached_fragments

    def counts() -> str:
        waiting, unread = nav_counts_of(user, memberships)
        return f"{waiting}:{unread}"

    deciding = sorted(m.team_id for m in memberships if m.can_review)
    text = cached_fragments(
        "nav-counts",
        team_ids=[m.team_id for m in memberships],
        parts=(user.pk, tuple(deciding)),
        fragments={"counts": counts},
        prefix=NAV_PREFIX,
    )["counts"]
    waiting, unread = (int(n) for n in text.split(":"))
    return waiting, unread


@cache
def register() -> None:
    from apps.accounts.generations import register_narrow_key

    register_narrow_key(NAV_PREFIX, fed_by)
