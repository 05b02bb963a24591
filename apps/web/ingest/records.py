"""Records from a file or a body, the one way: each row cleaned with its idempotency key, a key
repeated in the file or already used by the team an error of its row, every row saved in one
transaction or none (`import_rows`); one record from an API body, a retry with the same key
creating nothing (`create_idempotent`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from ..csv_file import ImportResult, RowError
from .values import FieldErrors, row_errors


@dataclass(frozen=True)
class RowImport:
    """What one kind of record says about a file's rows.

    `clean`: a row's values → the model's values (FieldErrors naming the bad fields); `key`: the
    row's idempotency key, None for none (FieldErrors); `repeated` and `used`: the messages of a
    key seen on an earlier line and of one a stored record holds; `fields`: what every record of
    the file holds besides its row's values and key (team, source, author); `check`: a last guard
    on each record (FieldErrors)."""

    model: type[Model]
    clean: Callable[[dict], dict]
    key: Callable[[dict], str | None]
    repeated: Callable[[int], str]
    used: Callable[[int], str]
    fields: dict
    check: Callable[[Model], None] | None = None


def clean_rows(result: ImportResult, spec: RowImport) -> dict[str, int]:
    """Clean each row without errors yet, until the import's time is up; the line where each key
    is first used. A key repeated in the file is an error of the later row."""
    seen: dict[str, int] = {}
    for row in result.rows:
        if result.out_of_time():
            break
        if row.errors:
            continue
        try:
            key = spec.key(row.values)
        except FieldErrors as exc:
            row.errors.extend(row_errors(exc))
            key = None
        try:
            row.cleaned = spec.clean(row.values)
        except FieldErrors as exc:
            row.errors.extend(row_errors(exc))
        if key is not None:
            if key in seen:
                row.errors.append(RowError("idempotency_key", spec.repeated(seen[key])))
            else:
                seen[key] = row.line
        row.key = key
    return seen


def refuse_used_keys(result: ImportResult, spec: RowImport, team, seen: dict[str, int]) -> None:
    """A key the team already used is an error of the row that first names it in the file."""
    used = dict(
        spec.model.objects.filter(team=team, idempotency_key__in=list(seen))
        .values_list("idempotency_key", "pk")
    )
    for row in result.rows:
        if row.key is not None and row.key in used and seen.get(row.key) == row.line:
            row.errors.append(RowError("idempotency_key", spec.used(used[row.key])))


def save_all(result: ImportResult, write: Callable[[], None], *, conflict: RowError) -> bool:
    """Run `write` in one transaction; a unique key taken meanwhile saves nothing and is the
    file's error `conflict`. Whether it saved."""
    try:
        with transaction.atomic():
            write()
    except IntegrityError:
        result.errors_by_line.setdefault(1, []).append(conflict)
        return False
    result.saved = True
    return True


def import_rows(
    result: ImportResult, spec: RowImport, *, team, dry_run: bool
) -> ImportResult:
    """Check every row of a read file; unless `dry_run` or any error, save them all together."""
    seen = clean_rows(result, spec)
    refuse_used_keys(result, spec, team, seen)
    result.collect_errors()
    if dry_run or not result.ok:
        return result
    records = [spec.model(idempotency_key=row.key, **spec.fields, **row.cleaned)
               for row in result.rows]
    if spec.check is not None:
        for row, record in zip(result.rows, records, strict=True):
            try:
                spec.check(record)
            except FieldErrors as exc:
                row.errors.extend(row_errors(exc))
        result.collect_errors()
        if not result.ok:
            return result
    saved: list[Model] = []
    conflict = RowError(
        "idempotency_key", _("An idempotency key was used meanwhile; nothing saved.")
    )
    if save_all(result, lambda: saved.extend(spec.model.objects.bulk_create(records)),
                conflict=conflict):
        for row, record in zip(result.rows, saved, strict=True):
            row.record = record
    return result


# One record from a form or an API body ---------------------------------------------------------


def build_record(
    model: type[Model], *, key: Callable[[], str | None], clean: Callable[[], dict],
    error: type[FieldErrors] = FieldErrors, **fields,
) -> Model:
    """The unsaved record of `clean()`'s values, its key `key()` and `fields`; `error` naming
    every bad field of both at once."""
    errors: dict[str, list[str]] = {}
    try:
        idempotency_key = key()
    except FieldErrors as exc:
        errors.update(exc.errors)
        idempotency_key = None
    try:
        values = clean()
    except FieldErrors as exc:
        raise error({**exc.errors, **errors}) from None
    if errors:
        raise error(errors)
    return model(idempotency_key=idempotency_key, **fields, **values)


def form_save(form, create: Callable[[dict], Model]) -> Model | None:
    """The record `create(values)` makes of a valid form, or None with every error on the form
    (its own, and the service's by field)."""
    if not form.is_valid():
        return None
    try:
        return create(form.data_for_service())
    except FieldErrors as exc:
        form.add_service_errors(exc)
        return None



class IdempotencyConflict(Exception):
    """The key was used for a record with other values (Stripe's semantics: a key names one
    request; the same key with a different body is an error, never a silent drop)."""

    def __init__(self, record: Model, fields: list[str]) -> None:
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


def key_in_use(model: type[Model], team, key: str | None) -> Model | None:
    if key is None:
        return None
    return model.objects.filter(team=team, idempotency_key=key).first()


def key_used_message(existing: Model) -> str:
    return _("This idempotency key was already used by record #%(id)s.") % {"id": existing.pk}


def save_once(record: Model) -> Model | None:
    """Insert; the record already holding its key when a concurrent request won the race."""
    try:
        with transaction.atomic():
            record.save()
    except IntegrityError:
        existing = key_in_use(type(record), record.team, record.idempotency_key)
        if existing is None:
            raise
        return existing
    return None


def differences(record: Model, values: dict) -> list[str]:
    """The fields whose cleaned new value is not what the record holds."""
    differ = []
    for name, value in values.items():
        held = getattr(record, name)
        if hasattr(held, "pk") or hasattr(value, "pk"):
            held, value = getattr(held, "pk", held), getattr(value, "pk", value)
        if held != value:
            differ.append(name)
    return sorted(differ)


def _replay(existing: Model, clean: Callable[[], dict]) -> Model:
    """A retry: the stored record when the body says the same, else IdempotencyConflict."""
    differ = differences(existing, clean())
    if differ:
        raise IdempotencyConflict(existing, differ)
    return existing


def create_once(record: Model, used: Callable[[Model], FieldErrors]) -> Model:
    """Save a new record whose key no record holds yet; `used(existing)` is raised when one does
    (the form and the CSV path: a used key is an error there)."""
    existing = key_in_use(type(record), record.team, record.idempotency_key) or save_once(record)
    if existing is not None:
        raise used(existing)
    return record


def create_idempotent(
    *, model: type[Model], team, key: str | None, build: Callable[[], Model],
    clean: Callable[[], dict],
) -> tuple[Model, bool]:
    """(record, created): a retry with a key the team already used and the same values creates
    nothing and returns the earlier record, even if it races the first request; the same key with
    other values raises IdempotencyConflict (nothing is overwritten)."""
    existing = key_in_use(model, team, key)
    if existing is not None:
        return _replay(existing, clean), False
    record = build()
    existing = save_once(record)
    if existing is not None:
        return _replay(existing, clean), False
    return record, True
