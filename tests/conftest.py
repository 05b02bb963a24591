from __future__ import annotations

import os

import pytest

pytest_plugins = ["tests.demo_world"]


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
        cache.clear()  # this run's (this xdist worker's) keys only: see pytest_configure
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


_TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
_NEEDED: dict[object, frozenset[str]] = {}


def _needs(func) -> frozenset[str]:
    """The services one function's source calls for, read once per function (a collection sees
    the same fixtures thousands of times; reading their source each time cost half a minute)."""
    import inspect

    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    key = code if code is not None else func
    if key not in _NEEDED:
        text = ""
        # Only the project's tests call need_*(); library fixtures (client, settings…) never do.
        if code is None or code.co_filename.startswith(_TESTS_DIR):
            try:
                text = inspect.getsource(func)
            except (OSError, TypeError):
                pass
        _NEEDED[key] = frozenset(mark for call, mark in SERVICE_MARKERS.items() if call in text)
    return _NEEDED[key]


def _services_needed(item) -> set[str]:
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        functions.extend(d.func for d in defs)
    needed = set()
    for func in filter(None, functions):
        needed.update(_needs(func))
    return needed


# Under pytest-xdist (`make test`, --dist loadgroup) the browser tests go to two groups, each run
# by one worker with one Chromium (tests/e2e/conftest.py): the accessibility walk of every main
# page (about half their time) and the others.
E2E_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "e2e") + os.sep
E2E_OWN_GROUP = {"test_accessibility.py": "browser-axe"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in sorted(_services_needed(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(name)
        if str(item.path).startswith(E2E_DIR):
            group = E2E_OWN_GROUP.get(item.path.name, "browser")
            item.add_marker(pytest.mark.xdist_group(name=group))


# Parallel runs (pytest-xdist, `make test`): each worker has its own test database (pytest-django
# suffixes its name) and its own cache keys in the one Redis database, so that a test's
# cache.clear() (above, and in tests that want a cold cache) empties its worker's keys only.
def _worker_cache_prefix() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    from django.conf import settings

    if not settings.configured:
        return
    from django.test.signals import clear_cache_handlers

    for alias, conf in settings.CACHES.items():
        prefix = f"{conf.get('KEY_PREFIX') or 'csr'}-{worker}"
        conf["KEY_PREFIX"] = prefix
        conf["WRAPPED_BACKEND"] = conf["BACKEND"]
        conf["BACKEND"] = "tests.cache_backends.own_keys_cache"
        if alias == "default":
            # Real workers a test starts read their settings afresh: the same prefix.
            os.environ["CACHE_KEY_PREFIX"] = prefix
    clear_cache_handlers(setting="CACHES")


def pytest_configure(config):
    _worker_cache_prefix()
