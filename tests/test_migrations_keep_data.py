"""An existing database migrates with no data lost.

`tests/data/demo_db_2026-12-02.sql.gz` is a SQLite database filled by `load_demo` at the schema of
commit 9006e1e (every migration up to then applied), dumped with `sqlite3 DB .dump | gzip -9n`
(see tests/data/README.md). The test restores it into a scratch file, runs `manage.py migrate` on
it in a separate process (the settings read DATABASE_URL, so it is the real command a deployment
runs), then compares every table's row count and each table's first and last rows, column by
column, with what the dump held. A migration that drops or rewrites stored rows fails here; one
that moves a table says so in MOVED_TABLES, and one that changes a stored value on purpose says so
(or drops a column) on purpose says so in CHANGED_VALUES.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DUMP = ROOT / "tests" / "data" / "demo_db_2026-12-02.sql.gz"
SKIP_TABLES = {"django_migrations", "sqlite_sequence"}
# Django's own registries gain a row for each model a migration adds (post_migrate): their rows
# must all stay, new ones may come.
GROWING_TABLES = {"django_content_type", "auth_permission"}

# A table a migration renamed: old name -> new name (none yet).
MOVED_TABLES: dict[str, str] = {}
# A column a migration changes or drops on purpose: (table, column) -> why (none yet).
CHANGED_VALUES: dict[tuple[str, str], str] = {}


def restore(target: Path) -> None:
    with sqlite3.connect(target) as db:
        db.executescript(gzip.decompress(DUMP.read_bytes()).decode())


def tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [name for (name,) in rows if name not in SKIP_TABLES]


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]


def edge_rows(db: sqlite3.Connection, table: str) -> list[dict]:
    """The first and last rows by primary key (rowid where the table has no id)."""
    names = columns(db, table)
    key = "id" if "id" in names else "rowid"
    found = []
    for order in ("ASC", "DESC"):
        row = db.execute(f'SELECT * FROM "{table}" ORDER BY {key} {order} LIMIT 1').fetchone()
        if row is not None:
            found.append(dict(zip(names, row, strict=True)))
    return found


def snapshot(path: Path) -> dict[str, tuple[int, list[dict]]]:
    with sqlite3.connect(path) as db:
        return {
            table: (db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0], edge_rows(db, table))
            for table in tables(db)
        }


def manage(*args: str, database: Path) -> subprocess.CompletedProcess:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_ENV="test")
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    database = tmp_path_factory.mktemp("migrate") / "demo.sqlite3"
    restore(database)
    before = snapshot(database)
    done = manage("migrate", "--no-input", database=database)
    assert done.returncode == 0, done.stdout + done.stderr
    return database, before, snapshot(database)


def test_the_dump_holds_the_demo_world(migrated):
    _, before, _ = migrated
    assert before["auth_user"][0] >= 4
    assert before["reviews_review"][0] > 0
    assert before["scoring_evaluationsnapshot"][0] > 0
    assert before["actuals_actualcost"][0] > 0


def test_every_migration_is_applied(migrated):
    database, _, _ = migrated
    done = manage("migrate", "--check", "--no-input", database=database)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_table_keeps_its_row_count(migrated):
    _, before, after = migrated
    counts = {MOVED_TABLES.get(table, table): count for table, (count, _) in before.items()}
    found = {table: after[table][0] if table in after else None for table in counts}
    for table in GROWING_TABLES:
        assert found[table] >= counts.pop(table), table
        found.pop(table)
    assert found == counts


def test_stored_values_survive(migrated):
    _, before, after = migrated
    changed = []
    for table, (_, rows) in before.items():
        new_table = MOVED_TABLES.get(table, table)
        # A growing registry's last row may be a new one: its first row must stay.
        pairs = list(zip(rows, after[new_table][1], strict=True))
        for old, new in pairs[:1] if table in GROWING_TABLES else pairs:
            for column, value in old.items():
                if (table, column) in CHANGED_VALUES:
                    continue
                if column not in new:
                    changed.append(f"{table}.{column}: dropped")
                elif new[column] != value:
                    changed.append(f"{table}.{column}: {value!r} -> {new[column]!r}")
    assert changed == []


# Models that moved between apps keep their tables (so their rows are compared above) and their
# content types, which change app (issue 31: a review's life in one app).
MOVED_MODELS = {
    ("checklists", "checklistanswer"): "reviews",
    ("scoring", "evaluationsnapshot"): "reviews",
    ("scoring", "snapshotjob"): "reviews",
}


def content_types(path: Path) -> dict[tuple[str, str], int]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT app_label, model, id FROM django_content_type")
        return {(app, model): pk for app, model, pk in rows}


def test_a_moved_model_keeps_its_content_type(migrated, tmp_path):
    """Same row, new app: the permissions and admin log entries that point at it still do."""
    database, _, _ = migrated
    restore(tmp_path / "before.sqlite3")
    before = content_types(tmp_path / "before.sqlite3")
    after = content_types(database)
    for (app, model), new_app in MOVED_MODELS.items():
        assert (app, model) not in after
        assert after[(new_app, model)] == before[(app, model)], model


def test_a_lost_row_would_be_seen(tmp_path):
    """The comparison bites: a row deleted after restoring shows as a count that moved."""
    database = tmp_path / "demo.sqlite3"
    restore(database)
    before = snapshot(database)
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM actuals_actualcost WHERE id = (SELECT MAX(id) FROM actuals_actualcost)")
    after = snapshot(database)
    assert after["actuals_actualcost"][0] == before["actuals_actualcost"][0] - 1
