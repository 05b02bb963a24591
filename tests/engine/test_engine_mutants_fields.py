"""SPEC 7.9: the JSON Schema of the evaluate input (published with the API's OpenAPI document) and
the field tables of docs/engine.md come from the one field table. Here, field by field: a value
of the wrong JSON type, a value outside the choices, a list longer than its limit and an object
missing a required field are refused by the schema as they are by the reader; every field
carries its meaning; a row's exclusive bound other than 0 is kept exclusive; a row's names are
shown in the docs as the table says."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import jsonschema_rs
import pytest

from engine import EngineInputError, parse_input
from engine.fields import NESTED, OBJECTS, _value_schema, json_schema, names_cell, refresh_doc
from engine.reader import Reader
from engine.schema import MAX_ITEMS

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    task,
)


def _valid(data: Any) -> bool:
    """Whether the schema accepts `data`: built afresh on each call, from the code as it is then
    (a validator built once at import would keep the schema of that moment)."""
    return jsonschema_rs.validator_for(json_schema()).is_valid(data)


def _base() -> dict[str, Any]:
    """A valid input with one of every object (as test_engine_fields._base): a site, a link, a
    contract offer, a benchmark record, a checklist, a latency budget, a team, a threshold."""
    data = make_input(
        task(latency_budget_hours={}, data_site="data", input_gb=10),
        offers=[offer("a", billing_basis="contract", contract_hours=100, expected_utilization=1)],
        benchmarks=[{"kind": "single", "offer": "a", "e2e_hours": 2, "compute_hours": 1}],
        checklists={"a": {"q1": "answered"}},
        thresholds={"headroom": 0.9},
    )
    parse_input(data)  # valid as it stands
    assert _valid(data)
    return data


PLACES = {
    "top": (),
    "task": ("task",),
    "task.latency_budget_hours": ("task", "latency_budget_hours"),
    "task.team": ("task", "team"),
    "sites[]": ("sites", 0),
    "links[]": ("links", 0),
    "offers[]": ("offers", 0),
    "benchmarks[]": ("benchmarks", 0),
    "checklists.<offer id>": ("checklists", "a"),
    "thresholds": ("thresholds",),
}


def _target(data: dict[str, Any], obj: str) -> dict[str, Any]:
    for step in PLACES[obj]:
        data = data[step]
    return data


def _refused_by_reader(data: Any) -> bool:
    try:
        parse_input(data)
    except EngineInputError:
        return True
    return False


# A value of the wrong JSON type, or outside the choices, for each kind of field.
WRONG: dict[str, list[Any]] = {
    "number": ["1", True, [1]],
    "integer": [1.5, "1", True],
    "boolean": ["yes", 1],
    "choice": ["not-a-choice", 1],
    "choices": [["not-a-choice"], [1], {"x": 1}],
    "string": [5, ["x"]],
    "site": [5, ["x"]],
    "offer": [5, ["x"]],
    "sites": [[5], {"x": 1}],
    "id": [1.5, ["a"], {"a": 1}, True],
    "list": [{}, "x"],
    "answers": [[], "x", {"a": {"zz_not_a_question": "answered"}}, {"a": {"q1": "maybe"}}],
    "object": ["x", [], {"zz_not_a_field": 1}],
}


def _typed_rows():
    return [
        pytest.param(obj, name, r, id=f"{obj}:{name}")
        for obj, rows in OBJECTS.items()
        for r in rows
        for name in r.names
        if r.kind in WRONG
    ]


class WrongTypeTests:
    @pytest.mark.parametrize(("obj", "name", "r"), _typed_rows())
    def test_a_value_of_the_wrong_type_is_refused_by_schema_and_reader(self, obj, name, r):
        values = list(WRONG[r.kind])
        if r.kind == "choices":
            values.append(r.choices[0])  # one choice, not a list of them
        if r.kind == "sites":
            values.append("data")  # a site code, not a list of them
        for value in values:
            data = _base()
            _target(data, obj)[name] = value
            assert not _valid(data), (obj, name, value)
            assert _refused_by_reader(data), (obj, name, value)

    @pytest.mark.parametrize("value", [[], "x", 1, None])
    def test_the_input_itself_must_be_an_object(self, value):
        assert not _valid(value)
        assert _refused_by_reader(value)

    @pytest.mark.parametrize("name", sorted(MAX_ITEMS))
    def test_a_list_one_past_its_limit_is_refused(self, name):
        data = _base()
        item = data[name][0]
        data[name] = [copy.deepcopy(item) for _ in range(MAX_ITEMS[name])]  # at the limit: kept
        assert _valid(data), name
        data[name].append(copy.deepcopy(item))  # limit + 1 items
        assert not _valid(data), name
        assert _refused_by_reader(data), name


def _required():
    return [
        pytest.param(obj, name, id=f"{obj}:{name}")
        for obj, rows in OBJECTS.items()
        for r in rows
        for name in r.names
        if r.default_doc == "required" or r.default_doc.startswith("**required key**")
    ]


class RequiredTests:
    @pytest.mark.parametrize(("obj", "name"), _required())
    def test_an_object_without_a_required_field_is_refused(self, obj, name):
        data = _base()
        assert name in _target(data, obj)  # _base() states every required field
        del _target(data, obj)[name]
        assert not _valid(data), (obj, name)
        assert _refused_by_reader(data), (obj, name)

    def test_gpus_is_a_required_key_whose_null_is_allowed(self):
        # task.gpus: "**required key** (null allowed → P3)": null passes, absence does not.
        data = _base()
        data["task"]["gpus"] = None
        assert _valid(data)
        parse_input(data)


def _node(schema: dict[str, Any], obj: str) -> dict[str, Any]:
    """The object schema of `obj` inside the whole schema (null and list wrappers taken off)."""
    if obj == "top":
        return schema
    ((parent, name),) = [key for key, nested in NESTED.items() if nested == obj]
    node = _node(schema, parent)["properties"][name]
    if "anyOf" in node:
        assert node["anyOf"][1] == {"type": "null"}
        node = node["anyOf"][0]
    return node.get("items") or node.get("additionalProperties") or node


class MeaningTests:
    def test_every_field_carries_its_meaning_once(self):
        schema = json_schema()
        for obj, rows in OBJECTS.items():
            properties = _node(schema, obj)["properties"]
            for r in rows:
                for name in r.names:
                    prop = properties[name]
                    assert prop["description"] == r.meaning, (obj, name)
                    for inner in prop.get("anyOf", []):
                        assert "description" not in inner, (obj, name)

    def test_the_schema_names_its_dialect_and_title(self):
        schema = json_schema()
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["title"] == "Engine input"
        assert schema["type"] == "object" and schema["additionalProperties"] is False


class ExclusiveBoundTests:
    def test_an_exclusive_bound_other_than_0_stays_exclusive_in_schema_and_reader(self):
        # A row "above 0.5" (no figure in today's table has one, the reader reads any): 0.5 is
        # refused by both, 0.5 + 0.001 read by both.
        (r,) = [r for r in OBJECTS["offers[]"] if r.names == ("relative_speed",)]
        row = dataclasses.replace(r, above=0.5, minimum=None)
        validator = jsonschema_rs.validator_for(_value_schema("offers[]", row, "relative_speed"))
        for value, ok in ((0.5, False), (0.501, True), (0.4, False)):
            assert validator.is_valid(value) is ok, value
            reader = Reader()
            read = reader.number(
                {"relative_speed": value},
                "relative_speed",
                "offers[0]",
                above=0.5,
                maximum=row.maximum,
            )
            assert (reader.errors == []) is ok, value
            if ok:
                assert read == value


class DocNamesTests:
    def test_up_to_three_names_are_listed_and_four_or_more_shown_first_to_last(self):
        assert names_cell(("gpus",)) == "`gpus`"
        assert names_cell(("from", "to")) == "`from`, `to`"
        assert names_cell(("a", "b", "c")) == "`a`, `b`, `c`"
        assert names_cell(("q1", "q2", "q3", "q4")) == "`q1` … `q4`"
        assert names_cell(tuple(f"q{i}" for i in range(1, 7))) == "`q1` … `q6`"

    def test_text_without_a_marker_is_kept_as_it_is(self):
        text = "# Engine\n| not | a generated table |\n"
        assert refresh_doc(text) == text

    def test_a_marker_at_the_end_of_the_text_gets_its_table(self):
        from engine.fields import markdown

        head = "intro\n<!-- fields:task.team -->\n"
        assert refresh_doc(head) == head + markdown("task.team")
        # a last table line without its newline is replaced whole too
        assert refresh_doc(head + "| old |") == head + markdown("task.team")
