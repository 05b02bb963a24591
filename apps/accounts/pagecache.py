"""Cached page fragments, invalidated by a per-team generation key.

Every saved or deleted row of a team's data bumps that team's generation (signals registered in
AccountsConfig.ready), so a fragment cached under the generations of the teams it shows is never
served after any of them changed: no expiry guesswork, no list of keys to delete. The key also
holds the request's language and query string, and the viewer's own key parts.

Writes that bypass model signals (QuerySet.update, bulk_create without a parent save) must call
`bump_team_generation` themselves; the app's services do not use them on the cached models.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable

from django.core.cache import cache
from django.utils.translation import get_language

log = logging.getLogger(__name__)

FRAGMENT_SECONDS = 3600


def _gen_key(team_id: int) -> str:
    return f"teamgen:{team_id}"


def bump_team_generation(team_id: int | None) -> None:
    if team_id is None:
        return
    key = _gen_key(team_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # not set yet (or evicted): any new value invalidates
            cache.set(key, 2, None)
    except Exception as exc:  # noqa: BLE001 - a cache outage must not fail the write
        log.warning("cache unavailable, generation of team %s not bumped: %s", team_id, exc)


def team_generations(team_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(team_ids))
    found = cache.get_many([_gen_key(t) for t in ids])
    generations = {}
    for team_id in ids:
        value = found.get(_gen_key(team_id))
        if value is None:
            cache.add(_gen_key(team_id), 1, None)
            value = cache.get(_gen_key(team_id), 1)
        generations[team_id] = value
    return generations


def cached_fragment(
    name: str, *, team_ids: Iterable[int], parts: tuple, render: Callable[[], str]
) -> str:
    """The HTML `render()` returns, cached under the teams' generations and `parts`."""
    try:
        generations = team_generations(team_ids)
    except Exception as exc:  # noqa: BLE001 - no cache, no caching
        log.warning("cache unavailable, %s rendered uncached: %s", name, exc)
        return render()
    digest = hashlib.sha256(repr((sorted(generations.items()), get_language(), parts)).encode())
    key = f"fragment:{name}:{digest.hexdigest()}"
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, FRAGMENT_SECONDS)
    return html
