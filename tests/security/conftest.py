"""Fixtures shared by the security tests."""

from __future__ import annotations

import pytest

from tests.security.helpers import World, build_world


@pytest.fixture
def world(db) -> World:
    """Two teams, each with its sites, offers, profile, benchmarks and a review (helpers.py)."""
    return build_world()
