"""Reading an uploaded CSV file into rows with their line numbers (header = line 1), for every
import of the product (benchmark records, actual costs, provider bills).

Only the shape of the file is checked here (columns, values per row, quoting, the caps of
apps/web/limits.py); each import checks the values, row by row, in its own service. The file is
read line by line as the rows are asked for, and reading stops at the first record past the row cap
(the file is refused, no row of it checked) or when the import's time is up: a 2 MB file is never
read past its caps. Quoting is strict: a quote that does not close where a cell ends is an error of
the line it opens on, and reading goes on from the next line, so the rows counted are the rows of
the file. What varies between imports (the columns, which are required, whether other columns are
refused or passed over) is a `CsvShape`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .limits import MAX_BYTES, MAX_COLUMNS, MAX_ERRORS, MAX_LINE_CHARS, MAX_ROWS, Deadline

MAX_NAMED = 10  # column names listed in one message
_LINE = re.compile(r"[^\r\n]*(?:\r\n|[\r\n])|[^\r\n]+\Z")


@dataclass(frozen=True)
class CsvShape:
    """The columns one import reads. `other_columns`: "refuse" (a typo is never ignored) or
    "pass" (a provider's export carries many columns the import does not read)."""

    columns: tuple[str, ...]
    required: tuple[str, ...]
    max_columns: int = MAX_COLUMNS
    max_rows: int = MAX_ROWS
    other_columns: str = "refuse"


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
    deadline: Deadline = field(default_factory=Deadline)
    records_read: int = 0  # records the reader parsed (the caps stop it early)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.errors_by_line

    @property
    def error_count(self) -> int:
        return len(self.errors_by_line)

    @property
    def shown_errors(self) -> dict[int, list[RowError]]:
        """The errors of the first MAX_ERRORS lines: what a preview lists."""
        return dict(list(self.errors_by_line.items())[:MAX_ERRORS])

    @property
    def more_errors(self) -> int:
        """How many lines with errors are not listed ("… and N more")."""
        return max(0, len(self.errors_by_line) - MAX_ERRORS)

    @property
    def shown_rows(self) -> list[ImportRow]:
        """Every row of a clean file (to confirm); only the first MAX_ERRORS of a refused one."""
        return self.rows if self.ok else self.rows[:MAX_ERRORS]

    def out_of_time(self) -> bool:
        """Whether the import's time is up; the first time, the file is refused saying so."""
        if not self.deadline.expired():
            return False
        errors = self.errors_by_line.setdefault(1, [])
        if not any(e.field == "" and e.message == _time_message() for e in errors):
            errors.append(RowError("", _time_message()))
        return True

    def collect_errors(self) -> None:
        """errors_by_line from the file-level errors (line 1) and each row's errors."""
        file_errors = self.errors_by_line.get(1, [])
        self.errors_by_line = {1: file_errors} if file_errors else {}
        for row in self.rows:
            if row.errors:
                self.errors_by_line[row.line] = list(row.errors)


def _time_message() -> str:
    return _("Checking this file took too long; split it into smaller files.")


def template_csv(columns: tuple[str, ...], example: dict[str, str] | None = None) -> str:
    """The header line users fill in: every column the import reads, in order; then, given, an
    example row (its values by column) to replace with their own."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    if example:
        writer.writerow([example.get(name, "") for name in columns])
    return out.getvalue()


def _names(names: list[str]) -> str:
    """Column names for a message: the first few, then how many more."""
    shown = ", ".join(n or '""' for n in names[:MAX_NAMED])
    if len(names) > MAX_NAMED:
        shown += " " + _("and %(n)s more") % {"n": len(names) - MAX_NAMED}
    return shown


def header_errors(header: list[str], shape: CsvShape) -> list[RowError]:
    """Missing, unknown and repeated columns of the header line, in one pass over it (sets and a
    counter, never a scan per column: a 50,000-column header once took 72 s)."""
    semicolons = len(header) == 1 and ";" in header[0]
    if semicolons and {n.strip() for n in header[0].split(";")} & set(shape.columns):
        # Saved with ';' between values (a spreadsheet set to a comma-decimal language): the
        # whole header reads as one column, which is no unknown column to explain.
        hint = _(
            "This file seems to use ';' as separator: save it as CSV with commas (,) between "
            "values, as in the template."
        )
        return [RowError("", hint)]
    errors = []
    present = set(header)
    missing = [name for name in shape.required if name not in present]
    if missing:
        errors.append(RowError("", _("Missing column(s): %(names)s.") % {"names": _names(missing)}))
    known = set(shape.columns)
    unknown = [name for name in header if name not in known and shape.other_columns == "refuse"]
    if unknown:
        errors.append(
            RowError(
                "",
                _("Unknown column(s): %(names)s. The template lists the columns.")
                % {"names": _names(unknown)},
            )
        )
    repeated = sorted(name for name, count in Counter(header).items() if count > 1)
    if repeated:
        errors.append(
            RowError("", _("Repeated column(s): %(names)s.") % {"names": _names(repeated)})
        )
    return errors


class _Lines:
    """The file's lines with their endings (only CR, LF and CRLF end a line, as for csv), read
    from the text only as far as the reader asks. A line over MAX_LINE_CHARS is read as a blank
    line and its number kept in `too_long` (an error of its own)."""

    def __init__(self, content: str) -> None:
        self._found = _LINE.finditer(content)
        self._lines: list[str] = []
        self.too_long: list[int] = []

    def get(self, k: int) -> str | None:
        """Line k (0 = the header), or None past the end."""
        while len(self._lines) <= k:
            match = next(self._found, None)
            if match is None:
                return None
            line = match.group()
            if len(self._lines) > 0 and len(line) > MAX_LINE_CHARS:
                self.too_long.append(len(self._lines) + 1)
                line = "\n"
            self._lines.append(line)
        return self._lines[k]

    def from_(self, k: int) -> Iterator[str]:
        while (line := self.get(k)) is not None:
            yield line
            k += 1


def _long_line_error(limit: int) -> RowError:
    return RowError(
        "",
        _(
            "This line is longer than %(limit)s characters, the most a line may hold; shorten "
            "its notes or split it."
        )
        % {"limit": f"{limit:,}"},
    )


def _quote_error(exc: csv.Error) -> RowError:
    if "unexpected end of data" in str(exc):
        return RowError(
            "",
            _(
                "A quote opens a cell on this line that never closes, so every later line would be "
                'read into that cell. Close the quote, or double a quote inside a cell ("").'
            ),
        )
    return RowError(
        "",
        _(
            "A quoted cell must end at a comma or at the end of the row; double a quote inside a "
            'cell (""). (%(e)s)'
        )
        % {"e": exc},
    )


def _swallow_error(last: int) -> RowError:
    return RowError(
        "",
        _(
            "A quoted cell opened on this line runs to line %(last)s and holds lines shaped like "
            'rows: a stray quote? Close it on this line, or double a quote inside a cell ("").'
        )
        % {"last": last},
    )


def _swallowed_rows(lines: _Lines, first: int, last: int, width: int) -> bool:
    """Whether a record spanning lines[first..last] holds a continuation line that alone has as
    many cells as the header: the mark of a stray quote that ate whole rows."""
    for k in range(first + 1, last + 1):
        cells = next(csv.reader([lines.get(k) or ""]), [])
        if len(cells) >= width:
            return True
    return False


Record = tuple[int, list[str] | None, RowError | None]


def _records(lines: _Lines, width: int) -> Iterator[Record]:
    """(line number, cells, error) per record after the header, strictly quoted, as they are
    asked for. A record that is not valid CSV is an error of the line where it starts, and reading
    resumes on the next line, so a stray quote costs one row and never swallows the rest of the
    file. Each line is read at most twice."""
    pos = 1
    while lines.get(pos) is not None:
        reader = csv.reader(lines.from_(pos), strict=True)
        start = pos
        try:
            for cells in reader:
                end = pos + reader.line_num - 1  # index of the record's last line
                if end > start and _swallowed_rows(lines, start, end, width):
                    yield start + 1, None, _swallow_error(end + 1)
                    break
                yield start + 1, cells, None
                start = end + 1
            else:
                return
        except csv.Error as exc:
            yield start + 1, None, _quote_error(exc)
        pos = start + 1


def parse_csv(content: str, shape: CsvShape) -> ImportResult:
    result = ImportResult()
    if len(content) > MAX_BYTES or len(content.encode("utf-8")) > MAX_BYTES:
        result.errors_by_line[1] = [RowError("", _("The file is larger than 2 MB; split it."))]
        return result
    lines = _Lines(content.lstrip("\ufeff"))
    header, file_errors = _read_header(lines.get(0), shape)
    if file_errors:
        result.errors_by_line[1] = file_errors
        return result
    rows, over = _read_rows(lines, header, shape.max_rows, result)
    if over:
        # Past the cap the file is refused whole: no row of it is checked.
        file_errors.append(
            RowError("", _("More than %(n)s rows; split the file.") % {"n": shape.max_rows})
        )
        rows = []
    result.rows = rows
    if not result.rows and not file_errors and 1 not in result.errors_by_line:
        file_errors.append(RowError("", _("The file has a header but no rows.")))
    if file_errors:
        result.errors_by_line.setdefault(1, []).extend(file_errors)
    result.collect_errors()
    return result


def _read_header(first: str | None, shape: CsvShape) -> tuple[list[str], list[RowError]]:
    """The header's column names (stripped, lower case), or the errors of line 1."""
    if first is not None and len(first) > MAX_LINE_CHARS:
        return [], [_long_line_error(MAX_LINE_CHARS)]
    try:
        header = next(csv.reader([first] if first is not None else [], strict=True), [])
    except csv.Error as exc:
        return [], [RowError("", _("Not a CSV file: %(e)s") % {"e": exc})]
    if len(header) > shape.max_columns:
        message = _(
            "The header has %(n)s columns; at most %(max)s are read (the template has "
            "%(template)s)."
        ) % {"n": f"{len(header):,}", "max": shape.max_columns, "template": len(shape.columns)}
        return [], [RowError("", message)]
    header = [name.strip().lower() for name in header]
    if not any(header):
        return [], [RowError("", _("The file is empty: no header line."))]
    return header, list(header_errors(header, shape))


def _read_rows(
    lines: _Lines, header: list[str], max_rows: int, result: ImportResult
) -> tuple[list[ImportRow], bool]:
    """The data rows in line order, each with its own errors (a line too long, a bad record, a
    wrong number of values); blank lines are skipped. Reading stops at the first record past
    `max_rows` (then True) or when the import's time is up."""
    rows: list[ImportRow] = []
    for line, cells, error in _records(lines, len(header)):
        result.records_read += 1
        if error is None and not any(cell.strip() for cell in cells):
            continue
        if len(rows) + len(lines.too_long) >= max_rows:
            return rows, True
        if result.out_of_time():
            break
        if error is not None:
            rows.append(ImportRow(line=line, values={}, errors=[error]))
            continue
        row = ImportRow(line=line, values=dict(zip(header, cells, strict=False)))
        if len(cells) != len(header):
            row.errors.append(
                RowError(
                    "",
                    _("%(got)s values, but the header has %(want)s columns.")
                    % {"got": len(cells), "want": len(header)},
                )
            )
        rows.append(row)
    rows.extend(
        ImportRow(line=line, values={}, errors=[_long_line_error(MAX_LINE_CHARS)])
        for line in lines.too_long
    )
    rows.sort(key=lambda row: row.line)
    return rows, False


def read_upload(cleaned_data: dict) -> tuple[str | None, str | None]:
    """(content, error) of an upload form (fields `file` and `content`): the uploaded file decoded
    as UTF-8, or the content the preview posted back for confirmation."""
    upload = cleaned_data.get("file")
    if upload is not None:
        if upload.size > MAX_BYTES:
            return None, _("The file is larger than 2 MB; split it.")
        raw = upload.read()
        try:
            return raw.decode("utf-8-sig"), None
        except UnicodeDecodeError:
            return None, _("The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.")
    content = cleaned_data.get("content") or ""
    if not content.strip():
        return None, _("Choose a CSV file.")
    return content, None
