from __future__ import annotations

import pytest


def _factories():
    # Imported lazily so that the engine's tests run without Django (-p no:django).
    from tests import factories

    return factories


@pytest.fixture(autouse=True)
def _eager_celery_and_clean_cache(settings):
    """Tasks run in-process unless a test starts a real worker; the cache starts empty."""
    from django.core.cache import cache
    from django.utils import translation

    from config.celery import app

    # A request in Chinese leaves that language active in the thread; each test starts in English.
    translation.activate("en")

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
    return _factories().make_team("Team One", "one")


@pytest.fixture
def other_team(db):
    return _factories().make_team("Team Two", "two")


@pytest.fixture
def owner(team):
    f = _factories()
    return f.make_membership(f.make_user("owner"), team, "owner").user


@pytest.fixture
def member(team):
    f = _factories()
    return f.make_membership(f.make_user("member"), team, "member").user


@pytest.fixture
def reviewer(team):
    f = _factories()
    return f.make_membership(f.make_user("reviewer"), team, "reviewer").user


@pytest.fixture
def outsider(other_team):
    f = _factories()
    return f.make_membership(f.make_user("outsider"), other_team, "owner").user
