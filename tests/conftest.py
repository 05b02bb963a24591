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


# The markers declared in pyproject.toml (postgres, redis, browser), put on every test that needs
# the service: the test, or a fixture it uses, calls tests.services.need_postgres / need_redis /
# need_browser. So `pytest -m browser` runs the browser tests and `-m "not postgres"` leaves out
# what would skip on SQLite; a new test that calls need_*() is marked without anyone remembering.
SERVICE_MARKERS = {
    "need_postgres(": "postgres",
    "need_redis(": "redis",
    "need_browser(": "browser",
}


def _source(func) -> str:
    import inspect

    try:
        return inspect.getsource(inspect.unwrap(func))
    except (OSError, TypeError):
        return ""


def _services_needed(item) -> set[str]:
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        functions.extend(d.func for d in defs)
    needed = set()
    for func in filter(None, functions):
        text = _source(func)
        needed.update(mark for call, mark in SERVICE_MARKERS.items() if call in text)
    return needed


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in sorted(_services_needed(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(name)
