"""POST/GET /api/v1/benchmarks: a training pipeline reports its own runs with a team API token.

Authentication: `Authorization: Bearer <team token>` (no CSRF needed), or the session of a
signed-in member (CSRF enforced). A token writes to its own team only: a task or offer of another
team is "unknown" and answers 422 naming the field, exactly as a wrong id would (no 404, so ids of
other teams cannot be probed). Validation errors answer 422 {"errors": [{"field", "message"}]},
an unknown field included (a typo is never ignored); a body over 2 MB answers 413 (strict input).
An idempotency key (body field, or the Idempotency-Key header) makes a retry create nothing: the
first record comes back with 200 instead of 201. The same key with other values answers 409
naming the key, the fields that differ and the stored record (nothing is overwritten or dropped).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Field, Header, Query, Router, Schema
from pydantic import ConfigDict

from apps.accounts.fields import MAX_PK
from apps.web.api_auth import session_auth, token_auth
from apps.web.ingest import ErrorsOut, TooLargeOut, post_record

from . import services
from .models import BenchmarkRecord
from .validation import record_warnings

# CSRF for session callers is checked inside UserSessionAuth.authenticate (a failed check means
# "not authenticated": 401). Ninja's own pre-check is off here so that a bad or revoked Bearer
# token answers 401 too, instead of a misleading 403 "CSRF check Failed" from the cookie scheme.
router = Router(tags=["benchmarks"], auth=[token_auth, session_auth])

Kind = Literal["single", "multi", "network_probe", "pilot_migration", "preprocess"]


class BenchmarkIn(Schema):
    # An unknown field is a 422 naming it: a misspelt field must not be dropped silently. A
    # number is a JSON number, never true or "1e3" (strict types, issue 34).
    model_config = ConfigDict(extra="forbid", strict=True)

    task: int = Field(description="Id of a task profile of the token's team.")
    kind: Kind
    offer: int | None = Field(None, description="Offer id; required for single and multi runs.")
    team: int | None = Field(
        None, description="Team id, for a signed-in user in several teams; tokens ignore it."
    )
    nodes: int | None = Field(None, description="Machines (1 for single, ≥ 2 for multi).")
    gpus_per_node: int | None = Field(None, description="≥ 1.")
    e2e_hours: float | None = Field(None, description="End to end, ≥ compute_hours, > 0.")
    compute_hours: float | None = Field(None, description="≥ 0.")
    transfer_hours: float | None = None
    queue_hours: float | None = Field(None, description="Including start-up.")
    comm_hours: float | None = Field(None, description="Optional, ≤ e2e_hours.")
    peak_gpu_mem_gb: float | None = None
    failure_reruns: int | None = None
    hours_lost_per_rerun: float | None = None
    recovery: Literal["full_rerun", "partial_retry", "resume"] | None = None
    cost: float | None = Field(None, description="In the team's currency.")
    from_site: str | None = Field(None, description="Probe: site code (or id).")
    to_site: str | None = Field(None, description="Probe: site code (or id), not from_site.")
    bandwidth_gbps: float | None = Field(None, description="Probe: > 0, Gbit/s.")
    rtt_ms: float | None = Field(None, description="Probe: ≥ 0, ms.")
    tier: Literal["same_site", "same_datacenter", "same_city", "cross_hub"] | None = Field(
        None, description="Pilot: the tier it moved across."
    )
    succeeded: bool | None = Field(None, description="Pilot: the outcome.")
    migration_effort_hours: float | None = None
    site: str | None = Field(None, description="Preprocess: site code (or id) where it ran.")
    preprocess_hours: float | None = Field(None, description="Preprocess: > 0, hours.")
    input_gb: float | None = Field(None, description="Preprocess: raw GB read, > 0.")
    output_gb: float | None = Field(
        None, description="Preprocess: processed GB written, > 0 (larger than input: a warning)."
    )
    preprocess_cost_per_hour: float | None = Field(
        None, description="Preprocess: ≥ 0, the team's currency per hour."
    )
    idempotency_key: str | None = Field(
        None, max_length=120, description="Unique per team; a retry with it creates nothing."
    )
    notes: str | None = None


class FieldMessage(Schema):
    field: str
    message: str


class BenchmarkOut(Schema):
    id: int
    team: int
    task: int
    offer: int | None
    kind: str
    nodes: int
    gpus_per_node: int
    gpus: int
    e2e_hours: float
    compute_hours: float
    transfer_hours: float
    queue_hours: float
    comm_hours: float | None
    peak_gpu_mem_gb: float | None
    failure_reruns: int
    hours_lost_per_rerun: float
    recovery: str
    cost: float | None
    from_site: str | None
    to_site: str | None
    bandwidth_gbps: float | None
    rtt_ms: float | None
    tier: str
    succeeded: bool | None
    migration_effort_hours: float | None
    site: str | None
    preprocess_hours: float | None
    input_gb: float | None
    output_gb: float | None
    preprocess_cost_per_hour: float | None
    # Allowed but worth a second look (a preprocessing output larger than its input).
    warnings: list[FieldMessage]
    source: str
    idempotency_key: str | None
    notes: str
    recorded_at: datetime
    url: str


class ConflictOut(ErrorsOut):
    """409: the idempotency key names another request; the record it created."""

    record: BenchmarkOut


def record_out(record: BenchmarkRecord) -> dict:
    data = {name: getattr(record, name) for name in BenchmarkOut.model_fields if
            hasattr(record, name)
            and name not in ("team", "task", "offer", "from_site", "to_site", "site")}
    data.update(
        team=record.team_id,
        task=record.task_id,
        offer=record.offer_id,
        from_site=record.from_site.code if record.from_site_id else None,
        to_site=record.to_site.code if record.to_site_id else None,
        site=record.site.code if record.site_id else None,
        warnings=[
            {"field": name, "message": m}
            for name, messages in record_warnings(record).items()
            for m in messages
        ],
        gpus=record.gpus,
        url=reverse("benchmarks:detail", args=[record.pk]),
    )
    return data


@router.post(
    "",
    response={
        200: BenchmarkOut,
        201: BenchmarkOut,
        403: ErrorsOut,
        409: ConflictOut,
        413: TooLargeOut,
        422: ErrorsOut,
    },
    summary="Record a benchmark run, network probe, pilot migration or preprocessing run",
    description=__doc__,
)
def benchmark_post(
    request,
    payload: BenchmarkIn,
    idempotency_key: str | None = Header(None, alias="Idempotency-Key"),
):
    return post_record(
        request, payload, idempotency_key, create=services.benchmark_create_idempotent,
        out=record_out, refusal=_("Reviewers read benchmark records; members record them."),
    )


# Ids and offsets are bounded in the schema: a number no column can hold answers 422, not a 500.
MAX_OFFSET = 1_000_000


@router.get("", response=list[BenchmarkOut], summary="The caller's teams' benchmark records")
def benchmark_get(
    request,
    task: int | None = Query(None, ge=1, le=MAX_PK),
    kind: Kind | None = None,
    limit: int = Query(100, ge=1, le=500),
    offset: int = Query(0, ge=0, le=MAX_OFFSET),
):
    records = (
        BenchmarkRecord.objects.filter(team_id__in=request.auth.team_ids)
        .select_related("from_site", "to_site", "site")
        .order_by("-recorded_at", "-id")
    )
    if task is not None:
        records = records.filter(task_id=task)
    if kind is not None:
        records = records.filter(kind=kind)
    return [record_out(r) for r in records[offset : offset + limit]]
