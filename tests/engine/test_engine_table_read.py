"""SPEC 7.9: the field table drives the reader. Every field of a simple kind is read from its row
(engine/table_read.py for the Reader, plain_records.plain_plan for the fast path): its default,
nullability, bounds and choices. These tests hold the rows to what the engine's dataclasses and
thresholds say, and show that changing a row changes the reading (nothing restates it)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine import DEFAULT_THRESHOLDS, EngineInputError, parse_input
from engine.field import F
from engine.fields import OBJECTS
from engine.plain_records import NotPlain, _plain_step, plain_builder, plain_plan, plain_values
from engine.reader import MISSING, Reader
from engine.schema import Benchmark, LatencyBudget, Link, Offer, Site, Task, Team
from engine.table_read import (
    CONTEXT,
    _reader_step,
    default_of,
    read_field,
    read_fields,
    reader_plan,
)

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    task,
)

CLASSES = {
    "task": Task,
    "task.latency_budget_hours": LatencyBudget,
    "task.team": Team,
    "sites[]": Site,
    "links[]": Link,
    "offers[]": Offer,
    "benchmarks[]": Benchmark,
}


def _dataclass_default(cls: type, name: str) -> Any:
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return MISSING


class DefaultsTests:
    @pytest.mark.parametrize("obj", list(CLASSES))
    def test_each_rows_stated_default_is_the_dataclasss(self, obj):
        cls = CLASSES[obj]
        names = {f.name for f in dataclasses.fields(cls)}
        for r in OBJECTS[obj]:
            for name in r.names:
                stated = default_of(r)
                if name not in names or stated is CONTEXT:
                    continue
                expected = _dataclass_default(cls, name)
                if stated is MISSING:
                    # required: the dataclass has no default, or (task.gpus, a nullable
                    # required key) None
                    assert expected in (MISSING, None), (obj, name)
                elif r.kind in ("number", "integer", "boolean", "string", "choice", "choices"):
                    assert (stated, type(stated)) == (expected, type(expected)), (obj, name)

    def test_the_thresholds_defaults_are_the_rows(self):
        for r in OBJECTS["thresholds"]:
            (name,) = r.names
            assert default_of(r) == DEFAULT_THRESHOLDS[name], name

    def test_a_default_that_depends_on_another_field_is_the_contexts(self):
        # `kv_heads` defaults to `heads` (nullable: null reads as absent); a benchmark's hours
        # are required for single/multi runs, else 0: read by hand with the default given.
        kv = next(r for r in OBJECTS["task"] if r.names == ("kv_heads",))
        e2e = next(r for r in OBJECTS["benchmarks[]"] if r.names == ("e2e_hours",))
        assert default_of(kv) is None
        assert default_of(e2e) is CONTEXT
        with pytest.raises(ValueError):
            reader_plan("benchmarks[]", first="e2e_hours", last="e2e_hours")


def _row(**changes: Any) -> F:
    return F(("x",), **{"type_doc": "", "range_doc": "", "meaning": "", **changes})


class RowDrivesTheReadingTests:
    """A row's bounds, default and choices are what both readings enforce."""

    def test_the_reader_enforces_a_rows_bounds_and_default(self):
        plan = _reader_step(_row(kind="number", default_doc="`2.5`", minimum=1.0, maximum=3.0), "x")
        r = Reader()
        assert read_fields(r, {}, (plan,), "o") == {"x": 2.5}
        assert read_fields(r, {"x": 3}, (plan,), "o") == {"x": 3.0}
        read_fields(r, {"x": 0.5}, (plan,), "o")
        read_fields(r, {"x": 3.5}, (plan,), "o")
        choice = _reader_step(_row(kind="choice", default_doc="`b`", choices=("a", "b")), "x")
        assert read_fields(r, {}, (choice,), "o") == {"x": "b"}
        read_fields(r, {"x": "c"}, (choice,), "o")
        assert r.errors == [
            {"field": "o.x", "message": "must be ≥ 1"},
            {"field": "o.x", "message": "must be ≤ 3"},
            {"field": "o.x", "message": "must be one of a, b"},
        ]

    def test_the_fast_path_takes_only_what_the_row_allows(self):
        step = _plain_step(
            _row(kind="number", default_doc="`2.5`", minimum=1.0, maximum=3.0), "x", 2.5
        )
        assert plain_values({}.get, (step,), {}) == [2.5]
        assert plain_values({"x": 1}.get, (step,), {}) == [1.0]
        for value in (0.5, 3.5, "2", True):
            with pytest.raises(NotPlain):
                plain_values({"x": value}.get, (step,), {})
        above = _plain_step(_row(kind="number", default_doc="required", above=0.0), "x", MISSING)
        with pytest.raises(NotPlain):
            plain_values({}.get, (above,), {})  # required
        with pytest.raises(NotPlain):
            plain_values({"x": 1e-13}.get, (above,), {})  # above 0 means at least 1e-12

    def test_a_context_default_overrides_the_rows(self):
        # A contract offer's package hours are required although the row is nullable.
        r = Reader()
        assert read_field(r, {}, "offers[]", "contract_hours", "o") is None
        read_field(r, {}, "offers[]", "contract_hours", "o", nullable=False, default=MISSING)
        assert r.errors == [{"field": "o.contract_hours", "message": "is required"}]
        contract = plain_plan(
            "offers[]",
            Offer,
            frozenset(f.name for f in dataclasses.fields(Offer)) - {"contract_hours"},
            defaults={"contract_hours": MISSING},
        )
        hand = {f.name: None for f in dataclasses.fields(Offer)}
        with pytest.raises(NotPlain):
            plain_values({}.get, contract, hand)

    def test_every_simple_field_of_the_task_is_read_from_its_row(self):
        # Each field the task's table reads, given a value of its row's kind at its bound, is
        # read as that value (the Reader and the fast path alike: the task below is plain).
        for r in OBJECTS["task"]:
            for name in r.names:
                if r.kind not in ("number", "integer") or name in (
                    "batch_size", "seq_len", "hidden_size", "layers", "heads", "kv_heads",
                ):
                    continue
                low = r.minimum if r.above is None else 1e-12
                data = make_input(task(**{name: low}))
                assert getattr(parse_input(data).task, name) == low, name
                if r.above is not None or r.minimum:
                    below = r.above if r.above is not None else r.minimum - (r.minimum / 2)
                    with pytest.raises(EngineInputError) as refused:
                        parse_input(make_input(task(**{name: below})))
                    assert f"task.{name}" in {e["field"] for e in refused.value.errors}, name


def test_the_built_function_reads_as_the_steps_do():
    # plain_builder writes the plan's calls out once; each field read by its own row.
    plan = plain_plan("sites[]", Site, frozenset({"code", "index"}))
    build = plain_builder(Site, plan)
    record = {"code": "x", "datacenter": "dc", "queue_hours": 2, "storage_tb": 1.5}
    assert build(record.get, "x", 3) == Site(*plain_values(
        record.get, plan, {"code": "x", "index": 3}
    ))
    assert build(record.get, "x", 3) == Site(
        "x", "dc", None, None, 2.0, 1.5, None, 3
    )
    with pytest.raises(NotPlain):
        build({"queue_hours": -1}.get, "x", 0)
