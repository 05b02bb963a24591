"""POST /api/v1/evaluate: the engine over HTTP. Same JSON in and out as `manage.py evaluate`."""

from __future__ import annotations

import json

from ninja import Status

from apps.scoring import engine

from .api import api


@api.post(
    "/evaluate",
    summary="Evaluate an engine input (SPEC section 4)",
    response={200: dict, 422: dict},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
def evaluate(request):
    try:
        data = json.loads(request.body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return Status(422, {"errors": [{"field": "", "message": f"body is not valid JSON: {exc}"}]})
    except RecursionError:  # "[[[[…" thousands deep: refused, not a 500
        return Status(422, {"errors": [{"field": "", "message": "body is nested too deeply"}]})
    try:
        return Status(200, engine.evaluate(data))
    except engine.EngineInputError as exc:
        return Status(422, {"errors": exc.errors})
