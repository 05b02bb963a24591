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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache as memoized
from functools import partial

from django.core.cache import cache
from django.db import models, transaction

log = logging.getLogger(__name__)

TEAM_MODEL = "accounts.Team"
_CHUNK = 10_000  # ids per query (PostgreSQL takes at most 65,535 parameters)


GENERATION_PREFIX = "teamgen"


def generation_key(team_id: int) -> str:
    return f"{GENERATION_PREFIX}:{team_id}"


def fresh_generation() -> int:
    """A first generation no earlier one can have had: after the cache lost a team's generation,
    counting again from 1 could meet an entry stamped 1 before, and serve it."""
    return secrets.randbits(62)


def bump_generations(team_ids: Iterable[int]) -> None:
    """Move the teams' generations, in one round trip with the Redis cache (apps.web.cache)."""
    bump_keys([generation_key(t) for t in set(team_ids)])


def bump_keys(keys: Iterable[str]) -> None:
    """Move these generation keys (a team's, or a narrower one), in one round trip with the Redis
    cache (apps.web.cache)."""
    keys = sorted(set(keys))
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


# Keys narrower than a team's generation (prefix → what feeds them): a family of per-team keys
# ("<prefix>:<team id>") moved only by writes of the models whose rows feed it, and, for a write
# that names its fields (save(update_fields=…), update(), bulk_update()), only when one of them
# is a column it reads. What feeds it is found by whoever registers it (apps/teams/nav_counts.py
# reads it from its query's SQL), once, at the first write.
_narrow: dict[str, Callable[[], dict[type[models.Model], frozenset[str]]]] = {}


def register_narrow_key(prefix: str, fed_by: Callable[[], dict]) -> None:
    """`fed_by()`: model → the columns of it the key's data reads."""
    _narrow[prefix] = memoized(fed_by)


def narrow_prefixes() -> list[str]:
    return list(_narrow)


def narrow_key(prefix: str, team_id: int) -> str:
    return f"{prefix}:{team_id}"


def _columns(model: type[models.Model], fields: Iterable[str]) -> set[str]:
    """The columns of `fields` (names or attnames, as save, update and bulk_update take them)."""
    by_name = {f.name: f for f in model._meta.concrete_fields}
    by_name.update({f.attname: f for f in model._meta.concrete_fields})
    return {by_name[name].column if name in by_name else name for name in fields}


def _narrow_keys(ids: frozenset[int], model, fields) -> list[str]:
    """The narrower keys this write moves: all of them for a write of unknown kind."""
    keys = []
    for prefix, fed_by in _narrow.items():
        read = fed_by() if model is not None else None
        if read is not None:
            if model not in read:
                continue
            if fields is not None and not (_columns(model, fields) & read[model]):
                continue
        keys.extend(narrow_key(prefix, t) for t in ids)
    return keys


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


def team_changed(
    team_ids: Iterable[int | None],
    *,
    model: type | None = None,
    fields: Iterable[str] | None = None,
) -> None:
    """The teams' data changed (rows of `model`; only `fields` of them, when the write names
    them): bump now, and again once the transaction commits. A request that read the old rows
    between the two (the write not yet visible to it) kept them under the first new generation,
    which the second leaves behind; the first lets later reads in the same transaction see the
    change. The narrower keys the write feeds move with them, inside `unseen_by_cached_pages`
    too."""
    ids = frozenset(t for t in team_ids if t is not None)
    if not ids:
        return
    fields = None if fields is None else list(fields)
    keys = [generation_key(t) for t in ids - _unseen.get()] + _narrow_keys(ids, model, fields)
    if not keys:
        return
    if transaction.get_connection().in_atomic_block:
        bump_keys(keys)
    transaction.on_commit(partial(bump_keys, keys))


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
        team_changed(team_ids_of_rows(created), model=self.model)
        return created

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        updated = super().bulk_update(objs, fields, *args, **kwargs)
        team_changed(team_ids_of_rows(objs), model=self.model, fields=fields)
        return updated

    def update(self, **kwargs):
        teams = self._team_ids()
        updated = super().update(**kwargs)
        if updated:
            team_changed(teams, model=self.model, fields=kwargs)
        return updated

    update.alters_data = True

    def delete(self):
        teams = self._team_ids()
        deleted = super().delete()
        team_changed(teams, model=self.model)
        return deleted

    delete.alters_data = True
    delete.queryset_only = True
