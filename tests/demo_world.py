"""The demo world (apps.teams.demo.load_demo, about 12 s) built once per test run and copied into
each test that asks for it: the `demo_world` fixture.

The first test that asks builds it in a transaction that is rolled back, keeping its rows (table
by table, new rows only); each test then gets those rows inserted into its own database in well
under a second. A test that changes them changes its own copy: a `db` test's transaction is
rolled back, a transactional (live server) test's tables are flushed, as for any other rows.

load_demo's work after commit (eager tasks: snapshot jobs, emails) never runs in a `db` test and
always runs in a transactional one, so two copies are kept, before and after that work; each test
gets the one its own database would have had.
Under pytest-xdist each worker builds its own, in its own test database.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

# Inserted last: on PostgreSQL a trigger refuses a candidate, sign-off or answer of an approved
# review (apps/reviews/migrations/0005), so the reviews come after what hangs off them (foreign
# keys are checked at commit).
LAST = "reviews_review"


@dataclass(frozen=True)
class TableRows:
    table: str
    columns: list[str]
    rows: object  # bytes of COPY on PostgreSQL, a list of tuples on SQLite


@dataclass(frozen=True)
class DemoRows:
    before_commit: list[TableRows]
    after_commit: list[TableRows]


def _models():
    from django.apps import apps

    return [
        m for m in apps.get_models(include_auto_created=True)
        if m._meta.managed and not m._meta.proxy
    ]


def _high_water(connection) -> dict[str, int | None]:
    """The largest primary key of each table now (None: empty or not an integer key)."""
    marks = {}
    with connection.cursor() as cursor:
        for model in _models():
            meta = model._meta
            q = connection.ops.quote_name
            cursor.execute(f"SELECT MAX({q(meta.pk.column)}) FROM {q(meta.db_table)}")
            value = cursor.fetchone()[0]
            marks[meta.db_table] = value
    return marks


def _dump(connection, since: dict) -> list[TableRows]:
    """Every row added since `since` (the demo's), table by table, LAST last."""
    q = connection.ops.quote_name
    out = []
    for model in sorted(_models(), key=lambda m: m._meta.db_table == LAST):
        meta = model._meta
        columns = [f.column for f in meta.concrete_fields]
        mark = since[meta.db_table]
        if mark is not None and not isinstance(mark, int):
            raise RuntimeError(f"{meta.db_table}: rows before the demo with a non-integer key")
        where = f" WHERE {q(meta.pk.column)} > {int(mark)}" if mark is not None else ""
        select = f"SELECT {', '.join(q(c) for c in columns)} FROM {q(meta.db_table)}{where}"
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                data = bytearray()
                with cursor.cursor.copy(f"COPY ({select}) TO STDOUT") as copy:
                    for chunk in copy:
                        data += chunk
                rows = bytes(data)
            else:
                cursor.execute(select)
                rows = cursor.fetchall()
        if rows:
            out.append(TableRows(meta.db_table, columns, rows))
    return out


def _restore(connection, tables: list[TableRows]) -> None:
    from django.core.management.color import no_style
    from django.db import transaction

    q = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for t in tables:
            cols = ", ".join(q(c) for c in t.columns)
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {q(t.table)} ({cols}) FROM STDIN") as copy:
                    copy.write(t.rows)
            else:
                marks = ", ".join(["%s"] * len(t.columns))
                cursor.executemany(f"INSERT INTO {q(t.table)} ({cols}) VALUES ({marks})", t.rows)
        # New rows a test adds get keys after the copied ones.
        restored = {t.table for t in tables}
        models = [m for m in _models() if m._meta.db_table in restored]
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


def build_rows(connection, load) -> DemoRows:
    """What `load()` writes, kept before and after its work on commit; nothing stays written."""
    from django.db import transaction
    from django.test import TestCase
    from django.utils import translation

    from config.celery import app

    # As in every test (tests/conftest.py): tasks in-process, English.
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    with translation.override("en"), transaction.atomic():
        since = _high_water(connection)
        with TestCase.captureOnCommitCallbacks() as callbacks:
            load()
        before_commit = _dump(connection, since)
        with TestCase.captureOnCommitCallbacks(execute=True):
            for callback in callbacks:
                callback()
        after_commit = _dump(connection, since)
        transaction.set_rollback(True)
    app.conf.task_always_eager = eager
    return DemoRows(before_commit, after_commit)


def _load_demo() -> None:
    from django.core.management import call_command

    call_command("load_demo", stdout=io.StringIO())


@pytest.fixture(scope="session")
def demo_rows(django_db_setup, django_db_blocker) -> DemoRows:
    from django.db import connection

    with django_db_blocker.unblock():
        return build_rows(connection, _load_demo)


def _transactional(request) -> bool:
    names = set(request.fixturenames)
    if names & {"transactional_db", "live_server", "django_db_serialized_rollback"}:
        return True
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and (marker.kwargs.get("transaction") or (marker.args[:1] == (True,))))


def restore_rows(request, rows: DemoRows) -> None:
    """Kept rows into the database of the test `request` belongs to, as if just loaded."""
    from django.db import connection

    if _transactional(request):
        request.getfixturevalue("transactional_db")
        _restore(connection, rows.after_commit)
    else:
        request.getfixturevalue("db")
        _restore(connection, rows.before_commit)


@pytest.fixture
def demo_world(request, demo_rows: DemoRows) -> None:
    """The whole demo (apps.teams.demo.load_demo) in this test's database, as if just loaded."""
    restore_rows(request, demo_rows)


def demo_counts() -> dict[str, int]:
    """The number of rows of every model: what a second load_demo must leave unchanged."""
    return {m._meta.label: m._default_manager.count() for m in _models()}
