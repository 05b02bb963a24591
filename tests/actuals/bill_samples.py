"""The public bill samples of tests/data/bills (see tests/data/README.md), with their review tags
pointed at a review of the test's team, and a cell of a line changed for a case."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

BILLS = Path(__file__).resolve().parent.parent / "data" / "bills"
# The samples' tags name review 12 (`12`, `#12`, `review:12`), in a JSON cell or a tag column.
_IN_JSON = re.compile(r'(review""?:""?(?:review:|#)?)12(?="")')
_IN_COLUMN = re.compile(r",(#?)12$", re.MULTILINE)


def sample(name: str, review_id: int) -> str:
    text = (BILLS / name).read_text(encoding="utf-8")
    text = _IN_JSON.sub(lambda m: f"{m.group(1)}{review_id}", text)
    return _IN_COLUMN.sub(lambda m: f",{m.group(1)}{review_id}", text)


def edit(text: str, line: int, column: str, value: str) -> str:
    """The CSV with the cell of `column` (as in the header) on `line` (header = 1) set."""
    rows = list(csv.reader(io.StringIO(text)))
    rows[line - 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()
