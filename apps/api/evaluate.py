"""POST /api/v1/evaluate: the engine over HTTP. Same JSON in and out as `manage.py evaluate`;
with `?format=markdown` the verdict as Markdown (apps/scoring/pr_summary.py), for a CI job to
post on the pull request that changed a job spec (docs/ci-comment.md)."""

from __future__ import annotations

import re

from ninja import Router, Status

import engine
from apps.scoring import pr_summary
from apps.web.body import (
    BodyTooLarge,
    ErrorsOut,
    InvalidJsonBody,
    TooLargeOut,
    read_json_body,
    too_large_response,
)
from engine.fields import json_schema

from .summary import format_error, markdown_response, wanted_format

router = Router(tags=["evaluate"])


def _currency(request) -> str:
    team = request.auth.team_for_write() if request.auth is not None else None
    return team.currency if team is not None else ""


_SPEC_CITE = re.compile(r"\s*\(SPEC [^)]*\)|SPEC [0-9A-Z.]+:?\s*")


def _published(value):
    """The field table's descriptions as the API reference shows them: the rulebook's section
    numbers are the code's and the method guide's (which explains each rule), not the reader's."""
    if isinstance(value, dict):
        return {k: _published(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_published(v) for v in value]
    if isinstance(value, str):
        return _SPEC_CITE.sub("", value)
    return value


@router.post(
    "/evaluate",
    summary="Evaluate an engine input (each rule is explained in the method guide, /method/)",
    response={200: dict, 413: TooLargeOut, 422: ErrorsOut},
    openapi_extra={
        "requestBody": {
            "required": True,
            # SPEC 7.9: the evaluate input's JSON Schema, from the engine's one field table.
            "content": {"application/json": {"schema": _published(json_schema())}},
        }
    },
)
def evaluate(request):
    fmt = wanted_format(request, default="json")
    if fmt is None:
        return format_error()
    try:
        data = read_json_body(request)
    except BodyTooLarge:
        return too_large_response()
    except InvalidJsonBody as exc:
        return Status(422, {"errors": exc.errors})
    try:
        output = engine.evaluate(data)
    except engine.EngineInputError as exc:
        # The engine lists at most 100 errors itself, then "… and N more" (SPEC 6.2).
        return Status(422, {"errors": exc.errors})
    if fmt == "markdown":
        summary = pr_summary.evaluation_summary(data, output, currency=_currency(request))
        return markdown_response(summary)
    return Status(200, output)
