"""The bell's unread count, cheap on every page.

The count is one subquery, drawn in the same query as the approvals badge
(apps/teams/context_processors.py) and cached with it; each person's inbox version (a cache key,
no database) changes whenever their unread rows change, so a cached count is never stale.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Func, Subquery

from apps.accounts.pagecache import drop_read_ahead

from .selectors import unread

log = logging.getLogger(__name__)


def inbox_key(user_id: int) -> str:
    """The cache key of the user's inbox version: a value that changes with their unread rows
    (a count is cached stamped with it, apps/teams/context_processors.py)."""
    return f"inbox-version:{user_id}"


def inbox_changed(user_ids: Iterable[int]) -> None:
    """After the transaction commits: the bells of these people count again."""
    versions = {inbox_key(user_id): uuid.uuid4().hex for user_id in user_ids}
    if not versions:
        return

    def bump() -> None:
        drop_read_ahead()  # this request's bell counts again
        try:
            cache.set_many(versions, None)
        except Exception as exc:  # noqa: BLE001 - a cache that is down caches nothing either
            log.warning("inbox versions not bumped: %s", exc)

    transaction.on_commit(bump)


def unread_count_subquery(user):
    """The user's unread count as an expression, to be read in another query."""
    rows = unread(user=user).order_by().annotate(n=Func(F("pk"), function="COUNT"))
    return Subquery(rows.values("n"))
