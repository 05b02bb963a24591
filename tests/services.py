"""Which real services a test run has, and the rule for missing ones.

On a laptop a test that needs PostgreSQL, Redis, a worker or a browser skips when that is absent.
With CI=true a missing service is a failure: a skipped test there is a test that did not run.
"""

from __future__ import annotations

import os
import shutil
import socket
from urllib.parse import urlsplit

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def need(condition: bool, what: str) -> None:
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI=true but {what} is not available: this test must run in CI")
    pytest.skip(f"{what} is not available here")


def redis_reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 1):
            return True
    except OSError:
        return False


def need_postgres() -> None:
    from django.db import connection

    need(connection.vendor == "postgresql", "PostgreSQL (set DATABASE_URL=postgres://…)")


def need_redis() -> str:
    url = os.environ.get("REDIS_URL", "")
    need(bool(url) and redis_reachable(url), "Redis (set REDIS_URL=redis://…)")
    return url


def need_browser() -> str:
    need(
        os.path.exists(CHROMIUM) or shutil.which("chromium") is not None,
        f"Chromium at {CHROMIUM}",
    )
    try:
        import playwright  # noqa: F401
    except ImportError:
        need(False, "the playwright Python package")
    return CHROMIUM
