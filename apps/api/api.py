"""The JSON API (/api/v1/), with its OpenAPI schema at /api/v1/openapi.json."""

from __future__ import annotations

from ninja import NinjaAPI
from ninja.errors import ValidationError as NinjaValidationError

from .auth import session_auth, token_auth
from .docs import VendoredSwagger

api = NinjaAPI(
    title="Compute selection reviews API",
    version="1.0.0",
    urls_namespace="api",
    auth=[token_auth, session_auth],
    docs_url="/docs",
    docs=VendoredSwagger(),
)


@api.exception_handler(NinjaValidationError)
def validation_errors(request, exc: NinjaValidationError):
    """422 with every offending field named, the same shape as the engine's errors."""
    errors = []
    for error in exc.errors:
        loc = [str(part) for part in error.get("loc", []) if part not in ("body", "payload")]
        errors.append({"field": ".".join(loc), "message": error.get("msg", "invalid")})
    return api.create_response(request, {"errors": errors}, status=422)


from . import evaluate  # noqa: E402,F401  (registers the /evaluate route)

api.add_router("/benchmarks", "apps.benchmarks.api.router")  # POST/GET /benchmarks
