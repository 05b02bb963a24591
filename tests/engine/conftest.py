"""The engine's tests run without Django: this shadows tests/conftest.py's autouse fixture (which
wants pytest-django's ``settings``) for every module in this folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _eager_celery_and_clean_cache():
    yield
