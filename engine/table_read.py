"""SPEC 7.9: the field table drives the reader. Every field of a simple kind (number, integer,
boolean, string, choice, choices) is read from its row: its name, kind, default, nullability,
bounds (minimum, above, maximum) and choices. Only what needs more than its own row is read by
hand (sites and offer references, the model shape together, a contract's hours, preemption, the
lists and the checklists: validation.py and world.py).

Two readings come from one row:

* `read_fields`: the Reader's, which names every problem by its path;
* `plain_plan` / `plain_values` (plain_records.py): the fast path's, which takes a record only
  when every field is a plain value in range and else hands it to the Reader.

A row's default is the one its `default_doc` states (the docs' column): `required`, `` `null` ``,
a literal (`` `1` ``, `` `false` ``, `` `bf16` ``, `` `[]` ``) or, for a default that depends on
another field (`` `home_site` ``, "required for `contract`"), CONTEXT: such a field is read by
hand and never by the rows.
"""

from __future__ import annotations

import json
from typing import Any

from .field import F
from .fields import OBJECTS
from .reader import MISSING, Reader

CONTEXT: Any = object()  # a default that depends on another field: read by hand
SIMPLE = frozenset({"number", "integer", "boolean", "string", "choice", "choices"})


def default_of(row: F) -> Any:
    """The value the row's default column states; MISSING when required, CONTEXT when it depends
    on another field. A nullable field whose default depends on another reads null as absent
    (None): what stands for it then is the context's (a link's buffer is its tier's threshold,
    `kv_heads` is `heads`, a blank data site is the home site)."""
    doc = row.default_doc
    if doc == "required" or doc.startswith("**required key**"):
        return MISSING
    contextual = None if row.nullable else CONTEXT
    if not (doc.startswith("`") and doc.endswith("`") and doc.count("`") == 2):
        return contextual
    literal = doc[1:-1]
    if literal == "null":
        return None
    try:
        if row.kind == "boolean":
            return {"false": False, "true": True}[literal]
        if row.kind == "number":
            return float(literal)
        if row.kind == "integer":
            return int(literal)
        if row.kind == "choices":
            return tuple(json.loads(literal))
    except (KeyError, ValueError):
        return contextual  # another field's name
    if row.kind == "choice" and literal in row.choices:
        return literal
    return contextual


def number_bounds(row: F) -> dict[str, Any]:
    """The Reader.number keywords of a number or integer row: above, or minimum, and maximum."""
    if row.above is not None:
        return {"above": row.above, "maximum": row.maximum}
    return {"minimum": row.minimum, "maximum": row.maximum}


# ---------------------------------------------------------------------------------------------
# The Reader's reading: one step per field, in the table's order (the order errors are named).


def _reader_step(row: F, name: str, by_context: bool = False) -> tuple[str, str, dict[str, Any]]:
    default = default_of(row)
    if by_context and default is CONTEXT:
        default = MISSING  # the caller says what it is (read_field's `default`)
    if row.kind not in SIMPLE or default is CONTEXT:
        raise ValueError(
            f"{name}: a {row.kind} field with a default of its context is read by hand"
        )
    if row.kind in ("number", "integer"):
        keywords = {"default": default, "nullable": row.nullable, **number_bounds(row)}
        if row.kind == "integer":
            keywords["integer"] = True
        return name, "number", keywords
    if row.kind == "boolean":
        return name, "boolean", {"default": default}
    if row.kind == "string":
        return name, "text", {"required": default is MISSING}
    if row.kind == "choice":
        return (
            name,
            "choice",
            {"allowed": row.choices, "default": default, "nullable": row.nullable},
        )
    return name, "choices", {"allowed": row.choices, "default": default}


def reader_plan(
    obj: str,
    skip: frozenset[str] = frozenset(),
    nested: dict[str, Any] | None = None,
    first: str | None = None,
    last: str | None = None,
) -> tuple[Any, ...]:
    """The object's fields from `first` to `last` (both included; all by default) but `skip`, in
    the table's order (the order errors are named): a field of a simple kind with the Reader
    method and keywords its row gives, any other with its reader from `nested` (called as
    reader(r, data, name, path))."""
    nested = nested or {}
    names = [name for row in OBJECTS[obj] for name in row.names]
    names = names[names.index(first) if first else 0 : names.index(last) + 1 if last else None]
    rows = {name: row for row in OBJECTS[obj] for name in row.names}
    return tuple(
        (name, nested[name], {}) if name in nested else _reader_step(rows[name], name)
        for name in names
        if name not in skip
    )


def read_fields(
    r: Reader, data: dict[str, Any], plan: tuple[Any, ...], path: str
) -> dict[str, Any]:
    """Each field of `plan` (reader_plan) read from `data` as its row says, errors named by
    `path`; absent or null fields take their row's default."""
    return {
        name: getattr(r, method)(data, name, path, **kw)
        if type(method) is str
        else method(r, data, name, path)
        for name, method, kw in plan
    }


def read_field(
    r: Reader, data: dict[str, Any], obj: str, name: str, path: str, **context: Any
) -> Any:
    """One field read as its row says; `context` overrides what another field decides (a
    contract's hours are required: nullable=False)."""
    row = next(row for row in OBJECTS[obj] if name in row.names)
    _, method, kw = _reader_step(row, name, by_context=True)
    return getattr(r, method)(data, name, path, **(kw | context))
