"""Writes of benchmark records: create (form, CSV, API), update, delete, apply a probe to a link.

Every path goes through `benchmark_clean` (validation.py), so the form, the CSV import and the API
accept and refuse exactly the same records.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.catalog.models import NetworkLink
from apps.web.concurrency import claim
from apps.web.ingest import (
    IdempotencyConflict,
    ImportResult,
    RowError,
    RowImport,
    build_record,
    clean_idempotency_key,
    create_idempotent,
    create_once,
    import_rows,
    key_used_message,
)

from .csv_import import parse_csv
from .lookups import TeamLookups
from .models import BenchmarkKind, BenchmarkRecord, Source
from .validation import BenchmarkValidationError, benchmark_clean, benchmark_warnings

__all__ = [
    "BenchmarkValidationError",
    "IdempotencyConflict",
    "ImportResult",
    "ProbeNotApplicable",
    "RowError",
    "benchmark_create",
    "benchmark_create_idempotent",
    "benchmark_delete",
    "benchmark_import_csv",
    "benchmark_update",
    "import_warnings",
    "probe_apply",
]

# Foreign keys are checked against the team by benchmark_clean; full_clean need not query them.
_FK_FIELDS = ["team", "task", "offer", "from_site", "to_site", "applied_to_link", "created_by"]


def _model_check(record: BenchmarkRecord) -> None:
    """The model's own field validators, as a last guard (no queries)."""
    try:
        record.full_clean(exclude=_FK_FIELDS, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        raise BenchmarkValidationError(
            {name: [str(m) for m in messages] for name, messages in exc.message_dict.items()}
        ) from None


def _clean_key(data: dict) -> str | None:
    try:
        return clean_idempotency_key(data.get("idempotency_key"))
    except ValueError as exc:
        raise BenchmarkValidationError({"idempotency_key": [str(exc)]}) from None


def _build(*, team: Team, data: dict, source: str, created_by) -> BenchmarkRecord:
    record = build_record(
        BenchmarkRecord, key=lambda: _clean_key(data),
        clean=lambda: benchmark_clean(team=team, data=data), error=BenchmarkValidationError,
        team=team, source=source, created_by=created_by,
    )
    _model_check(record)
    return record


def _key_used(existing: BenchmarkRecord) -> BenchmarkValidationError:
    return BenchmarkValidationError({"idempotency_key": [key_used_message(existing)]})


def benchmark_create(
    *, team: Team, data: dict, source: str = Source.FORM, created_by=None
) -> BenchmarkRecord:
    """A new record from raw `data`; BenchmarkValidationError naming every bad field.

    An idempotency key already used by the team is an error here (the form and the CSV import);
    the API uses `benchmark_create_idempotent`, which returns the earlier record instead.
    """
    record = _build(team=team, data=data, source=source, created_by=created_by)
    return create_once(record, _key_used)


def benchmark_create_idempotent(
    *, team: Team, data: dict, source: str = Source.API, created_by=None
) -> tuple[BenchmarkRecord, bool]:
    """(record, created): a retry with an idempotency key the team already used and the same
    values creates nothing and returns the earlier record, even if it races the first request;
    the same key with other values raises IdempotencyConflict."""
    return create_idempotent(
        model=BenchmarkRecord, team=team, key=_clean_key(data),
        build=lambda: _build(team=team, data=data, source=source, created_by=created_by),
        clean=lambda: benchmark_clean(team=team, data=data),
    )


@transaction.atomic
def benchmark_update(
    *, record: BenchmarkRecord, data: dict, version: int | None = None
) -> BenchmarkRecord:
    """Replace the record's measured values; its source, key and author stay. StaleVersion
    (nothing written) when `version` is not the stored one."""
    claim(record, version)
    values = benchmark_clean(team=record.team, data=data)
    measured = (record.kind, record.from_site_id, record.to_site_id, record.bandwidth_gbps,
                record.rtt_ms)
    if measured != (
        values["kind"],
        getattr(values["from_site"], "pk", None),
        getattr(values["to_site"], "pk", None),
        values["bandwidth_gbps"],
        values["rtt_ms"],
    ):
        # The link no longer carries what this record says; it must be applied again.
        record.applied_to_link = None
        record.applied_at = None
    for name, value in values.items():
        setattr(record, name, value)
    _model_check(record)
    record.save()
    return record


def benchmark_delete(*, record: BenchmarkRecord) -> None:
    """Delete a record; refused (BenchmarkValidationError) while a checklist cites it."""
    try:
        with transaction.atomic():
            record.delete()
    except ProtectedError:
        raise BenchmarkValidationError(
            {"__all__": [_("A checklist answer cites this record as evidence; edit it first.")]}
        ) from None


def benchmark_import_csv(
    *, team: Team, content: str, created_by=None, dry_run: bool = False
) -> ImportResult:
    """Validate every row of a CSV file; save all of them in one transaction, or none.

    Line numbers count the header as line 1. With `dry_run` nothing is written (the preview).
    An idempotency key repeated in the file, or already used by the team, is an error of its row:
    a retried upload therefore creates nothing new.
    """
    lookups = TeamLookups(team).preload()
    spec = RowImport(
        model=BenchmarkRecord,
        clean=lambda values: benchmark_clean(team=team, data=values, lookups=lookups),
        key=_clean_key,
        repeated=lambda line: _("Duplicate idempotency key: already on line %(line)s.")
        % {"line": line},
        used=lambda pk: _("This idempotency key was already used by record #%(id)s.")
        % {"id": pk},
        fields={"team": team, "source": Source.CSV, "created_by": created_by},
        check=_model_check,
    )
    return import_rows(parse_csv(content), spec, team=team, dry_run=dry_run)


def import_warnings(result: ImportResult) -> dict[int, list[RowError]]:
    """The rows allowed but worth a second look, by line (the preview shows them)."""
    found: dict[int, list[RowError]] = {}
    for row in result.rows:
        for name, messages in benchmark_warnings(row.cleaned or {}).items():
            found.setdefault(row.line, []).extend(RowError(name, m) for m in messages)
    return found


class ProbeNotApplicable(Exception):
    """The probe cannot be applied (not a probe, or no link recorded between its two sites)."""


def probe_apply(*, probe: BenchmarkRecord) -> NetworkLink:
    """Copy a probe's bandwidth and RTT onto the link it measured, dated by the probe.

    The recorded link in the probe's direction is used, else the reverse one (a link is symmetric
    unless both directions are recorded). No link is created: the catalog owns links.
    """
    if probe.kind != BenchmarkKind.NETWORK_PROBE or probe.from_site_id is None:
        raise ProbeNotApplicable(_("Only a network probe can be applied to a link."))
    with transaction.atomic():
        links = NetworkLink.objects.select_for_update().filter(team_id=probe.team_id)
        link = links.filter(from_site_id=probe.from_site_id, to_site_id=probe.to_site_id).first()
        if link is None:
            link = links.filter(
                from_site_id=probe.to_site_id, to_site_id=probe.from_site_id
            ).first()
        if link is None:
            raise ProbeNotApplicable(
                _(
                    "No link is recorded between %(a)s and %(b)s. Add the link in the catalog "
                    "first, then apply the probe."
                )
                % {"a": probe.from_site.code, "b": probe.to_site.code}
            )
        link.bandwidth_gbps = probe.bandwidth_gbps
        link.rtt_ms = probe.rtt_ms
        link.measured_at = probe.recorded_at
        # Both rows change: an edit of either opened before this must not overwrite it.
        claim(link, None)
        link.save(update_fields=["bandwidth_gbps", "rtt_ms", "measured_at", "version"])
        claim(probe, None)
        probe.applied_to_link = link
        probe.applied_at = timezone.now()
        probe.save(update_fields=["applied_to_link", "applied_at", "version"])
    return link
