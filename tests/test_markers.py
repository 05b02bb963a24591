"""The service markers of pyproject.toml select the tests that need each service (tests/conftest.py
puts them on every test that calls, or uses a fixture that calls, tests.services.need_*)."""

from __future__ import annotations

import subprocess
import sys

from tests.workers import ROOT

FILES = [
    "tests/e2e/test_csp.py",  # one browser test (need_browser in the test)
    "tests/reviews/test_immutability.py",  # DB trigger tests (need_postgres in the tests)
    "tests/security/test_signoff_contention.py",  # need_postgres in the `alpha` fixture only
    "tests/test_celery.py",  # one round trip through Redis
]


def selected(marker: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", marker, *FILES],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return {line.split("::")[-1] for line in out.stdout.splitlines() if "::" in line}


def test_browser_selects_the_browser_test_only():
    assert selected("browser") == {"test_main_pages_raise_no_violation"}


def test_postgres_selects_the_tests_and_the_fixture_users_that_need_it():
    names = selected("postgres")
    assert "test_the_links_it_reserved_cannot_change" in names
    assert "test_the_review_row_of_an_approved_review_cannot_change" in names
    assert "test_a_deadlock_is_retried_and_the_sign_off_recorded_once" in names  # via `alpha`
    # An admin test of the same file runs on SQLite too: not marked.
    assert "test_admin_allows_changes_of_a_draft" not in names
    assert "test_a_full_page_post_redirects_with_the_reason" not in names
    assert "test_main_pages_raise_no_violation" not in names


def test_redis_selects_the_round_trip():
    assert selected("redis") == {"test_it_round_trips_through_redis_and_a_worker_process"}
