"""The one ingestion path of the product: every import of records (benchmark records, actual
costs, provider bills, price catalogs) reads its CSV file or JSON body through this package, and
an import-linter contract (`.importlinter`, "ingestion") keeps the importing apps from reading
files their own way (no `csv`, no direct use of the reader, the body reader or the caps).

- Reading: `parse_csv` with a `CsvShape` per import (apps/web/csv_file.py: strict quoting, caps),
  `read_upload` for an upload form, `read_json_text` for a JSON cell of a file; JSON bodies are
  read by the API's parser (apps/web/body.py) and answered with `ErrorsOut`/`TooLargeOut`.
- Caps and the error limit, defined once in apps/web/limits.py: `MAX_BYTES`, `MAX_ROWS`,
  `MAX_ERRORS`, `MAX_MAGNITUDE`, one import at a time per person.
- Values: `parse_float`, `parse_int`, `refuse_nul`, `clean_idempotency_key`, `FieldErrors`.
- Records: `import_rows` (row errors, keys, all or nothing), `save_all`, `create_idempotent`,
  `create_once`, `IdempotencyConflict`; the API's `post_record`.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from ..body import ErrorsOut, TooLargeOut, capped
from ..csv_file import (
    CsvShape,
    ImportResult,
    ImportRow,
    RowError,
    header_errors,
    parse_csv,
    read_upload,
    template_csv,
)
from ..limits import MAX_BYTES, MAX_ERRORS, MAX_MAGNITUDE, MAX_ROWS, one_import_per_person
from .api import errors, post_record, writer_team
from .records import (
    IdempotencyConflict,
    RowImport,
    build_record,
    create_idempotent,
    create_once,
    differences,
    form_save,
    import_rows,
    key_in_use,
    key_used_message,
    save_all,
)
from .values import (
    FieldErrors,
    blank,
    clean_idempotency_key,
    parse_float,
    parse_int,
    refuse_nul,
    row_errors,
)

__all__ = [
    "MAX_BYTES", "MAX_ERRORS", "MAX_MAGNITUDE", "MAX_ROWS", "CsvShape", "ErrorsOut",
    "FieldErrors", "IdempotencyConflict", "ImportResult", "ImportRow", "RowError", "RowImport",
    "TooLargeOut", "blank", "build_record", "capped", "clean_idempotency_key",
    "create_idempotent", "create_once", "differences", "errors", "form_save", "header_errors",
    "import_rows", "key_in_use", "key_used_message", "one_import_per_person", "parse_csv",
    "parse_float", "parse_int", "post_record", "read_json_text", "read_upload", "refuse_nul",
    "row_errors", "save_all", "template_csv", "upload_content", "writer_team",
]


def upload_content(form) -> str | None:
    """The text of a bound upload form (a `file`, or the `content` a preview posts back), or None
    with the reason put on the form's `file` field."""
    content, error = read_upload(form.cleaned_data) if form.is_valid() else (None, None)
    if error:
        form.add_error("file", error)
    return content


def read_json_text(text: str) -> dict:
    """A JSON object held in one cell of a file (a bill's tags); ValueError naming what is
    wrong. An empty cell is an empty object."""
    if not (text or "").strip():
        return {}
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError(_("Not a JSON object: %(text)s") % {"text": text[:60]}) from None
    if not isinstance(value, dict):
        raise ValueError(_("Not a JSON object: %(text)s") % {"text": text[:60]})
    return value
