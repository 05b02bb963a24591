"""The columns of a CSV file of benchmark records; the file itself is read by the product's one
CSV reader (apps/web/ingest.py: linear checks, strict quoting, caps). The values are checked by
`benchmark_clean`, row by row, in `services.benchmark_import_csv`.
"""

from __future__ import annotations

from apps.web import ingest
from apps.web.ingest import MAX_BYTES, CsvShape, ImportResult, ImportRow, RowError

from .validation import NEUTRAL

__all__ = ["COLUMNS", "MAX_BYTES", "ImportResult", "ImportRow", "RowError", "header_errors",
           "parse_csv", "template_csv"]

REQUIRED_COLUMNS = ("task", "kind")
COLUMNS = (
    "task",
    "offer",
    "kind",
    *(name for name in NEUTRAL if name not in ("offer", "notes")),
    "idempotency_key",
    "notes",
)
SHAPE = CsvShape(columns=COLUMNS, required=REQUIRED_COLUMNS)


def template_csv() -> str:
    return ingest.template_csv(COLUMNS)


def header_errors(header: list[str]) -> list[RowError]:
    return ingest.header_errors(header, SHAPE)


def parse_csv(content: str) -> ImportResult:
    return ingest.parse_csv(content, SHAPE)
