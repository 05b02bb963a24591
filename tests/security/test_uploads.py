"""Every import stops at its caps before per-row work (apps/web/limits.py, apps/web/csv_file.py,
issue 34 "one member's upload stalls the site").

Before: the reader split and parsed every line of a 2 MB file, then kept 5,000 rows, checked each
and listed one error per row (a 2 MB file: 16 s and a 2.4 MB answer). These tests count the
records the reader parses (its own counter, `ImportResult.records_read`, and a wrapper around its
record generator), never seconds.
"""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.web import csv_file, limits
from apps.web.limits import MAX_BYTES, MAX_ERRORS, MAX_ROWS, one_import_at_a_time

pytestmark = pytest.mark.django_db

# Each path with a header it accepts and a row that is wrong in its values.
PATHS = {
    "actuals:import": ("review,period,compute_cost", "nope,someday,lots"),
    "actuals:bill": ("date,provider,resource,tag,amount,currency", "someday,x,y,z,lots,XYZ"),
    "benchmarks:import": ("task,kind", "nope,sideways"),
}


def bad_file(path: str, rows: int | None = None) -> bytes:
    """The header, then bad rows: `rows` of them, or as many as fit in just under 2 MB."""
    header, row = PATHS[path]
    if rows is None:
        rows = (MAX_BYTES - len(header) - 2) // (len(row) + 1)
    content = (header + "\n" + (row + "\n") * rows).encode()
    assert len(content) <= MAX_BYTES
    return content


@pytest.fixture
def records_parsed(monkeypatch):
    """How many records the reader parsed, whichever import asked."""
    seen = {"n": 0}
    real = csv_file._records

    def counting(lines, width):
        for record in real(lines, width):
            seen["n"] += 1
            yield record

    monkeypatch.setattr(csv_file, "_records", counting)
    return seen


def upload(client, path: str, content: bytes):
    return client.post(
        reverse(path), {"file": SimpleUploadedFile("data.csv", content, "text/csv")}
    )


def listed_errors(html: str) -> int:
    return len(re.findall(r'<li id="line-\d+">', html))


@pytest.mark.parametrize("path", sorted(PATHS))
class CapsTests:
    def test_a_2_mb_file_of_bad_rows_is_read_only_up_to_the_row_cap(
        self, client, member, records_parsed, path
    ):
        content = bad_file(path)
        assert content.count(b"\n") > 10 * MAX_ROWS  # far more lines than the cap
        client.force_login(member)
        response = upload(client, path, content)
        assert response.status_code == 200
        html = response.content.decode()
        assert f"More than {MAX_ROWS} rows; split the file." in html
        assert records_parsed["n"] <= MAX_ROWS + 1
        assert listed_errors(html) <= MAX_ERRORS

    def test_at_most_100_row_errors_are_listed_then_how_many_more(self, client, member, path):
        client.force_login(member)
        html = upload(client, path, bad_file(path, rows=MAX_ERRORS + 50)).content.decode()
        assert listed_errors(html) == MAX_ERRORS
        assert "… and 50 more lines with errors." in html

    def test_an_import_out_of_time_stops_and_is_refused(self, client, member, monkeypatch, path):
        monkeypatch.setattr(limits, "MAX_SECONDS", -1.0)  # spent before it starts
        client.force_login(member)
        html = upload(client, path, bad_file(path, rows=20)).content.decode()
        assert "Checking this file took too long; split it into smaller files." in html
        assert listed_errors(html) == 1  # the file's own error, no row checked

    def test_a_second_import_while_one_runs_is_answered_429(self, client, member, path):
        client.force_login(member)
        with one_import_at_a_time(member.pk):
            busy = upload(client, path, bad_file(path, rows=3))
            assert client.get(reverse(path)).status_code == 200  # the page itself still shows
        assert busy.status_code == 429
        assert "One of your imports is still running" in busy.content.decode()
        assert upload(client, path, bad_file(path, rows=3)).status_code == 200


class ReaderTests:
    def test_the_reader_stops_at_the_first_record_past_the_cap(self):
        shape = csv_file.CsvShape(columns=("a",), required=("a",), max_rows=10)
        result = csv_file.parse_csv("a\n" + "x\n" * 10_000, shape)
        assert result.records_read == 11
        assert result.rows == []
        assert [e.message for e in result.errors_by_line[1]] == [
            "More than 10 rows; split the file."
        ]

    def test_a_file_at_the_cap_is_read_whole(self):
        shape = csv_file.CsvShape(columns=("a",), required=("a",), max_rows=10)
        result = csv_file.parse_csv("a\n" + "x\n" * 10 + "\n\n", shape)
        assert len(result.rows) == 10 and result.ok


class AnswerSizeTests:
    def test_a_bill_refused_whole_is_not_sent_back(self, client, member):
        client.force_login(member)
        content = bad_file("actuals:bill")
        response = upload(client, "actuals:bill", content)
        assert response.status_code == 200
        assert len(response.content) < len(content) // 10  # the 2 MB file is not echoed
