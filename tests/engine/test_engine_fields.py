"""SPEC 7.9: one statement of the input. The field table (engine/fields_task.py,
engine/fields_world.py) drives the reader's known fields and ranges, the field tables of
docs/engine.md and the JSON Schema of the evaluate input; these tests walk the table, so a field
added to it is checked in all of them: the docs show it, the reader knows it and refuses a bad
value of it by its path, the schema has it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from engine import DEFAULT_THRESHOLDS, EngineInputError, parse_input
from engine.fields import OBJECTS, json_schema, known, markdown, refresh_doc

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    staged_input,
    task,
    three_way_input,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def _base() -> dict[str, Any]:
    """A valid input with one of every object: a site, a link, a contract offer, a benchmark
    record, a checklist, a latency budget, a team and a threshold."""
    data = make_input(
        task(latency_budget_hours={}, data_site="data", input_gb=10),
        offers=[offer("a", billing_basis="contract", contract_hours=100, expected_utilization=1)],
        benchmarks=[{"kind": "single", "offer": "a", "e2e_hours": 2, "compute_hours": 1}],
        checklists={"a": {"q1": "answered"}},
        thresholds={"headroom": 0.9},
    )
    parse_input(data)  # valid as it stands
    return data


# Where each object sits in _base(), and the path its errors name.
PLACES = {
    "top": ((), ""),
    "task": (("task",), "task."),
    "task.latency_budget_hours": (("task", "latency_budget_hours"), "task.latency_budget_hours."),
    "task.team": (("task", "team"), "task.team."),
    "sites[]": (("sites", 0), "sites[0]."),
    "links[]": (("links", 0), "links[0]."),
    "offers[]": (("offers", 0), "offers[0]."),
    "benchmarks[]": (("benchmarks", 0), "benchmarks[0]."),
    "checklists.<offer id>": (("checklists", "a"), "checklists.a."),
    "thresholds": (("thresholds",), "thresholds."),
}


def _with(obj: str, name: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(_base())
    target = data
    for step in PLACES[obj][0]:
        target = target[step]
    target[name] = value
    return data


def _errors(data: dict[str, Any]) -> list[dict[str, str]]:
    try:
        parse_input(data)
    except EngineInputError as refused:
        return refused.errors
    return []


def _rows(*kinds: str):
    return [
        pytest.param(obj, name, r, id=f"{obj}:{name}")
        for obj, rows in OBJECTS.items()
        for r in rows
        for name in r.names
        if r.kind in kinds
    ]


class DocTablesTests:
    def test_every_object_has_its_generated_table_in_the_docs(self):
        text = DOC.read_text(encoding="utf-8")
        for obj in OBJECTS:
            assert f"<!-- fields:{obj} -->\n{markdown(obj)}" in text, obj

    def test_the_docs_tables_are_what_the_field_table_says(self):
        text = DOC.read_text(encoding="utf-8")
        assert refresh_doc(text) == text

    def test_a_field_added_to_the_table_would_show_in_the_docs(self):
        # refresh_doc rewrites a stale table whole: one row taken out comes back.
        text = DOC.read_text(encoding="utf-8")
        stale = text.replace("| `restart_hours` |", "| `restart_hours_old` |")
        assert refresh_doc(stale) == text

    def test_a_field_added_after_1_0_says_its_version(self):
        for rows in OBJECTS.values():
            for r in rows:
                if r.version != "1.0":
                    assert r.meaning.startswith(r.version), r.names


class KnownFieldsTests:
    @pytest.mark.parametrize("obj", [o for o in OBJECTS if o != "top"])
    def test_the_reader_knows_every_field_of_the_table_and_no_other(self, obj):
        prefix = PLACES[obj][1]
        for name in known(obj):
            # null reads as absent for a defaulted field; a required one says so, never
            # "unknown field".
            unknown = [e for e in _errors(_with(obj, name, None)) if e["message"] == "unknown field"]
            assert unknown == [], name
        message = "unknown threshold" if obj == "thresholds" else "unknown field"
        assert _errors(_with(obj, "zz_not_a_field", 1)) == [
            {"field": f"{prefix}zz_not_a_field", "message": message}
        ]

    def test_the_thresholds_are_the_defaults_the_engine_uses(self):
        assert known("thresholds") == set(DEFAULT_THRESHOLDS)
        for r in OBJECTS["thresholds"]:
            (name,) = r.names
            assert r.default_doc == f"`{DEFAULT_THRESHOLDS[name]:g}`", name


def _past(r) -> list[Any]:
    """Values just past the row's bounds."""
    values: list[Any] = []
    if r.above is not None:
        values.append(r.above)  # the bound itself is not above it
    elif r.minimum is not None:
        values.append(r.minimum - (1 if r.kind == "integer" else r.minimum / 2 or 1))
    if r.maximum is not None:
        values.append(r.maximum * 2 if r.kind == "number" else int(r.maximum) + 1)
    return values


class BadValueTests:
    """Bad input for every field: refused, and named by its path (exit 2 / HTTP 422)."""

    @pytest.mark.parametrize(("obj", "name", "r"), _rows("number", "integer"))
    def test_a_number_past_its_range_or_of_another_type_is_named(self, obj, name, r):
        field = PLACES[obj][1] + name
        if name == "preemptions_per_day":
            base = _with(obj, "preemptible", True)  # only a preemptible offer states one
        else:
            base = _base()
        for value in (*_past(r), "x", True):
            data = copy.deepcopy(base)
            target = data
            for step in PLACES[obj][0]:
                target = target[step]
            target[name] = value
            assert field in {e["field"] for e in _errors(data)}, (field, value)

    @pytest.mark.parametrize(("obj", "name", "r"), _rows("choice", "choices", "boolean"))
    def test_a_value_outside_the_choices_is_named(self, obj, name, r):
        field = PLACES[obj][1] + name
        value = {"choice": "not-a-choice", "choices": ["not-a-choice"], "boolean": "yes"}[r.kind]
        named = {e["field"] for e in _errors(_with(obj, name, value))}
        assert field in named or f"{field}[0]" in named, (field, named)


class JsonSchemaTests:
    def test_it_has_every_field_of_the_table(self):
        schema = json_schema()

        def properties(obj: str) -> dict[str, Any]:
            node = schema
            for step in {"task": ["task"], "task.team": ["task", "team"]}.get(obj, []):
                node = node["properties"][step]
                node = node.get("anyOf", [node])[0]
            return node["properties"]

        assert set(properties("top")) == known("top")
        assert set(properties("task")) == known("task")
        assert set(properties("task.team")) == known("task.team")

    def test_valid_inputs_pass_and_an_unknown_field_does_not(self):
        validator = jsonschema_rs.validator_for(json_schema())
        for data in (_base(), three_way_input(), staged_input()):
            assert validator.is_valid(data)
        data = _base()
        data["offers"][0]["prize"] = 2.0
        assert not validator.is_valid(data)

    def test_a_value_the_reader_refuses_for_its_range_the_schema_refuses_too(self):
        validator = jsonschema_rs.validator_for(json_schema())
        for obj, name, value in (
            ("offers[]", "relative_speed", 0.005),
            ("task", "compress_ratio", 0),
            ("task", "attention", "sdpa"),
            ("thresholds", "headroom", 1.5),
        ):
            data = _with(obj, name, value)
            assert _errors(data) and not validator.is_valid(data), (obj, name)


def _probes(r) -> list[float]:
    """Values at and around every bound the reader has for a number: the row's minimum, its
    exclusive bound, its maximum, MIN_POSITIVE (SPEC 7.8) and MAX_MAGNITUDE."""
    values = [0.0, 1e-13, 1e-12, 2e-12, 1e12, 1.5e12]
    for bound in (r.minimum, r.above, r.maximum):
        if bound is not None:
            values += [bound - 1e-3, bound, bound + 1e-3]
    if r.kind == "integer":
        values = sorted({float(round(v)) for v in values})
    return values


CROSS = ("must be ≤ data_compute_high", "must divide", "must be ≤ heads", "must be ≤ e2e_hours")
SHAPE = {"batch_size": 1, "seq_len": 8, "hidden_size": 64, "layers": 2, "heads": 1, "kv_heads": 1}


class SchemaBoundsTests:
    """SPEC 7.9: the schema's bounds are the reader's, both read off the same row; on the values
    at and around every bound, the reader refuses a value by its path exactly when the schema
    refuses it there (0 < x < 1e-12 for a figure above 0 included: SPEC 7.8)."""

    @pytest.mark.parametrize(("obj", "name", "r"), _rows("number", "integer"))
    def test_the_schema_refuses_exactly_what_the_reader_refuses(self, obj, name, r):
        validator = jsonschema_rs.validator_for(json_schema())
        field = PLACES[obj][1] + name
        base = _with(obj, "preemptible", True) if name == "preemptions_per_day" else _base()
        if name in SHAPE:
            base["task"].update(SHAPE)  # the shape's fields come together
        for value in _probes(r):
            data = copy.deepcopy(base)
            target = data
            for step in PLACES[obj][0]:
                target = target[step]
            target[name] = value
            if obj == "benchmarks[]" and name == "e2e_hours":
                target["compute_hours"] = 0  # compute ≤ e2e is another rule
            errors = _errors(data)
            if any(e["message"].startswith(CROSS) for e in errors):
                continue  # a rule between two fields, not a bound of one
            assert {e["field"] for e in errors} <= {field}, (field, value, errors)
            reader_refuses = bool(errors)
            schema_refuses = not validator.is_valid(data)
            assert reader_refuses == schema_refuses, (field, value, reader_refuses)

    def test_a_figure_above_0_is_at_least_1e_12_in_both(self):
        schema = json_schema()
        links = schema["properties"]["links"]["anyOf"][0]  # a list, or null
        bandwidth = links["items"]["properties"]["bandwidth_gbps"]
        assert (bandwidth["minimum"], "exclusiveMinimum" in bandwidth) == (1e-12, False)
        assert _errors(_with("links[]", "bandwidth_gbps", 5e-13)) == [
            {"field": "links[0].bandwidth_gbps", "message": "is unreasonably small (limit 1e-12)"}
        ]
