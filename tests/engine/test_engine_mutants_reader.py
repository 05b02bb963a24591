"""The Reader's exclusive bound (SPEC 7.9: "above" is a strict lower bound): a value equal to
the bound is refused on every path, the fast one for a plain number included."""

from __future__ import annotations

import pytest

from engine.reader import Reader


@pytest.mark.parametrize("value", [0.5, 2.0, 2])
def test_a_value_equal_to_its_exclusive_bound_is_refused(value):
    # above = value, no maximum (the fast path's case): value > value is false, so the number is
    # refused with "must be > …", as a float and as an int.
    reader = Reader()
    assert reader.number({"x": value}, "x", "p", above=float(value)) is None
    assert [e["field"] for e in reader.errors] == ["p.x"]
    assert "must be >" in reader.errors[0]["message"]


@pytest.mark.parametrize(("value", "above"), [(0.5000001, 0.5), (3, 2.0), (2.0, 1.999)])
def test_a_value_just_past_its_exclusive_bound_is_read_as_a_float(value, above):
    reader = Reader()
    read = reader.number({"x": value}, "x", "p", above=above)
    assert reader.errors == []
    assert read == value and type(read) is float
