"""Writes of actual cost records: create (form, CSV, API), update, delete, the team's over-plan
threshold; provider bills are in `bills.py`.

Every path goes through `actual_clean` (validation.py), so the form, the CSV import, the API and
a bill accept and refuse exactly the same records.
"""

from __future__ import annotations

import hashlib
import logging

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.benchmarks.services import IdempotencyConflict
from apps.web.concurrency import claim
from apps.web.csv_file import CsvShape, ImportResult, ImportRow, RowError, parse_csv

from .models import ActualCost, ActualsSettings, Source
from .validation import ActualValidationError, ReviewLookup, actual_clean, clean_key

__all__ = [
    "COLUMNS", "ActualValidationError", "IdempotencyConflict", "actual_create",
    "actual_create_idempotent", "actual_delete", "actual_import_csv", "actual_update",
    "over_plan_threshold_set",
]

COLUMNS = (
    "review", "period", "compute_cost", "transfer_cost", "gpu_hours", "hours", "currency",
    "reference", "idempotency_key", "notes",
)
SHAPE = CsvShape(columns=COLUMNS, required=("review", "period", "compute_cost"))
# The template's example row: one run of review #12 (replace it with your own rows; the view
# puts in the team's currency).
TEMPLATE_EXAMPLE = {
    "review": "12",
    "period": "2026-03-01",
    "compute_cost": "1250.50",
    "transfer_cost": "84.20",
    "gpu_hours": "512",
    "hours": "64",
    "currency": "USD",
    "reference": "invoice 2026-03 line 7",
    "idempotency_key": "invoice-2026-03-7",
    "notes": "March run",
}
# The quarterly figures read actual costs (apps.scoring, a floor above: its task called by name).
QUARTERLY_TASK = "scoring.refresh_quarterly_task"
log = logging.getLogger(__name__)


def quarterly_changed(team: Team) -> None:
    """Actual costs of the team were saved, imported or deleted: once this commits, its
    quarterly figures are recomputed through the worker (at once when tasks run eagerly). The
    quarterly page finds them stale until then, and says so."""

    def enqueue() -> None:
        from config.celery import app

        try:
            app.tasks[QUARTERLY_TASK].apply_async(args=[team.pk], retry=False)
        except Exception as exc:  # noqa: BLE001 - the page recomputes what it finds stale
            log.warning("quarterly figures of team %s not enqueued: %s", team.pk, exc)

    transaction.on_commit(enqueue)


def _key_in_use(team: Team, key: str | None) -> ActualCost | None:
    if key is None:
        return None
    return ActualCost.objects.filter(team=team, idempotency_key=key).first()


def _key_used(existing: ActualCost) -> ActualValidationError:
    return ActualValidationError(
        {"idempotency_key": [
            _("This idempotency key was already used by record #%(id)s.") % {"id": existing.pk}
        ]}
    )


def _build(*, team: Team, data: dict, source: str, created_by) -> ActualCost:
    errors: dict[str, list[str]] = {}
    try:
        key = clean_key(data.get("idempotency_key"))
    except ActualValidationError as exc:
        errors.update(exc.errors)
        key = None
    try:
        values = actual_clean(team=team, data=data)
    except ActualValidationError as exc:
        raise ActualValidationError({**exc.errors, **errors}) from None
    if errors:
        raise ActualValidationError(errors)
    return ActualCost(team=team, source=source, idempotency_key=key, created_by=created_by,
                      **values)


def _save(record: ActualCost) -> ActualCost | None:
    """Insert; the record already holding its key when a concurrent request won the race."""
    try:
        with transaction.atomic():
            record.save()
    except IntegrityError:
        existing = _key_in_use(record.team, record.idempotency_key)
        if existing is None:
            raise
        return existing
    return None


def actual_create(
    *, team: Team, data: dict, source: str = Source.FORM, created_by=None
) -> ActualCost:
    """A new record from raw `data`; ActualValidationError naming every bad field (an
    idempotency key the team already used included)."""
    record = _build(team=team, data=data, source=source, created_by=created_by)
    existing = _key_in_use(team, record.idempotency_key) or _save(record)
    if existing is not None:
        raise _key_used(existing)
    quarterly_changed(team)
    return record


def _differences(record: ActualCost, values: dict) -> list[str]:
    return sorted(name for name, value in values.items() if getattr(record, name) != value)


def _replay(team: Team, existing: ActualCost, data: dict) -> ActualCost:
    """A retry: the stored record when the body says the same, else IdempotencyConflict."""
    differ = _differences(existing, actual_clean(team=team, data=data))
    if differ:
        raise IdempotencyConflict(existing, differ)
    return existing


def actual_create_idempotent(
    *, team: Team, data: dict, source: str = Source.API, created_by=None
) -> tuple[ActualCost, bool]:
    """(record, created): a retry with a key the team already used and the same values creates
    nothing and returns the earlier record; the same key with other values raises
    IdempotencyConflict (nothing is overwritten)."""
    existing = _key_in_use(team, clean_key(data.get("idempotency_key")))
    if existing is not None:
        return _replay(team, existing, data), False
    record = _build(team=team, data=data, source=source, created_by=created_by)
    existing = _save(record)
    if existing is not None:
        return _replay(team, existing, data), False
    quarterly_changed(team)
    return record, True


@transaction.atomic
def actual_update(*, record: ActualCost, data: dict, version: int | None = None) -> ActualCost:
    """Replace the record's figures; its source, key and author stay. StaleVersion (nothing
    written) when `version` is not the stored one."""
    claim(record, version)
    for name, value in actual_clean(team=record.team, data=data).items():
        setattr(record, name, value)
    record.save()
    quarterly_changed(record.team)
    return record


def actual_delete(*, record: ActualCost) -> None:
    record.delete()
    quarterly_changed(record.team)


def over_plan_threshold_set(*, team: Team, value: float) -> ActualsSettings:
    if not 0 <= value <= 1000:
        raise ActualValidationError({"over_plan_pct": [_("Enter a value from 0 to 1000.")]})
    settings, _created = ActualsSettings.objects.update_or_create(
        team=team, defaults={"over_plan_pct": value}
    )
    return settings


# CSV import ------------------------------------------------------------------------------------


def row_key(values: dict) -> str:
    """The key of a row without one: made of its values, so the same file imported twice saves
    nothing the second time (a second run with identical figures needs a key of its own)."""
    text = "|".join(str(values.get(name, "")).strip() for name in COLUMNS)
    return "csv:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def actual_import_csv(
    *, team: Team, content: str, created_by=None, dry_run: bool = False
) -> ImportResult:
    """Validate every row of a CSV file; save all of them in one transaction, or none.

    Line numbers count the header as line 1; with `dry_run` nothing is written (the preview).
    A key repeated in the file, or already used by the team, is an error of its row.
    """
    result = parse_csv(content, SHAPE)
    lookup = ReviewLookup(team).preload()
    seen: dict[str, int] = {}
    for row in result.rows:
        if result.out_of_time():
            break
        if not row.errors:
            _clean_row(team, row, lookup, seen)
    used = dict(
        ActualCost.objects.filter(team=team, idempotency_key__in=list(seen))
        .values_list("idempotency_key", "pk")
    )
    for row in result.rows:
        if row.key in used and seen.get(row.key) == row.line:
            row.errors.append(RowError("idempotency_key", _(
                "Already imported as record #%(id)s; nothing of this file is saved twice."
            ) % {"id": used[row.key]}))
    result.collect_errors()
    if dry_run or not result.ok:
        return result
    records = [
        ActualCost(team=team, source=Source.CSV, idempotency_key=row.key, created_by=created_by,
                   **row.cleaned)
        for row in result.rows
    ]
    try:
        with transaction.atomic():
            saved = ActualCost.objects.bulk_create(records)
    except IntegrityError:
        result.errors_by_line.setdefault(1, []).append(
            RowError("idempotency_key", _("An idempotency key was used meanwhile; nothing saved."))
        )
        return result
    for row, record in zip(result.rows, saved, strict=True):
        row.record = record
    result.saved = True
    quarterly_changed(team)
    return result


def _clean_row(team: Team, row: ImportRow, lookup: ReviewLookup, seen: dict[str, int]) -> None:
    try:
        key = clean_key(row.values.get("idempotency_key")) or row_key(row.values)
    except ActualValidationError as exc:
        row.errors.extend(_row_errors(exc))
        key = None
    try:
        row.cleaned = actual_clean(team=team, data=row.values, lookup=lookup)
    except ActualValidationError as exc:
        row.errors.extend(_row_errors(exc))
    if key is not None:
        if key in seen:
            row.errors.append(RowError("idempotency_key", _(
                "The same run as line %(line)s (same values or key)."
            ) % {"line": seen[key]}))
        else:
            seen[key] = row.line
    row.key = key


def _row_errors(exc: ActualValidationError) -> list[RowError]:
    return [RowError(name, m) for name, messages in exc.errors.items() for m in messages]
