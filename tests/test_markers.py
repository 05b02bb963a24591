"""The service markers of pyproject.toml select the tests that need each service (tests/conftest.py
puts them on every test that calls, or uses a fixture that calls, tests.services.need_*)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.workers import ROOT

FILES = [
    "tests/e2e/test_csp.py",  # one browser test (need_browser in its `browser` fixture)
    "tests/reviews/test_immutability.py",  # DB trigger tests (need_postgres in the tests)
    "tests/security/test_signoff_contention.py",  # need_postgres in the `alpha` fixture only
    "tests/test_celery.py",  # one round trip through Redis
]
SERVICES = ("browser", "postgres", "redis")
REPORT_ENV = "SERVICE_MARKERS_REPORT"

# One collection for the three tests (a collection is the slow part): on one xdist worker.
pytestmark = pytest.mark.xdist_group(name="markers")


def pytest_collection_finish(session):
    """Loaded with `-p tests.test_markers` by the collection below: writes each test's markers."""
    path = os.environ.get(REPORT_ENV)
    if path:
        marks = {
            item.nodeid: sorted({m.name for m in item.iter_markers()} & set(SERVICES))
            for item in session.items
        }
        with open(path, "w", encoding="utf-8") as out:
            json.dump(marks, out)


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> dict[str, list[str]]:
    report = tmp_path_factory.mktemp("markers") / "marks.json"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-p", "tests.test_markers", *FILES],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, REPORT_ENV: str(report)},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(report.read_text())


def selected(marked: dict[str, list[str]], marker: str) -> set[str]:
    """What `pytest -m marker FILES` runs: the names of the tests carrying the marker."""
    return {nodeid.split("::")[-1] for nodeid, marks in marked.items() if marker in marks}


def test_browser_selects_the_browser_test_only(marked):
    assert selected(marked, "browser") == {"test_main_pages_raise_no_violation"}


def test_postgres_selects_the_tests_and_the_fixture_users_that_need_it(marked):
    names = selected(marked, "postgres")
    assert "test_the_links_it_reserved_cannot_change" in names
    assert "test_the_review_row_of_an_approved_review_cannot_change" in names
    assert "test_a_deadlock_is_retried_and_the_sign_off_recorded_once" in names  # via `alpha`
    # An admin test of the same file runs on SQLite too: not marked.
    assert "test_admin_allows_changes_of_a_draft" not in names
    assert "test_a_full_page_post_redirects_with_the_reason" not in names
    assert "test_main_pages_raise_no_violation" not in names


def test_redis_selects_the_round_trip(marked):
    assert selected(marked, "redis") == {"test_it_round_trips_through_redis_and_a_worker_process"}
