"""The one cache of drawn markup: a view's fragments, kept under what they show.

An entry's key holds the release (settings.RELEASE_ID: a deploy never serves old markup), the
fragment's name, the language, the teams and the view's own parts (the request's query, the
viewer when it shows something of theirs); its value holds the teams' generations it was drawn
under (apps/accounts/generations.py), so a hit is served only while none of the teams changed.
A view reads all its fragments and the generations in one `get_many` and writes those it drew in
one `set_many`. The page's ETag (`page_etag`) is built from the same generations, so any write
that changes what a page shows changes its ETag.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterable

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from apps.accounts.generations import (
    GENERATION_PREFIX,
    fresh_generation,
    narrow_key,
    narrow_prefixes,
)

log = logging.getLogger(__name__)

FRAGMENT_SECONDS = 3600


def release() -> str:
    """The release in every key; in development (DEBUG, no RELEASE_ID) it also follows the
    templates as they are edited, since the server is not restarted for a template."""
    if settings.DEBUG and not os.environ.get("RELEASE_ID"):
        from config.settings import templates_stamp

        dirs = [d for engine in settings.TEMPLATES for d in engine.get("DIRS", ())]
        return f"{settings.RELEASE_ID}-{templates_stamp(*dirs)}"
    return settings.RELEASE_ID


def _generations(keys: list[str], found: dict) -> tuple:
    """The generations as read; one the cache lost (or never had) starts now."""
    values = []
    for key in keys:
        value = found.get(key)
        if value is None:
            cache.add(key, fresh_generation(), None)
            value = cache.get(key)
        values.append(value)
    return tuple(values)


def cached_fragments(
    name: str,
    *,
    team_ids: Iterable[int],
    parts: tuple,
    fragments: dict[str, Callable[[], str]],
    prefix: str = GENERATION_PREFIX,
) -> dict[str, SafeString]:
    """The HTML of each of `fragments` (name → a function that draws it), from the cache while
    the teams' generations hold, else drawn: one read for all of them, one write of those drawn.
    `parts` is everything else the fragments show (the query, the viewer). `prefix`: a narrower
    key than the teams' generations (apps.accounts.generations.register_narrow_key)."""
    ids = sorted(set(team_ids))
    digest = hashlib.sha256(repr((get_language(), ids, parts)).encode()).hexdigest()
    keys = {part: f"{release()}:{name}#{part}:{digest}" for part in fragments}
    gen_keys = [narrow_key(prefix, t) for t in ids]
    try:
        found = cache.get_many([*gen_keys, *keys.values()])
        stamp = _generations(gen_keys, found)
    except Exception as exc:  # noqa: BLE001 - no cache: drawn, not kept
        log.warning("cache unavailable, %s drawn uncached: %s", name, exc)
        return {part: mark_safe(draw()) for part, draw in fragments.items()}  # noqa: S308
    html, drawn = {}, {}
    for part, draw in fragments.items():
        entry = found.get(keys[part])
        if entry is not None and entry[0] == stamp:
            html[part] = entry[1]
        else:
            html[part] = draw()
            drawn[keys[part]] = (stamp, html[part])
    return _kept(name, html, drawn)


def exact_fragments(
    name: str, *, parts: tuple, fragments: dict[str, Callable[[], str]]
) -> dict[str, SafeString]:
    """The HTML of each of `fragments` drawn from data that never changes (a signed snapshot's),
    kept under an exact key: the release, the fragment's name, the language and `parts` (which
    must name everything the markup shows), no generation. One read, one write of those drawn."""
    digest = hashlib.sha256(repr((get_language(), parts)).encode()).hexdigest()
    keys = {part: f"{release()}:{name}#{part}:{digest}" for part in fragments}
    try:
        found = cache.get_many(list(keys.values()))
    except Exception as exc:  # noqa: BLE001 - no cache: drawn, not kept
        log.warning("cache unavailable, %s drawn uncached: %s", name, exc)
        found = {}
    html, drawn = {}, {}
    for part, draw in fragments.items():
        html[part] = found.get(keys[part])
        if html[part] is None:
            html[part] = drawn[keys[part]] = draw()
    return _kept(name, html, drawn)


def _kept(name: str, html: dict[str, str], drawn: dict[str, object]) -> dict[str, SafeString]:
    """Keep the entries just drawn (one write) and give every fragment's HTML as safe."""
    if drawn:
        try:
            cache.set_many(drawn, FRAGMENT_SECONDS)
        except Exception as exc:  # noqa: BLE001 - served all the same
            log.warning("cache unavailable, %s not kept: %s", name, exc)
    # Our own templates, rendered and escaped.
    return {part: mark_safe(value) for part, value in html.items()}  # noqa: S308


def page_etag(request: HttpRequest, *parts) -> str | None:
    """The ETag of a page drawn from the viewer's teams' data: the release, language, shape,
    viewer, their session's CSRF secret (the page carries a token), current team and the
    generations of all their teams (the header shows each) and their narrower keys (the
    navigation's counts), with the view's `parts`. None (no conditional answer) when messages
    wait to be shown or the cache is down."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or len(get_messages(request)):
        return None
    ids = sorted(m.team_id for m in getattr(request, "memberships", []))
    # The navigation's counts have their own key (apps/teams/nav_counts.py): every family.
    gen_keys = [narrow_key(p, t) for p in (GENERATION_PREFIX, *narrow_prefixes()) for t in ids]
    try:
        found = cache.get_many(gen_keys)
        generations = _generations(gen_keys, found)
    except Exception:  # noqa: BLE001 - answered in full
        return None
    team = getattr(request, "team", None)
    key = (
        release(),
        get_language(),
        request.headers.get("HX-Request"),
        request.get_full_path(),
        user.pk,
        request.META.get("CSRF_COOKIE"),
        getattr(team, "pk", None),
        tuple(zip(gen_keys, generations, strict=True)),
        parts,
    )
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]
