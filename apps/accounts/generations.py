"""The one invalidation key of cached pages: each team's generation.

Every write of a row that belongs to a team moves the team's generation: saves and deletes of one
row (signals.py), `update`, `delete`, `bulk_create` and `bulk_update` of a queryset
(`TeamOwnedQuerySet`, the manager of every model that reaches a team), `add`/`remove`/`clear` of
a many-to-many relation. What a cache holds for a team is keyed by its generation
(apps/web/fragments.py), so nothing is served after the team's data changed. Which models belong
to a team, and how each reaches it, is found from the foreign keys (`team_path`), not listed.
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache as memoized
from functools import partial

from django.core.cache import cache
from django.db import models, transaction

log = logging.getLogger(__name__)

TEAM_MODEL = "accounts.Team"
_CHUNK = 10_000  # ids per query (PostgreSQL takes at most 65,535 parameters)


def generation_key(team_id: int) -> str:
    return f"teamgen:{team_id}"


def fresh_generation() -> int:
    """A first generation no earlier one can have had: after the cache lost a team's generation,
    counting again from 1 could meet an entry stamped 1 before, and serve it."""
    return secrets.randbits(62)


def bump_generations(team_ids: Iterable[int]) -> None:
    """Move the teams' generations, in one round trip with the Redis cache (apps.web.cache)."""
    keys = [generation_key(t) for t in sorted(set(team_ids))]
    if not keys:
        return
    try:
        if (bump_many := getattr(cache, "incr_or_start_many", None)) is not None:
            bump_many({key: fresh_generation() for key in keys})
            return
        for key in keys:
            try:
                cache.incr(key)
            except ValueError:  # not set yet (or evicted): any new value invalidates
                cache.set(key, fresh_generation(), None)
    except Exception as exc:  # noqa: BLE001 - a cache outage must not fail the write
        log.warning("cache unavailable, generations %s not bumped: %s", keys, exc)


# Teams whose writes, for now, change only a page no cache keeps (`unseen_by_cached_pages`).
_unseen: ContextVar[frozenset[int]] = ContextVar("unseen_by_cached_pages", default=frozenset())


@contextmanager
def unseen_by_cached_pages(team_id: int, *, unless: bool = False) -> Iterator[None]:
    """The writes inside change only what no cached page draws (an answer of a review that takes
    answers: only its own page, which is never cached, shows it), so they leave the team's
    generation, and with it the team's other cached pages, alone. `unless` true: an ordinary
    block. tests/checklists/test_answer_cache.py draws every cached page of the team before and
    after such a write and finds them the same."""
    if unless:
        yield
        return
    token = _unseen.set(_unseen.get() | {team_id})
    try:
        yield
    finally:
        _unseen.reset(token)


def team_changed(team_ids: Iterable[int | None]) -> None:
    """The teams' data changed: bump now, and again once the transaction commits. A request that
    read the old rows between the two (the write not yet visible to it) kept them under the first
    new generation, which the second leaves behind; the first lets later reads in the same
    transaction see the change."""
    ids = frozenset(t for t in team_ids if t is not None) - _unseen.get()
    if not ids:
        return
    if transaction.get_connection().in_atomic_block:
        bump_generations(ids)
    transaction.on_commit(partial(bump_generations, ids))


@memoized
def team_path(model: type[models.Model]) -> str | None:
    """The lookup from `model` to its team's id ("pk" for the team, "review__team" for a
    candidate): the model's own `team_path` when it names one, else the shortest chain of
    foreign keys to the team. None: the model belongs to no team."""
    if model._meta.label == TEAM_MODEL:
        return "pk"
    if (named := getattr(model, "team_path", None)) is not None:
        return named
    queue, seen = deque([(model, "")]), {model}
    while queue:
        current, prefix = queue.popleft()
        for field in current._meta.concrete_fields:
            if not field.is_relation or field.related_model is None:
                continue
            path = f"{prefix}{field.name}"
            if field.related_model._meta.label == TEAM_MODEL:
                return path
            if field.related_model not in seen:
                seen.add(field.related_model)
                queue.append((field.related_model, f"{path}__"))
    return None


def team_id_of(instance: models.Model) -> int | None:
    """The team of one row, through the relations already loaded, else one query."""
    path = team_path(type(instance))
    if path is None:
        return None
    if path == "pk":
        return instance.pk
    obj, hops = instance, path.split("__")
    for i, hop in enumerate(hops):
        field = obj._meta.get_field(hop)
        value = getattr(obj, field.attname)
        if i == len(hops) - 1 or value is None:
            return value
        if not field.is_cached(obj):
            rest = "__".join(hops[i + 1 :])
            rows = field.related_model._base_manager.filter(pk=value)
            return rows.values_list(rest, flat=True).first()
        obj = getattr(obj, hop)
    return None


def team_ids_of_rows(rows: Iterable[models.Model]) -> set[int]:
    """The teams of many rows of one model, in one query at most."""
    rows = list(rows)
    if not rows:
        return set()
    path = team_path(type(rows[0]))
    if path is None:
        return set()
    if path == "pk":
        return {row.pk for row in rows}
    first, _, rest = path.partition("__")
    field = rows[0]._meta.get_field(first)
    ids = sorted({getattr(row, field.attname) for row in rows} - {None})
    if not rest:
        return set(ids)
    found = set()
    for start in range(0, len(ids), _CHUNK):
        linked = field.related_model._base_manager.filter(pk__in=ids[start : start + _CHUNK])
        found.update(linked.order_by().values_list(rest, flat=True).distinct())
    return found - {None}


class TeamOwnedQuerySet(models.QuerySet):
    """The queryset of every model that reaches a team: its bulk writes move the generations of
    the teams they touch (a single save or delete does through signals.py)."""

    def _team_ids(self) -> set[int]:
        path = team_path(self.model)
        if path is None:
            return set()
        return set(self.order_by().values_list(path, flat=True).distinct()) - {None}

    def bulk_create(self, objs, *args, **kwargs):
        created = super().bulk_create(objs, *args, **kwargs)
        team_changed(team_ids_of_rows(created))
        return created

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        updated = super().bulk_update(objs, fields, *args, **kwargs)
        team_changed(team_ids_of_rows(objs))
        return updated

    def update(self, **kwargs):
        teams = self._team_ids()
        updated = super().update(**kwargs)
        if updated:
            team_changed(teams)
        return updated

    update.alters_data = True

    def delete(self):
        teams = self._team_ids()
        deleted = super().delete()
        team_changed(teams)
        return deleted

    delete.alters_data = True
    delete.queryset_only = True
