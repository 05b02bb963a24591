"""The caps of every input path, defined once (issue 34): the CSV imports (benchmark records,
actual costs, provider bills) through apps/web/csv_file.py, the JSON API through apps/web/body.py.

- Bytes: an upload or a JSON body over `MAX_BYTES` is refused before it is read (413 for the API).
- Columns and line length: a header over `MAX_COLUMNS`, a line over `MAX_LINE_CHARS` characters.
- Rows: the reader stops at the first record past `MAX_ROWS` and refuses the file; no row of it is
  checked (the file has to be split anyway).
- Time: an import that has spent `MAX_SECONDS` reading and checking stops there, refused.
- Errors: at most `MAX_ERRORS` are listed, then how many more.
- Magnitude: no figure above `MAX_MAGNITUDE` (the engine's own limit) on any path.
- Comments (a review's discussion, apps/reviews/comments): at most `MAX_COMMENT_CHARS` characters,
  `MAX_MENTIONS` people told of one comment, `THREAD_PAGE` comments shown per page of a thread.
- One import running per person (`one_import_at_a_time`): a second is answered 429 while the first
  runs; the lock lapses after `IMPORT_LOCK_SECONDS` should a worker die holding it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from engine.reader import MAX_MAGNITUDE

__all__ = [
    "IMPORT_LOCK_SECONDS",
    "MAX_BYTES",
    "MAX_COMMENT_CHARS",
    "MAX_COLUMNS",
    "MAX_ERRORS",
    "MAX_LINE_CHARS",
    "MAX_MAGNITUDE",
    "MAX_MENTIONS",
    "MAX_ROWS",
    "MAX_SECONDS",
    "THREAD_PAGE",
    "Deadline",
    "ImportBusy",
    "busy_response",
    "one_import_at_a_time",
    "one_import_per_person",
]

MAX_BYTES = 2 * 1024 * 1024  # SPEC 6.2: uploads and API bodies
MAX_ROWS = 5000
MAX_COLUMNS = 64
MAX_LINE_CHARS = 20_000
MAX_SECONDS = 10.0
MAX_ERRORS = 100  # SPEC 6.2: "at most 100 errors reported (then '… and N more')"
IMPORT_LOCK_SECONDS = 120
MAX_COMMENT_CHARS = 4000  # a comment of a review's discussion, in characters
MAX_MENTIONS = 20  # people a comment may @mention (and so notify)
THREAD_PAGE = 20  # comments per page of a thread, the latest first shown


class Deadline:
    """The time an import may still spend; `expired()` is cheap enough to ask once a row."""

    def __init__(self, seconds: float | None = None) -> None:
        self.ends = time.monotonic() + (MAX_SECONDS if seconds is None else seconds)

    def expired(self) -> bool:
        return time.monotonic() > self.ends


class ImportBusy(Exception):
    """This person already has an import running."""


def _lock_key(user_id: int) -> str:
    return f"import-running:{user_id}"


@contextmanager
def one_import_at_a_time(user_id: int) -> Iterator[None]:
    """Hold this person's import lock (a cache entry with a timeout) or raise ImportBusy."""
    key, token = _lock_key(user_id), uuid.uuid4().hex
    if not cache.add(key, token, IMPORT_LOCK_SECONDS):
        raise ImportBusy
    try:
        yield
    finally:
        if cache.get(key) == token:
            cache.delete(key)


def busy_message() -> str:
    return _(
        "One of your imports is still running: wait for it to finish, then upload again "
        "(one import at a time per person)."
    )


def busy_response(request: HttpRequest) -> HttpResponse:
    """429 with the message, on the site's error page."""
    context = {"title": _("An import is running"), "message": busy_message()}
    return render(request, "import_busy.html", context, status=429)


def one_import_per_person(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An import view's POST holds the person's import lock while it reads, checks, saves and
    renders; a second POST meanwhile is answered 429 (busy_response). GET is not held."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        try:
            with one_import_at_a_time(request.user.pk):
                return view(request, *args, **kwargs)
        except ImportBusy:
            return busy_response(request)

    return wrapped
