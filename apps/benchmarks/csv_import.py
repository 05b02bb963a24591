"""Reading a CSV file of benchmark records into rows with their line numbers (header = line 1).

Only the shape of the file is checked here (columns, values per row); the values themselves are
checked by `benchmark_clean`, row by row, in `services.benchmark_import_csv`.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .validation import NEUTRAL

REQUIRED_COLUMNS = ("task", "kind")
COLUMNS = (
    "task",
    "offer",
    "kind",
    *(name for name in NEUTRAL if name not in ("offer", "notes")),
    "idempotency_key",
    "notes",
)
MAX_ROWS = 5000
MAX_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class RowError:
    field: str
    message: str


@dataclass
class ImportRow:
    line: int
    values: dict[str, str]
    errors: list[RowError] = field(default_factory=list)
    cleaned: dict | None = None
    key: str | None = None
    record: object | None = None


@dataclass
class ImportResult:
    rows: list[ImportRow] = field(default_factory=list)
    errors_by_line: dict[int, list[RowError]] = field(default_factory=dict)
    saved: bool = False

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.errors_by_line

    @property
    def error_count(self) -> int:
        return len(self.errors_by_line)

    def collect_errors(self) -> None:
        """errors_by_line from the file-level errors (line 1) and each row's errors."""
        file_errors = self.errors_by_line.get(1, [])
        self.errors_by_line = {1: file_errors} if file_errors else {}
        for row in self.rows:
            if row.errors:
                self.errors_by_line[row.line] = list(row.errors)


def template_csv() -> str:
    """The header line users fill in: every column the import reads, in order."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(COLUMNS)
    return out.getvalue()


def _header_errors(header: list[str]) -> list[RowError]:
    """Missing, unknown and repeated columns of the header line."""
    errors = []
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        errors.append(
            RowError("", _("Missing column(s): %(names)s.") % {"names": ", ".join(missing)})
        )
    unknown = [name for name in header if name not in COLUMNS]
    if unknown:
        errors.append(
            RowError(
                "",
                _("Unknown column(s): %(names)s. The template lists the columns.")
                % {"names": ", ".join(n or '""' for n in unknown)},
            )
        )
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        errors.append(
            RowError("", _("Repeated column(s): %(names)s.") % {"names": ", ".join(repeated)})
        )
    return errors


def parse_csv(content: str) -> ImportResult:
    result = ImportResult()
    file_errors: list[RowError] = []
    if len(content.encode("utf-8")) > MAX_BYTES:
        file_errors.append(RowError("", _("The file is larger than 2 MB; split it.")))
        result.errors_by_line[1] = file_errors
        return result
    content = content.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(content, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        header = []
    except csv.Error as exc:
        result.errors_by_line[1] = [RowError("", _("Not a CSV file: %(e)s") % {"e": exc})]
        return result
    header = [name.strip().lower() for name in header]
    if not any(header):
        result.errors_by_line[1] = [RowError("", _("The file is empty: no header line."))]
        return result
    file_errors.extend(_header_errors(header))
    if file_errors:
        result.errors_by_line[1] = file_errors
        return result

    last_line = reader.line_num
    try:
        for cells in reader:
            line = last_line + 1  # where this record starts (a quoted cell may span lines)
            last_line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(result.rows) >= MAX_ROWS:
                file_errors.append(
                    RowError("", _("More than %(n)s rows; split the file.") % {"n": MAX_ROWS})
                )
                break
            row = ImportRow(line=line, values=dict(zip(header, cells, strict=False)))
            if len(cells) != len(header):
                row.errors.append(
                    RowError(
                        "",
                        _("%(got)s values, but the header has %(want)s columns.")
                        % {"got": len(cells), "want": len(header)},
                    )
                )
            result.rows.append(row)
    except csv.Error as exc:
        message = _("Line %(line)s is not valid CSV: %(e)s") % {"line": last_line + 1, "e": exc}
        file_errors.append(RowError("", message))
    if not result.rows and not file_errors:
        file_errors.append(RowError("", _("The file has a header but no rows.")))
    if file_errors:
        result.errors_by_line[1] = file_errors
    result.collect_errors()
    return result
