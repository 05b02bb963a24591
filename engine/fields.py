"""SPEC 7.9: one statement of the input. The field table (fields_task.py, fields_world.py) says
every field once; from it come the known fields of each object (the reader refuses any other by
its path), the reading of every field of a simple kind (its name, default, nullability, bounds
and choices: engine/table_read.py for the Reader, plain_records.plain_plan for the fast path),
the field tables of docs/engine.md (`refresh_doc`) and the JSON Schema of the evaluate input that
the API publishes with its OpenAPI document (`json_schema`). A field added to the table appears
in all four."""

from __future__ import annotations

import re
from typing import Any

from .field import F
from .fields_task import BUDGET, TASK, TEAM
from .fields_world import ANSWERS, BENCHMARK, LINK, OFFER, SITE, THRESHOLD, TOP
from .reader import MAX_MAGNITUDE, MIN_POSITIVE
from .schema import MAX_ITEMS

# Each object of the input and its rows, in the order docs/engine.md lists them.
OBJECTS: dict[str, tuple[F, ...]] = {
    "top": TOP,
    "task": TASK,
    "task.latency_budget_hours": BUDGET,
    "task.team": TEAM,
    "sites[]": SITE,
    "links[]": LINK,
    "offers[]": OFFER,
    "benchmarks[]": BENCHMARK,
    "checklists.<offer id>": ANSWERS,
    "thresholds": THRESHOLD,
}
# Where a row's field is an object or a list of objects: the object its items follow.
NESTED = {
    ("top", "task"): "task",
    ("top", "sites"): "sites[]",
    ("top", "links"): "links[]",
    ("top", "offers"): "offers[]",
    ("top", "benchmarks"): "benchmarks[]",
    ("top", "checklists"): "checklists.<offer id>",
    ("top", "thresholds"): "thresholds",
    ("task", "latency_budget_hours"): "task.latency_budget_hours",
    ("task", "team"): "task.team",
}


def known(obj: str) -> frozenset[str]:
    """The fields an object may carry (SPEC 6.2: any other is refused by its path)."""
    return frozenset(name for row in OBJECTS[obj] for name in row.names)


TOP_FIELDS = known("top")
TASK_FIELDS = known("task")
BUDGET_FIELDS = known("task.latency_budget_hours")
TEAM_FIELDS = known("task.team")
SITE_FIELDS = known("sites[]")
LINK_FIELDS = known("links[]")
OFFER_FIELDS = known("offers[]")
BENCHMARK_FIELDS = known("benchmarks[]")
ANSWER_FIELDS = known("checklists.<offer id>")

# ---------------------------------------------------------------------------------------------
# docs/engine.md: a table follows each `<!-- fields:OBJECT -->` line.

_HEADER = "| field | type | default | range | meaning |\n| --- | --- | --- | --- | --- |"
_THRESHOLD_HEADER = "| field | default | range | meaning |\n| --- | --- | --- | --- |"
# A marker line and the table after it (its lines start with "|"), or no table yet.
_MARKED_TABLE = re.compile(r"^(<!-- fields:(.+?) -->\n)(?:\|.*(?:\n|\Z))*", re.MULTILINE)


def names_cell(names: tuple[str, ...]) -> str:
    """A row's names: up to three listed, a longer run as its first and last (`q1` … `q6`)."""
    if len(names) < 4:
        return ", ".join(f"`{n}`" for n in names)
    return f"`{names[0]}` … `{names[-1]}`"


def markdown(obj: str) -> str:
    """The object's field table as docs/engine.md shows it."""
    lines = [_THRESHOLD_HEADER if obj == "thresholds" else _HEADER]
    for r in OBJECTS[obj]:
        cells = [names_cell(r.names), r.default_doc, r.range_doc, r.meaning]
        if obj != "thresholds":
            cells.insert(1, r.type_doc)
        lines.append(("| " + " | ".join(cells) + " |").replace("|  |", "| |"))
    return "\n".join(lines) + "\n"


def refresh_doc(text: str) -> str:
    """`text` with the table after each marker regenerated from the field table."""
    return _MARKED_TABLE.sub(lambda match: match.group(1) + markdown(match.group(2)), text)


# ---------------------------------------------------------------------------------------------
# JSON Schema (2020-12) of the evaluate input, inlined (the input is a tree).


def _value_schema(obj: str, r: F, name: str) -> dict[str, Any]:
    kind = r.kind
    if kind in ("number", "integer"):
        schema: dict[str, Any] = {"type": kind}
        # The reader's bounds (reader.Reader.number): above 0 is at least MIN_POSITIVE (SPEC
        # 7.8), any other exclusive bound stays one; no figure beyond MAX_MAGNITUDE.
        if r.above == 0.0:
            schema["minimum"] = MIN_POSITIVE
        elif r.above is not None:
            schema["exclusiveMinimum"] = r.above
        elif r.minimum is not None:
            schema["minimum"] = r.minimum
        if r.zero_or_positive:
            schema["anyOf"] = [{"const": 0}, {"minimum": MIN_POSITIVE}]
        schema["maximum"] = MAX_MAGNITUDE if r.maximum is None else r.maximum
    elif kind == "boolean":
        schema = {"type": "boolean"}
    elif kind == "choice":
        schema = {"enum": list(r.choices)}
    elif kind == "choices":
        schema = {"type": "array", "items": {"enum": list(r.choices)}}
    elif kind in ("string", "site", "offer"):
        schema = {"type": "string"}
    elif kind == "sites":
        schema = {"type": "array", "items": {"type": "string"}}
    elif kind == "id":
        schema = {"type": ["string", "integer"]}
    elif kind == "text_id":
        schema = {}
    elif kind == "list":
        item = _object_schema(NESTED[(obj, name)])
        schema = {"type": "array", "items": item, "maxItems": MAX_ITEMS[name]}
    elif kind == "answers":
        schema = {"type": "object", "additionalProperties": _object_schema(NESTED[(obj, name)])}
    else:  # object
        schema = _object_schema(NESTED[(obj, name)])
    schema["description"] = r.meaning
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """A null reads as absent (the default) wherever a field is not required."""
    return {"anyOf": [schema, {"type": "null"}], "description": schema.pop("description")}


def _object_schema(obj: str) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for r in OBJECTS[obj]:
        for name in r.names:
            schema = _value_schema(obj, r, name)
            if r.default_doc == "required":
                required.append(name)
            else:
                schema = _nullable(schema)
            if r.default_doc.startswith("**required key**"):
                required.append(name)
            properties[name] = schema
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def json_schema() -> dict[str, Any]:
    """The evaluate input's JSON Schema: every field of the table, its type, range and meaning;
    unknown fields are not allowed. Cross-field rules (a contract's hours, the model shape
    together, known site codes) are the reader's and are named in its errors."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Engine input",
        **_object_schema("top"),
    }
