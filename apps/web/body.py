"""The one home for reading a JSON request body with limits (SPEC 6.2), for every JSON endpoint.

- `BodyLimitMiddleware` refuses a body over `MAX_BODY_BYTES` (2 MB) with 413 for every path under
  /api/, before authentication, CSRF or a parser touches it: from Content-Length alone when it
  already says too much (nothing is read), else from the body actually received (ASGI accepts
  chunked or understated bodies; WSGI never reads past Content-Length).
- `read_json_body` gives a view, or the API's parser, the body as a JSON object, or raises
  `InvalidJsonBody` with the API's error list (answered 422).
- `capped` keeps at most `MAX_ERRORS` errors, then one "… and N more" entry.

Django's own DATA_UPLOAD_MAX_MEMORY_SIZE (10 MB here, for the pages) would answer an over-size
body with 400 (a SuspiciousOperation): it is caught here and answered 413 like any other, and
should it ever be set below 2 MB, it becomes the API's limit too, named in the answer.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse, UnreadablePostError
from ninja import Schema

from .limits import MAX_BYTES, MAX_ERRORS

# SPEC 6.2: "The API refuses bodies over 2 MB with 413", "at most 100 errors reported (then
# '… and N more')": the caps of every input path, apps/web/limits.py.
MAX_BODY_BYTES = MAX_BYTES
API_PREFIX = "/api/"
EMPTY_BODY = "body is empty: send a JSON object"


class FieldError(Schema):
    field: str
    message: str


class ErrorsOut(Schema):
    """Every error answer of the API: 413, 422, and 403 from the benchmarks API."""

    errors: list[FieldError]


class TooLargeOut(ErrorsOut):
    limit_bytes: int


class BodyTooLarge(Exception):
    pass


class InvalidJsonBody(Exception):
    def __init__(self, message: str, errors: list[dict] | None = None) -> None:
        super().__init__(message)
        self.errors = errors or [{"field": "", "message": message}]


# Text that no field may hold: a lone UTF-16 surrogate (JSON can spell one, "\ud800", but no
# database or UTF-8 file can store it) and control characters other than tab and line breaks.
_BAD_TEXT = {chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"} | {chr(0x7F)}


def _text_problem(text: str) -> str | None:
    for char in text:
        if "\ud800" <= char <= "\udfff":
            return "contains a lone UTF-16 surrogate (not a character): remove it"
        if char in _BAD_TEXT:
            return f"contains the control character U+{ord(char):04X}: remove it"
    return None


def text_errors(value: Any, path: str = "") -> list[dict]:
    """Every string (keys included) of a parsed JSON value that no field may hold, by path."""
    errors: list[dict] = []
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            problem = _text_problem(item)
            if problem:
                errors.append({"field": where, "message": problem})
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{where}.{key}" if where else str(key)
                problem = _text_problem(key)
                if problem:
                    errors.append({"field": child_path, "message": f"field name {problem}"})
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
    return sorted(errors, key=lambda e: e["field"])


def _error(message: str) -> dict:
    return {"errors": [{"field": "", "message": message}]}


def body_limit() -> int:
    """2 MB, or Django's DATA_UPLOAD_MAX_MEMORY_SIZE when that is smaller."""
    django_limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return MAX_BODY_BYTES if django_limit is None else min(MAX_BODY_BYTES, django_limit)


def too_large_message(limit: int) -> str:
    return f"request body is over the {limit / (1024 * 1024):g} MB limit ({limit} bytes)"


def capped(errors: list[dict], limit: int = MAX_ERRORS) -> list[dict]:
    """The first `limit` errors, then one entry counting the rest."""
    if len(errors) <= limit:
        return errors
    return [*errors[:limit], {"field": "", "message": f"… and {len(errors) - limit} more"}]


def declared_length(request: HttpRequest) -> int:
    """Content-Length as declared (0 when absent). ValueError when it is not a number."""
    return int(request.META.get("CONTENT_LENGTH") or 0)


def read_body(request: HttpRequest) -> bytes:
    """The body, at most body_limit() of it; BodyTooLarge beyond (ValueError: bad length)."""
    limit = body_limit()
    if declared_length(request) > limit:
        raise BodyTooLarge  # said by the header: nothing is read
    try:
        # Reads at most Content-Length (≤ the limit) on WSGI; on ASGI Django checks the
        # received size against DATA_UPLOAD_MAX_MEMORY_SIZE before reading it.
        body = request.body
    except RequestDataTooBig:
        raise BodyTooLarge from None
    if len(body) > limit:
        raise BodyTooLarge  # larger than declared, or sent without a length
    return body


def read_json_body(request: HttpRequest) -> dict[str, Any]:
    """The body as a JSON object. BodyTooLarge, or InvalidJsonBody naming what is wrong."""
    body = read_body(request)
    if not body.strip():
        raise InvalidJsonBody(EMPTY_BODY)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise InvalidJsonBody(
            f"body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except UnicodeDecodeError:
        raise InvalidJsonBody("body is not valid JSON: it is not UTF-8 text") from None
    except RecursionError:  # "[[[[…" thousands deep: refused, not a 500
        raise InvalidJsonBody("body is nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidJsonBody(f"body must be a JSON object, not {_json_type(data)}")
    errors = text_errors(data)
    if errors:
        raise InvalidJsonBody(errors[0]["message"], capped(errors))
    return data


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def too_large_response() -> JsonResponse:
    limit = body_limit()
    return JsonResponse({**_error(too_large_message(limit)), "limit_bytes": limit}, status=413)


class BodyLimitMiddleware:
    """413 for any API request whose body is over the limit, before anything else reads it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if request.path_info.startswith(API_PREFIX):
            try:
                read_body(request)
            except BodyTooLarge:
                return too_large_response()
            except ValueError:
                return JsonResponse(_error("Content-Length is not a number"), status=400)
            except UnreadablePostError:
                return JsonResponse(_error("the body could not be read"), status=400)
        return self.get_response(request)
