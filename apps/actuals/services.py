"""Writes of actual cost records: create (form, CSV, API), update, delete, the team's over-plan
threshold; provider bills are in `bills.py`.

Every path goes through `actual_clean` (validation.py), so the form, the CSV import, the API and
a bill accept and refuse exactly the same records.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.reviews.services.signoff import quarterly_figures_changed
from apps.web.concurrency import claim
from apps.web.ingest import (
    CsvShape,
    IdempotencyConflict,
    ImportResult,
    RowImport,
    build_record,
    create_idempotent,
    create_once,
    import_rows,
    key_used_message,
    parse_csv,
)

from .models import ActualCost, ActualsSettings, Source
from .validation import ActualValidationError, ReviewLookup, actual_clean, clean_key

__all__ = [
    "COLUMNS", "ActualValidationError", "IdempotencyConflict", "actual_create",
    "actual_create_idempotent", "actual_delete", "actual_import_csv", "actual_update",
    "bill_settings_set", "over_plan_threshold_set",
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


def quarterly_changed(team: Team) -> None:
    """Actual costs of the team were saved, imported or deleted: the quarterly figures read them,
    so they are recomputed once this commits (the one enqueue a sign-off uses too)."""
    quarterly_figures_changed(team_id=team.pk)


def _key_used(existing: ActualCost) -> ActualValidationError:
    return ActualValidationError({"idempotency_key": [key_used_message(existing)]})


def _build(*, team: Team, data: dict, source: str, created_by) -> ActualCost:
    return build_record(
        ActualCost, key=lambda: clean_key(data.get("idempotency_key")),
        clean=lambda: actual_clean(team=team, data=data), error=ActualValidationError,
        team=team, source=source, created_by=created_by,
    )


def actual_create(
    *, team: Team, data: dict, source: str = Source.FORM, created_by=None
) -> ActualCost:
    """A new record from raw `data`; ActualValidationError naming every bad field (an
    idempotency key the team already used included)."""
    record = create_once(_build(team=team, data=data, source=source, created_by=created_by),
                         _key_used)
    quarterly_changed(team)
    return record


def actual_create_idempotent(
    *, team: Team, data: dict, source: str = Source.API, created_by=None
) -> tuple[ActualCost, bool]:
    """(record, created): a retry with a key the team already used and the same values creates
    nothing and returns the earlier record; the same key with other values raises
    IdempotencyConflict (nothing is overwritten)."""
    record, created = create_idempotent(
        model=ActualCost, team=team, key=clean_key(data.get("idempotency_key")),
        build=lambda: _build(team=team, data=data, source=source, created_by=created_by),
        clean=lambda: actual_clean(team=team, data=data),
    )
    if created:
        quarterly_changed(team)
    return record, created


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


def bill_settings_set(*, team: Team, tag_key: str, cost: str) -> ActualsSettings:
    """The tag key that names a review on a bill line and the cost a bill counts (billed or
    effective)."""
    settings, _created = ActualsSettings.objects.update_or_create(
        team=team, defaults={"bill_tag_key": tag_key, "bill_cost": cost}
    )
    return settings


# CSV import ------------------------------------------------------------------------------------


def row_key(values: dict) -> str:
    """The key of a row without one: made of its values, so the same file imported twice saves
    nothing the second time (a second run with identical figures needs a key of its own)."""
    text = "|".join(str(values.get(name, "")).strip() for name in COLUMNS)
    return "csv:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _row_key(values: dict) -> str:
    return clean_key(values.get("idempotency_key")) or row_key(values)


def actual_import_csv(
    *, team: Team, content: str, created_by=None, dry_run: bool = False
) -> ImportResult:
    """Validate every row of a CSV file; save all of them in one transaction, or none.

    Line numbers count the header as line 1; with `dry_run` nothing is written (the preview).
    A key repeated in the file, or already used by the team, is an error of its row.
    """
    lookup = ReviewLookup(team).preload()
    spec = RowImport(
        model=ActualCost,
        clean=lambda values: actual_clean(team=team, data=values, lookup=lookup),
        key=_row_key,
        repeated=lambda line: _("The same run as line %(line)s (same values or key).")
        % {"line": line},
        used=lambda pk: _(
            "Already imported as record #%(id)s; nothing of this file is saved twice."
        ) % {"id": pk},
        fields={"team": team, "source": Source.CSV, "created_by": created_by},
    )
    result = import_rows(parse_csv(content, SHAPE), spec, team=team, dry_run=dry_run)
    if result.saved:
        quarterly_changed(team)
    return result
