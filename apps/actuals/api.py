"""POST/GET /api/v1/actuals: a pipeline reports what a run of an approved plan really cost.

Authentication and answers as for /api/v1/benchmarks: a team token (`Authorization: Bearer …`)
or a signed-in member's session with CSRF; reviewers read, members and owners write. A review of
another team is "unknown" (422 naming `review`, as a wrong id would be). An unknown field, a bad
value or a currency other than the team's answers 422 naming the field; a body over 2 MB 413. An
idempotency key (body field or Idempotency-Key header) makes a retry create nothing (200 with
the first record); the same key with other values answers 409 naming the fields that differ.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from ninja import Field, Header, Query, Router, Schema
from pydantic import ConfigDict

from apps.accounts.fields import MAX_PK
from apps.web.api_auth import session_auth, token_auth
from apps.web.ingest import ErrorsOut, TooLargeOut, post_record

from . import services
from .models import ActualCost

router = Router(tags=["actuals"], auth=[token_auth, session_auth])


class ActualIn(Schema):
    # A misspelt field is a 422, never dropped; a number is a JSON number (no true for 1.0, no
    # "1e3" for 1000: strict types, issue 34), a date an ISO date with nothing after it.
    model_config = ConfigDict(extra="forbid", strict=True)

    review: int = Field(description="Id of an approved review of the token's team.")
    period: str = Field(description="YYYY-MM-DD: the day the run started.")
    compute_cost: float = Field(description="In the team's currency, scheduling fees included.")
    transfer_cost: float | None = Field(None, description="In the team's currency.")
    gpu_hours: float | None = None
    hours: float | None = Field(None, description="End to end.")
    currency: str | None = Field(None, description="When given, must be the team's.")
    reference: str | None = Field(None, description="The provider's line or job id.")
    team: int | None = Field(
        None, description="Team id, for a signed-in user in several teams; tokens ignore it."
    )
    idempotency_key: str | None = Field(None, max_length=120)
    notes: str | None = None


class ActualOut(Schema):
    id: int
    team: int
    review: int
    period: dt.date
    compute_cost: float
    transfer_cost: float
    gpu_hours: float | None
    hours: float | None
    source: str
    reference: str
    idempotency_key: str | None
    notes: str
    recorded_at: dt.datetime


class ConflictOut(ErrorsOut):
    record: ActualOut


def record_out(record: ActualCost) -> dict:
    names = ("id", "period", "compute_cost", "transfer_cost", "gpu_hours", "hours", "source",
             "reference", "idempotency_key", "notes", "recorded_at")
    return {**{n: getattr(record, n) for n in names}, "team": record.team_id,
            "review": record.review_id}


@router.post(
    "",
    response={200: ActualOut, 201: ActualOut, 403: ErrorsOut, 409: ConflictOut, 413: TooLargeOut,
              422: ErrorsOut},
    summary="Record what a run of an approved plan cost",
    description=__doc__,
)
def actual_post(
    request, payload: ActualIn,
    idempotency_key: str | None = Header(None, alias="Idempotency-Key"),
):
    return post_record(
        request, payload, idempotency_key, create=services.actual_create_idempotent,
        out=record_out, refusal=_("Reviewers read actual costs; members record them."),
    )


@router.get("", response=list[ActualOut], summary="The caller's teams' actual costs")
def actual_get(
    request,
    review: int | None = Query(None, ge=1, le=MAX_PK),
    limit: int = Query(100, ge=1, le=500),
    offset: int = Query(0, ge=0, le=1_000_000),
):
    records = ActualCost.objects.filter(team_id__in=request.auth.team_ids).order_by(
        "-period", "-id")
    if review is not None:
        records = records.filter(review_id=review)
    return [record_out(r) for r in records[offset: offset + limit]]
