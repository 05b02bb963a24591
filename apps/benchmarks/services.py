"""Writes of benchmark records: create (form, CSV, API), update, delete, apply a probe to a link.

Every path goes through `benchmark_clean` (validation.py), so the form, the CSV import and the API
accept and refuse exactly the same records.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.catalog.models import NetworkLink
from apps.web.concurrency import claim

from .csv_import import ImportResult, ImportRow, RowError, parse_csv
from .lookups import TeamLookups
from .models import BenchmarkKind, BenchmarkRecord, Source
from .validation import (
    BenchmarkValidationError,
    benchmark_clean,
    benchmark_warnings,
    clean_idempotency_key,
)

__all__ = [
    "BenchmarkValidationError",
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


def _key_in_use(team: Team, key: str | None) -> BenchmarkRecord | None:
    if key is None:
        return None
    return BenchmarkRecord.objects.filter(team=team, idempotency_key=key).first()


def _clean_key(data: dict) -> str | None:
    try:
        return clean_idempotency_key(data.get("idempotency_key"))
    except ValueError as exc:
        raise BenchmarkValidationError({"idempotency_key": [str(exc)]}) from None


def _build(*, team: Team, data: dict, source: str, created_by) -> BenchmarkRecord:
    errors: dict[str, list[str]] = {}
    try:
        key = clean_idempotency_key(data.get("idempotency_key"))
    except ValueError as exc:
        errors["idempotency_key"] = [str(exc)]
        key = None
    try:
        values = benchmark_clean(team=team, data=data)
    except BenchmarkValidationError as exc:
        raise BenchmarkValidationError({**exc.errors, **errors}) from None
    if errors:
        raise BenchmarkValidationError(errors)
    record = BenchmarkRecord(
        team=team, source=source, idempotency_key=key, created_by=created_by, **values
    )
    _model_check(record)
    return record


def benchmark_create(
    *, team: Team, data: dict, source: str = Source.FORM, created_by=None
) -> BenchmarkRecord:
    """A new record from raw `data`; BenchmarkValidationError naming every bad field.

    An idempotency key already used by the team is an error here (the form and the CSV import);
    the API uses `benchmark_create_idempotent`, which returns the earlier record instead.
    """
    record = _build(team=team, data=data, source=source, created_by=created_by)
    existing = _key_in_use(team, record.idempotency_key)
    if existing is not None:
        raise BenchmarkValidationError(
            {"idempotency_key": [_key_used_message(existing)]}
        )
    try:
        with transaction.atomic():
            record.save()
    except IntegrityError:
        # A concurrent request saved the same key between the check and the insert.
        existing = _key_in_use(team, record.idempotency_key)
        if existing is None:
            raise
        raise BenchmarkValidationError(
            {"idempotency_key": [_key_used_message(existing)]}
        ) from None
    return record


class IdempotencyConflict(Exception):
    """The key was used for a record with other values (Stripe's semantics: a key names one
    request; the same key with a different body is an error, never a silent drop)."""

    def __init__(self, record: BenchmarkRecord, fields: list[str]) -> None:
        super().__init__(record.idempotency_key)
        self.record = record
        self.fields = fields

    @property
    def message(self) -> str:
        return _(
            "The idempotency key %(key)s was already used by record #%(id)s with other values "
            "(%(fields)s); use a new key for a new measurement."
        ) % {"key": self.record.idempotency_key, "id": self.record.pk,
             "fields": ", ".join(self.fields)}


def _differences(record: BenchmarkRecord, values: dict) -> list[str]:
    """The fields whose cleaned new value is not what the record holds."""
    differ = []
    for name, value in values.items():
        held = getattr(record, name)
        if hasattr(held, "pk") or hasattr(value, "pk"):
            held, value = getattr(held, "pk", held), getattr(value, "pk", value)
        if held != value:
            differ.append(name)
    return sorted(differ)


def _replay(team: Team, existing: BenchmarkRecord, data: dict) -> BenchmarkRecord:
    """A retry: the stored record when the body says the same, else IdempotencyConflict."""
    differ = _differences(existing, benchmark_clean(team=team, data=data))
    if differ:
        raise IdempotencyConflict(existing, differ)
    return existing


def benchmark_create_idempotent(
    *, team: Team, data: dict, source: str = Source.API, created_by=None
) -> tuple[BenchmarkRecord, bool]:
    """(record, created): a retry with an idempotency key the team already used and the same
    values creates nothing and returns the earlier record, even if it races the first request;
    the same key with other values raises IdempotencyConflict."""
    existing = _key_in_use(team, _clean_key(data))
    if existing is not None:
        return _replay(team, existing, data), False
    record = _build(team=team, data=data, source=source, created_by=created_by)
    try:
        with transaction.atomic():
            record.save()
    except IntegrityError:
        existing = _key_in_use(team, record.idempotency_key)
        if existing is None:
            raise
        return _replay(team, existing, data), False
    return record, True


def _key_used_message(existing: BenchmarkRecord) -> str:
    return _("This idempotency key was already used by record #%(id)s.") % {"id": existing.pk}


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
    result = parse_csv(content)
    seen_keys = _clean_rows(team, result)
    _refuse_used_keys(team, result.rows, seen_keys)
    result.collect_errors()
    if dry_run or not result.ok:
        return result
    records = []
    for row in result.rows:
        record = BenchmarkRecord(
            team=team, source=Source.CSV, idempotency_key=row.key, created_by=created_by,
            **row.cleaned,
        )
        try:
            _model_check(record)
        except BenchmarkValidationError as exc:
            row.errors.extend(_row_errors(exc))
        records.append(record)
    result.collect_errors()
    if not result.ok:
        return result
    try:
        with transaction.atomic():
            saved = BenchmarkRecord.objects.bulk_create(records)
    except IntegrityError:
        # Another upload used one of the keys meanwhile: nothing of this file was saved.
        result.errors_by_line.setdefault(1, []).append(
            RowError("idempotency_key", _("An idempotency key was used meanwhile; nothing saved."))
        )
        return result
    for row, record in zip(result.rows, saved, strict=True):
        row.record = record
    result.saved = True
    return result


def _clean_rows(team: Team, result: ImportResult) -> dict[str, int]:
    """Clean each row without errors yet (its values and its idempotency key), until the import's
    time is up; returns the line where each key is first used. A key repeated in the file is an
    error of the later row."""
    lookups = TeamLookups(team).preload()
    seen_keys: dict[str, int] = {}
    for row in result.rows:
        if result.out_of_time():
            break
        if row.errors:
            continue
        try:
            key = clean_idempotency_key(row.values.get("idempotency_key"))
        except ValueError as exc:
            row.errors.append(RowError("idempotency_key", str(exc)))
            key = None
        try:
            row.cleaned = benchmark_clean(team=team, data=row.values, lookups=lookups)
        except BenchmarkValidationError as exc:
            row.errors.extend(_row_errors(exc))
        if key is not None:
            if key in seen_keys:
                row.errors.append(
                    RowError(
                        "idempotency_key",
                        _("Duplicate idempotency key: already on line %(line)s.")
                        % {"line": seen_keys[key]},
                    )
                )
            else:
                seen_keys[key] = row.line
        row.key = key
    return seen_keys


def _refuse_used_keys(team: Team, rows: list[ImportRow], seen_keys: dict[str, int]) -> None:
    """A key the team already used is an error of the row that first names it in the file."""
    used = dict(
        BenchmarkRecord.objects.filter(team=team, idempotency_key__in=list(seen_keys))
        .values_list("idempotency_key", "pk")
    )
    for row in rows:
        if row.key is not None and row.key in used and seen_keys.get(row.key) == row.line:
            row.errors.append(
                RowError(
                    "idempotency_key",
                    _("This idempotency key was already used by record #%(id)s.")
                    % {"id": used[row.key]},
                )
            )


def import_warnings(result: ImportResult) -> dict[int, list[RowError]]:
    """The rows allowed but worth a second look, by line (the preview shows them)."""
    found: dict[int, list[RowError]] = {}
    for row in result.rows:
        for name, messages in benchmark_warnings(row.cleaned or {}).items():
            found.setdefault(row.line, []).extend(RowError(name, m) for m in messages)
    return found


def _row_errors(exc: BenchmarkValidationError) -> list[RowError]:
    return [RowError(name, m) for name, messages in exc.errors.items() for m in messages]


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
