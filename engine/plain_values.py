"""The plain values of the fast paths (plain_records.py, plain_task.py): each converter takes a
value as the Reader would when it is plain and in range, and raises NotPlain otherwise, so the
record is read field by field instead (world.py, validation.py), which names every problem."""

from __future__ import annotations

from typing import Any

from .reader import MAX_MAGNITUDE, MIN_POSITIVE, MISSING


class NotPlain(Exception):
    """A field is not plain: the record is read field by field instead."""


def _subsets(allowed: tuple[str, ...]) -> dict[frozenset[str], tuple[str, ...]]:
    """Every set of choices, as Reader.choices gives it back (in canonical order)."""
    return {
        frozenset(combo): combo
        for combo in (
            tuple(a for bit, a in enumerate(allowed) if mask >> bit & 1)
            for mask in range(1 << len(allowed))
        )
    }


def _amount(value: Any, default: Any) -> Any:
    """As Reader.amount (a number ≥ 0; `default` when null, MISSING when required) or
    Reader.optional (default None)."""
    kind = type(value)
    if kind is float:
        if 0.0 <= value <= MAX_MAGNITUDE:  # false for NaN and ±infinity
            return value
    elif kind is int:
        if 0 <= value <= MAX_MAGNITUDE:
            return float(value)
    elif value is None and default is not MISSING:
        return default
    raise NotPlain


def _count(value: Any, default: Any, minimum: int) -> Any:
    """As Reader.count, or with default None as a nullable integer ≥ minimum."""
    if type(value) is int and minimum <= value <= MAX_MAGNITUDE:
        return value
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _above_zero(value: Any, default: Any, maximum: float = MAX_MAGNITUDE) -> Any:
    """As Reader.number with above=0.0 (and a maximum): a float."""
    kind = type(value)
    if (kind is float or kind is int) and MIN_POSITIVE <= value <= maximum:
        return float(value)
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _within(value: Any, default: Any, low: float, high: float) -> Any:
    """As Reader.number with a minimum and a maximum: a float."""
    kind = type(value)
    if (kind is float or kind is int) and low <= value <= high:
        return float(value)
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _text(value: Any) -> Any:
    """As Reader.text (not required): a plain str or None."""
    if value is None or type(value) is str:
        return value
    raise NotPlain


def _flag(value: Any) -> bool:
    """As Reader.boolean (default False)."""
    if value is None:
        return False
    if type(value) is bool:
        return value
    raise NotPlain


def _choice(value: Any, allowed: tuple[str, ...], default: Any = MISSING) -> Any:
    """As Reader.choice: a plain str among `allowed`, or `default` when null."""
    if type(value) is str and value in allowed:
        return value
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _choices(value: Any, sets: dict[frozenset[str], tuple[str, ...]], default: Any) -> Any:
    """As Reader.choices: a list of choices in canonical order (KeyError or TypeError when an
    item is not one of them)."""
    if value is None:
        return default
    if type(value) is list or type(value) is tuple:
        return sets[frozenset(value)]
    raise NotPlain


def _code(value: Any, known: Any) -> str:
    """A required, non-blank str that is one of `known`."""
    if type(value) is str and value in known and value.strip():
        return value
    raise NotPlain


# ---------------------------------------------------------------------------------------------
# The fast path's reading: a converter per field that raises NotPlain on anything but a plain
# value in range (the record then goes to the Reader).
