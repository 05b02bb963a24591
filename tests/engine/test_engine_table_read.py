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
from engine.plain_records import _plain_step, plain_builder, plain_plan, plain_values
from engine.plain_values import NotPlain
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


class ReaderPlanTests:
    """reader_plan's steps, written out by hand from the rows (the plans the reader uses are
    built when the engine is imported; these build them again under the test)."""

    def test_a_budget_is_three_nullable_numbers_at_least_0(self):
        step = {"default": None, "nullable": True, "minimum": 0.0, "maximum": None}
        assert reader_plan("task.latency_budget_hours") == (
            ("transfer", "number", step),
            ("queue", "number", step),
            ("compute", "number", step),
        )

    def test_a_team_reads_its_tiers_flags_and_pain_from_their_rows(self):
        plan = dict((name, (method, kw)) for name, method, kw in reader_plan("task.team"))
        assert plan["validated_tiers"] == (
            "choices",
            {
                "allowed": ("same_site", "same_datacenter", "same_city", "cross_hub"),
                "default": ("same_site",),
            },
        )
        assert plan["has_machines"] == ("boolean", {"default": False})
        assert plan["pain"] == (
            "choice",
            {"allowed": ("none", "slow", "queueing"), "default": "none", "nullable": False},
        )
        assert list(plan)[0] == "validated_tiers"  # the table's order: errors are named so

    def test_first_and_last_cut_the_tables_order_and_skip_leaves_out(self):
        names = [name for name, _, _ in reader_plan("offers[]", first="kind", last="price")]
        assert names == ["kind", "gpu_mem_gb", "gpus_per_machine", "max_machines", "price"]
        names = [name for name, _, _ in reader_plan("offers[]", first="migration_effort_hours")]
        # 3.1 (SPEC 7.4) appended `interconnect` to the offer's table.
        assert names == ["migration_effort_hours", "gpu_model", "interconnect"]
        names = [name for name, _, _ in reader_plan("sites[]", skip=frozenset({"code", "hub"}))]
        assert names == ["name", "storage_tb", "datacenter", "city", "queue_hours"]
        gpu = reader_plan("offers[]", first="gpus_per_machine", last="gpus_per_machine")
        assert gpu == (
            (
                "gpus_per_machine",
                "number",
                {
                    "default": MISSING,
                    "nullable": False,
                    "minimum": 1,
                    "maximum": None,
                    "integer": True,
                },
            ),
        )

    def test_an_object_field_is_read_by_its_nested_reader(self):
        def budget(r, data, name, path):
            return (name, path, data.get(name))

        plan = reader_plan(
            "task", first="latency_budget_hours", last="latency_budget_hours",
            nested={"latency_budget_hours": budget},
        )
        assert plan == (("latency_budget_hours", budget, {}),)
        assert read_fields(Reader(), {"latency_budget_hours": 7}, plan, "task") == {
            "latency_budget_hours": ("latency_budget_hours", "task", 7)
        }
        with pytest.raises(ValueError):
            reader_plan("task", first="team", last="team")  # an object needs its reader

    def test_a_texts_required_flag_is_its_rows(self):
        assert reader_plan("sites[]", last="name") == (
            ("code", "text", {"required": True}),
            ("name", "text", {"required": False}),
        )


class DefaultOfTests:
    """default_of on rows written for the test: each form the default column takes."""

    def test_required_and_a_required_key(self):
        assert default_of(_row(kind="number", default_doc="required")) is MISSING
        gpus = next(r for r in OBJECTS["task"] if r.names == ("gpus",))
        assert gpus.default_doc.startswith("**required key**")
        assert default_of(gpus) is MISSING  # nullable, yet its key is required

    def test_literals_of_each_kind(self):
        assert default_of(_row(kind="number", default_doc="`null`")) is None
        assert default_of(_row(kind="boolean", default_doc="`true`")) is True
        assert default_of(_row(kind="boolean", default_doc="`false`")) is False
        two = default_of(_row(kind="integer", default_doc="`2`"))
        assert (two, type(two)) == (2, int)
        half = default_of(_row(kind="number", default_doc="`0.5`"))
        assert (half, type(half)) == (0.5, float)
        assert default_of(_row(kind="choices", default_doc='`["a"]`')) == ("a",)
        assert default_of(_row(kind="choice", default_doc="`b`", choices=("a", "b"))) == "b"

    def test_what_is_not_one_literal_is_the_contexts(self):
        # Two literals, or one with text around it: the context's (None when nullable).
        twice = _row(kind="choice", default_doc="`a` or `b`", choices=("a` or `b",))
        assert default_of(twice) is CONTEXT
        around = _row(kind="choice", default_doc="`a` x", choices=("a` ",))
        assert default_of(around) is CONTEXT
        # Another field's name, for a kind that is not a choice, whatever its choices.
        assert default_of(_row(kind="string", default_doc="`x`", choices=("x",))) is CONTEXT
        assert default_of(_row(kind="number", default_doc="`heads`", nullable=True)) is None

    def test_read_field_of_a_contextual_default_is_required_unless_told(self):
        r = Reader()
        assert read_field(r, {}, "benchmarks[]", "e2e_hours", "b") is None
        assert r.errors == [{"field": "b.e2e_hours", "message": "is required"}]
        assert read_field(r, {}, "benchmarks[]", "e2e_hours", "b", default=0.0) == 0.0

    def test_a_field_of_another_kind_is_refused_by_name(self):
        with pytest.raises(ValueError, match="home_site: a site field .* is read by hand"):
            read_field(Reader(), {}, "task", "home_site", "task")


class PlainStepTests:
    """_plain_step picks each row's converter from its bounds, at the bounds themselves."""

    def test_a_number_at_its_bounds(self):
        from engine.plain_values import _above_zero, _within

        assert _above_zero(1e-12, MISSING) == 1e-12  # SPEC 7.8: at least 1e-12 is above 0
        assert _within(100, None, 0.01, 100.0) == 100.0  # a speed of 100 is in range
        speed = next(r for r in OBJECTS["offers[]"] if r.names == ("relative_speed",))
        _, convert, args = _plain_step(speed, "relative_speed", 1.0)
        assert (convert, args) == (_within, (1.0, 0.01, 100.0))
        runs = next(r for r in OBJECTS["task"] if r.names == ("runs_per_quarter",))
        _, convert, args = _plain_step(runs, "runs_per_quarter", 1.0)
        assert convert(0, *args) == 0.0 and args == (1.0,)
        with pytest.raises(NotPlain):
            convert(-1, *args)
        # A share (≥ 0, at most 1): a range, not just a number ≥ 0.
        share = _row(kind="number", default_doc="`0.5`", minimum=0.0, maximum=1.0)
        _, convert, args = _plain_step(share, "x", 0.5)
        assert (convert, args) == (_within, (0.5, 0.0, 1.0))

    def test_rows_it_cannot_read_are_refused_by_name(self):
        cases = [
            (_row(kind="site", default_doc="required"), "a site field"),
            (_row(kind="number", default_doc="`1`", above=1.0), "only 0 as an exclusive bound"),
            (_row(kind="integer", default_doc="`1`", minimum=1, maximum=9), "bounded below only"),
            (_row(kind="integer", default_doc="`1`", above=0.0), "bounded below only"),
            (_row(kind="boolean", default_doc="`true`"), "flags that default to false"),
            (_row(kind="string", default_doc="required"), "a required string"),
        ]
        for row, message in cases:
            with pytest.raises(ValueError, match=f"x: .*{message}"):
                _plain_step(row, "x", default_of(row))
