"""Cached page fragments, invalidated by a per-team generation key.

Every saved or deleted row of a team's data bumps that team's generation (signals registered in
AccountsConfig.ready), so a fragment stamped with the generations of the teams it shows is never
served after any of them changed: no expiry guesswork, no list of keys to delete. The entry's key
holds the request's language and query string and the viewer's own key parts; its value holds the
generations (and any other version keys) it was rendered under, read with it in one round trip.

Writes that bypass model signals (QuerySet.update, bulk_create without a parent save) must call
`bump_team_generation` themselves; the app's services do not use them on the cached models.

A request (PageCacheMiddleware) writes what it drew in one round trip at its end, and a GET asks
at its start, in one round trip, for every key the same page read for the same viewer the last
time this process answered it (`read_many` answers from that read-ahead).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils.translation import get_language

log = logging.getLogger(__name__)

FRAGMENT_SECONDS = 3600


def _gen_key(team_id: int, model: str | None = None) -> str:
    return f"teamgen:{team_id}" if model is None else f"teamgen:{team_id}:{model}"


def _fresh() -> int:
    """A first generation no earlier one can have had: after the cache lost a team's generation,
    counting again from 1 could meet a fragment stamped 1 before, and serve it."""
    return secrets.randbits(62)


def bump_team_generation(team_id: int | None, *topics: str) -> None:
    """Bump the team's generation and that of each of `topics` in the team: a model's label (any
    saved or deleted row of it), "<label>:rows" (a row of it added or removed) or "auth.User" (a
    member's user row saved; accounts.signals)."""
    if team_id is None:
        return
    drop_read_ahead()
    keys = [_gen_key(team_id), *(_gen_key(team_id, topic) for topic in topics)]
    try:
        # The Redis cache (apps.web.cache) bumps them all in one round trip.
        if (bump_many := getattr(cache, "incr_or_start_many", None)) is not None:
            bump_many({key: _fresh() for key in keys})
            return
        for key in keys:
            try:
                cache.incr(key)
            except ValueError:  # not set yet (or evicted): any new value invalidates
                cache.set(key, _fresh(), None)
    except Exception as exc:  # noqa: BLE001 - a cache outage must not fail the write
        log.warning("cache unavailable, generations %s not bumped: %s", keys, exc)


def team_generations(team_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(team_ids))
    found = cache.get_many([_gen_key(t) for t in ids])
    return {t: _generation(_gen_key(t), found.get(_gen_key(t))) for t in ids}


def topic_generations(team_ids: Iterable[int], *topics: str) -> tuple[int, ...]:
    """The generations of `topics` (bump_team_generation) in each team: a fragment's `inputs`
    can name them instead of reading what they stand for (a filter drawn from a thousand tasks,
    the authors of a team's reviews). One read of the cache; without a cache, values never seen
    before (so nothing drawn from them is found)."""
    keys = [_gen_key(t) for t in sorted(set(team_ids))]  # topics: one key per team now
    try:
        found = read_many(keys)
        return tuple(_generation(key, found.get(key)) for key in keys)
    except Exception as exc:  # noqa: BLE001 - drawn again
        log.warning("cache unavailable, generations of %s not read: %s", topics, exc)
        return tuple(_fresh() for _ in keys)


def _generation(key: str, value: int | None) -> int:
    if value is None:
        cache.add(key, _fresh(), None)
        value = _learned(key, cache.get(key))
    return value


def _learned(key: str, value):
    """A key this request has just set: what it read ahead of it says so from now on (a
    fragment drawn twice in one request after the cache lost it is then drawn once)."""
    state = _reads.get()
    if state is not None and key in state.ahead:
        state.ahead[key] = _ABSENT if value is None else value
    return value


def cached_fragment(
    name: str,
    *,
    team_ids: Iterable[int],
    parts: tuple,
    render: Callable[[], str],
    versions: tuple[str, ...] = (),
    inputs: Callable[[], object] | None = None,
) -> str:
    """The HTML `render()` returns, cached per `name`, teams, language and `parts`, and served
    while the teams' generations and the cache keys named in `versions` hold the values it was
    rendered under. The entry carries those values (its stamp), so a hit is one round trip: the
    generations, the versions and the entry in one read.

    `inputs()`, when given, returns everything the fragment is drawn from besides the key's
    parts (a filter form's choices): after a change of the teams' data, a fragment drawn from
    the same inputs is taken from the cache instead of drawn again."""
    ids = sorted(set(team_ids))
    gen_keys = [_gen_key(t) for t in ids]
    digest = hashlib.sha256(repr((ids, get_language(), parts)).encode()).hexdigest()
    key = f"fragment:{name}:{digest}"
    try:
        found = read_many([*gen_keys, *versions, key])
    except Exception as exc:  # noqa: BLE001 - no cache, no caching
        log.warning("cache unavailable, %s rendered uncached: %s", name, exc)
        return render()
    stamp = tuple(found.get(k) for k in (*gen_keys, *versions))
    entry = found.get(key)
    if pending := _pending.get():  # drawn earlier in this request, not yet written
        entry = next((kept[key] for kept in pending.values() if key in kept), entry)
    if entry is not None and None not in stamp and entry[0] == stamp:
        return entry[1]
    if None in stamp:  # first use, or the cache lost them: set before rendering
        try:
            stamp = (
                *(_generation(k, found.get(k)) for k in gen_keys),
                *(_version(k, found.get(k)) for k in versions),
            )
        except Exception as exc:  # noqa: BLE001 - the cache went away meanwhile
            log.warning("cache unavailable, %s rendered uncached: %s", name, exc)
            return render()
    drawn = _drawn_from(key, inputs) if inputs is not None else None
    html = _read(drawn) if drawn else None
    entries = {key: (stamp, html)}
    if html is None:  # drawn now (kept under its inputs too, when it has any)
        html = render()
        entries = {key: (stamp, html), **({drawn: html} if drawn else {})}
    keep(entries, FRAGMENT_SECONDS)
    return html


# What the request being answered has drawn and not yet written (writes_at_end).
_pending: ContextVar[dict[int, dict] | None] = ContextVar("pagecache_pending", default=None)


def keep(entries: dict, seconds: int) -> None:
    """Write `entries` to the cache for `seconds`: at once, or with everything else a request
    draws in one write at its end (writes_at_end). A cache outage loses them, nothing else."""
    pending = _pending.get()
    if pending is not None:
        pending.setdefault(seconds, {}).update(entries)
        return
    try:
        cache.set_many(entries, seconds)
    except Exception as exc:  # noqa: BLE001 - the page is served all the same
        log.warning("cache unavailable, %d entries not kept: %s", len(entries), exc)


@contextmanager
def writes_at_end():
    """Within it, what is drawn is kept in one write at the end, not one write per fragment and
    per set of rows (three to four round trips for a list page after a change)."""
    token = _pending.set({})
    try:
        yield
    finally:
        pending = _pending.get()
        _pending.reset(token)
        for seconds, entries in (pending or {}).items():
            keep(entries, seconds)


_ABSENT = object()
_USUAL_PAGES = 4096  # pages × viewers remembered per process; the oldest is dropped first
_USUAL_KEYS = 64  # at most this many keys read ahead for a page


@dataclass
class _Reads:
    ahead: dict[str, object]  # read at the request's start (_ABSENT: not in the cache)
    read: dict[str, None] = field(default_factory=dict)  # keys read since, in order


_reads: ContextVar[_Reads | None] = ContextVar("pagecache_reads", default=None)
_usual_lock = threading.Lock()
_usual: OrderedDict[tuple, tuple[str, ...]] = OrderedDict()


def read_many(keys: list[str]) -> dict:
    """`cache.get_many(keys)`, answered from the request's read-ahead when it holds them all."""
    state = _reads.get()
    if state is None:
        return cache.get_many(keys)
    state.read.update(dict.fromkeys(keys))
    if all(key in state.ahead for key in keys):
        return {key: value for key in keys if (value := state.ahead[key]) is not _ABSENT}
    return cache.get_many(keys)


def drop_read_ahead() -> None:
    """Forget what the request read ahead: a generation or version it holds has just changed
    (a GET that computes a snapshot, an inbox read)."""
    if (state := _reads.get()) is not None:
        state.ahead.clear()


@contextmanager
def reads_ahead(page: tuple | None):
    """Within it, the keys `page` read the last time are read in one round trip first, and the
    keys read now are remembered for the next time. `page` None: none read ahead or kept."""
    keys = None
    if page is not None:
        with _usual_lock:
            keys = _usual.get(page)
    ahead = {}
    if keys:
        try:
            found = cache.get_many(keys)
            ahead = {key: found.get(key, _ABSENT) for key in keys}
        except Exception as exc:  # noqa: BLE001 - each read tries again (and fails alone)
            log.warning("cache unavailable, nothing read ahead: %s", exc)
    token = _reads.set(_Reads(ahead))
    try:
        yield
    finally:
        state = _reads.get()
        _reads.reset(token)
        if page is not None and state.read:
            with _usual_lock:
                _usual[page] = tuple(state.read)[:_USUAL_KEYS]
                _usual.move_to_end(page)
                if len(_usual) > _USUAL_PAGES:
                    _usual.popitem(last=False)


def _usual_page(request) -> tuple | None:
    """What identifies a page's reads: its path and query, the viewer, language and htmx."""
    if request.method not in ("GET", "HEAD"):
        return None  # a write changes what the page reads after it
    user = getattr(request, "user", None)
    viewer = user.pk if user is not None and user.is_authenticated else None
    return (request.get_full_path(), viewer, get_language(), request.headers.get("HX-Request"))


class PageCacheMiddleware:
    """A request's cache reads start with one read of those its page made the last time, and
    its cached fragments and rows are written once, when its view has answered."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with reads_ahead(_usual_page(request)), writes_at_end():
            return self.get_response(request)


def _drawn_from(key: str, inputs: Callable[[], object]) -> str:
    """The key of the fragment drawn from these inputs (whatever the generations)."""
    return f"{key}:drawn:{hashlib.sha256(repr(inputs()).encode()).hexdigest()}"


def _read(key: str) -> str | None:
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - drawn again
        return None


def _version(key: str, value: str | None) -> str:
    """A version key the cache lost gets a value never used before (so no entry is stamped
    with it)."""
    if value is None:
        cache.add(key, uuid.uuid4().hex, None)
        value = _learned(key, cache.get(key))
    return value
