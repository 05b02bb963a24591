from __future__ import annotations

import pytest

from tests.factories import make_membership, make_team, make_user


@pytest.fixture(autouse=True)
def _eager_celery_and_clean_cache(settings):
    """Tasks run in-process unless a test starts a real worker; the cache starts empty."""
    from django.core.cache import cache

    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        cache.clear()
    except Exception:  # noqa: BLE001 - a test may point the cache at a dead server on purpose
        pass
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def team(db):
    return make_team("Team One", "one")


@pytest.fixture
def other_team(db):
    return make_team("Team Two", "two")


@pytest.fixture
def owner(team):
    return make_membership(make_user("owner"), team, "owner").user


@pytest.fixture
def member(team):
    return make_membership(make_user("member"), team, "member").user


@pytest.fixture
def reviewer(team):
    return make_membership(make_user("reviewer"), team, "reviewer").user


@pytest.fixture
def outsider(other_team):
    return make_membership(make_user("outsider"), other_team, "owner").user
