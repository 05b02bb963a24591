"""One row of the input's field table (SPEC 7.9): what a field is, for the reader, the docs and
the JSON Schema alike. The rows themselves are in fields_task.py and fields_world.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class F:
    """A row: one field, or several alike (`from`, `to`), of one object of the input.

    `kind`: number | integer | boolean | string | choice | choices (a list of them) | site (a
    known site code) | sites (a list of them) | offer (a known offer id) | id (a string or an
    integer) | text_id (any non-boolean, read as text) | object | list (of objects) | answers
    (offer id → the six answers). The three *_doc strings and `meaning` are the docs' columns;
    the bounds and choices are what the reader enforces."""

    names: tuple[str, ...]
    kind: str
    type_doc: str
    default_doc: str
    range_doc: str
    meaning: str
    version: str = "1.0"  # the engine version that added the field
    nullable: bool = False  # null allowed (and read as absent)
    minimum: float | None = None  # ≥
    above: float | None = None  # >
    maximum: float | None = None  # ≤
    choices: tuple[str, ...] = ()
    # SPEC 7.8: 0, or at least MIN_POSITIVE (1e-12): a figure some quotient divides by when it is
    # not 0 (a task's compute hours, a run's end-to-end hours). `above=0` means at least it too.
    zero_or_positive: bool = False
