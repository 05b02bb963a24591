"""List rows drawn once per content, not once per change of the team.

A list's rows are cached with the list (apps/web/htmx.shared_fragment) until the team's data
changes; then the whole list is drawn again, though a change touches one row at most. Here each
row's HTML is also kept under what it shows: the fields the list's query read of the row and of
the rows it joined (lists read only a row's fields, `.only(...)`), its annotations and the
attributes set on it, the language, the time zone and the row template's own context. A row
that did not change comes from one read of the cache for the page; only changed ones are drawn.

What the row template shows must come from the row or from `context`: anything else it reads
(the request, the time) would be kept as it was first drawn. A row never holds a CSRF token.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.db.models import Model
from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

from apps.accounts.pagecache import keep

from .htmx import render_shared

log = logging.getLogger(__name__)

ROW_SECONDS = 3600


def row_state(obj: Model) -> tuple:
    """Everything loaded on a row: its fields and annotations, attributes set on it, and the
    same of the rows it was joined to (select_related)."""
    own = tuple(sorted((k, v) for k, v in vars(obj).items() if not k.startswith("_")))
    joined = tuple(
        sorted((k, row_state(v)) for k, v in obj._state.fields_cache.items() if v is not None)
    )
    return (obj._meta.label, own, joined)


def drawn_rows(
    request: HttpRequest,
    page: str,
    partial: str,
    rows: Iterable[Model],
    *,
    name: str,
    context: dict | None = None,
) -> list[SafeString]:
    """The HTML of `page#partial` for each row (bound to `name`), from the cache when the same
    content was drawn before, in one read for the page."""
    rows = list(rows)
    context = context or {}
    common = (page, partial, get_language(), get_current_timezone_name(), sorted(context.items()))
    keys = [
        "row:" + hashlib.sha256(repr((common, row_state(obj))).encode()).hexdigest() for obj in rows
    ]
    try:
        found = cache.get_many(keys)
    except Exception as exc:  # noqa: BLE001 - no cache: every row is drawn
        log.warning("cache unavailable, rows of %s drawn: %s", page, exc)
        found = {}
    drawn, missing = [], {}
    for obj, key in zip(rows, keys, strict=True):
        html = found.get(key)
        if html is None:
            html = missing[key] = render_shared(request, page, partial, {name: obj, **context})
        drawn.append(mark_safe(html))  # noqa: S308 - our own rendered, escaped template
    if missing:
        keep(missing, ROW_SECONDS)
    return drawn
