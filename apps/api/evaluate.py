"""POST /api/v1/evaluate: the engine over HTTP. Same JSON in and out as `manage.py evaluate`."""

from __future__ import annotations

from ninja import Router, Status

import engine
from apps.web.body import (
    BodyTooLarge,
    ErrorsOut,
    InvalidJsonBody,
    TooLargeOut,
    read_json_body,
    too_large_response,
)
from engine.fields import json_schema

router = Router(tags=["evaluate"])


@router.post(
    "/evaluate",
    summary="Evaluate an engine input (each rule is explained in the method guide, /method/)",
    response={200: dict, 413: TooLargeOut, 422: ErrorsOut},
    openapi_extra={
        "requestBody": {
            "required": True,
            # SPEC 7.9: the evaluate input's JSON Schema, from the engine's one field table.
            "content": {"application/json": {"schema": json_schema()}},
        }
    },
)
def evaluate(request):
    try:
        data = read_json_body(request)
    except BodyTooLarge:
        return too_large_response()
    except InvalidJsonBody as exc:
        return Status(422, {"errors": exc.errors})
    try:
        return Status(200, engine.evaluate(data))
    except engine.EngineInputError as exc:
        # The engine lists at most 100 errors itself, then "… and N more" (SPEC 6.2).
        return Status(422, {"errors": exc.errors})
