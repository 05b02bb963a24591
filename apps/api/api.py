"""The JSON API (/api/v1/), with its OpenAPI schema at /api/v1/openapi.json.

This module composes the API: the routers of the apps that answer JSON (evaluate here,
benchmarks, actuals) are added below, by import, so the dependency shows (docs/architecture.md).
"""

from __future__ import annotations

from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.parser import Parser

from apps.actuals.api import router as actuals_router
from apps.actuals.bills_api import router as bills_router
from apps.benchmarks.api import router as benchmarks_router
from apps.web.api_auth import session_auth, token_auth
from apps.web.body import (
    EMPTY_BODY,
    MAX_BODY_BYTES,
    MAX_ERRORS,
    BodyTooLarge,
    InvalidJsonBody,
    capped,
    read_json_body,
    too_large_response,
)

from .docs import VendoredSwagger
from .evaluate import router as evaluate_router
from .launch import router as launch_router
from .summary import router as summary_router

DESCRIPTION = f"""
Every JSON request body is read under the same rules:

- a body over {MAX_BODY_BYTES // (1024 * 1024)} MB ({MAX_BODY_BYTES} bytes) is refused with
  **413** `{{"errors": [...], "limit_bytes": {MAX_BODY_BYTES}}}`, unread when its Content-Length
  already says so;
- a body that is not a JSON object, a wrong value, a missing field or an **unknown field** (a
  typo is never ignored) answers **422**
  `{{"errors": [{{"field": "task.gpus", "message": "..."}}]}}`, every offending field named by
  its path;
- at most {MAX_ERRORS} errors are listed, then one entry "… and N more".
"""


class LimitedJsonParser(Parser):
    """Request bodies through the one reader with limits (apps/web/body.py)."""

    def parse_body(self, request):
        return read_json_body(request)


api = NinjaAPI(
    title="Compute selection reviews API",
    version="1.0.0",
    description=DESCRIPTION,
    urls_namespace="api",
    auth=[token_auth, session_auth],
    docs_url="/docs",
    docs=VendoredSwagger(),
    parser=LimitedJsonParser(),
)


def _field(error: dict) -> str:
    loc = [str(part) for part in error.get("loc", []) if part not in ("body", "payload")]
    return ".".join(loc)


def _message(error: dict, field: str) -> str:
    if error.get("type") == "extra_forbidden":
        return "unknown field"  # the engine's words for the same mistake (SPEC 6.2)
    if error.get("type") == "missing" and not field:
        return EMPTY_BODY  # ninja does not parse an empty body; say what the reader would
    return error.get("msg", "invalid")


@api.exception_handler(NinjaValidationError)
def validation_errors(request, exc: NinjaValidationError):
    """422 with every offending field named, the same shape as the engine's errors."""
    errors = []
    for error in exc.errors:
        field = _field(error)
        errors.append({"field": field, "message": _message(error, field)})
    return api.create_response(request, {"errors": capped(errors)}, status=422)


@api.exception_handler(HttpError)
def http_errors(request, exc: HttpError):
    """Ninja wraps whatever its parser raises in a 400; the body reader's errors keep theirs."""
    if isinstance(exc.__cause__, InvalidJsonBody):
        return api.create_response(request, {"errors": exc.__cause__.errors}, status=422)
    if isinstance(exc.__cause__, BodyTooLarge):
        return too_large_response()
    return api.create_response(request, {"detail": str(exc)}, status=exc.status_code)


api.add_router("", evaluate_router)  # POST /evaluate
api.add_router("/benchmarks", benchmarks_router)  # POST/GET /benchmarks
api.add_router("/actuals", actuals_router)  # POST/GET /actuals
api.add_router("/bills", bills_router)  # POST /bills
api.add_router("/snapshots", launch_router)  # GET /snapshots/{id}/skypilot
api.add_router("/reviews", summary_router)  # GET /reviews/{id}/summary
