"""The typed field readers of parse_input (SPEC 6.2: every problem named, none raised), one by
one: what each accepts, converts and refuses, with the exact field and message, at, just below
and just above each bound; and the summary an EngineInputError gives.

These are the reader's own contracts; test_engine_validation.py checks them through whole inputs.
"""

from __future__ import annotations

import enum
import math
from typing import Any

import pytest

from engine import EngineInputError
from engine.reader import MAX_MAGNITUDE, MISSING, Reader, offer_id

from .engine_fixtures import _eager_celery_and_clean_cache  # noqa: F401 - no Django


class Three(enum.IntEnum):
    THREE = 3


class Half(float):
    pass


class Code(str):
    pass


def read(value: Any, **bounds: Any) -> tuple[Any, list[dict[str, str]]]:
    """Reader.number on {"x": value} at path "p": (value read, errors)."""
    r = Reader()
    return r.number({"x": value}, "x", "p", **bounds), r.errors


def refused(message: str) -> tuple[None, list[dict[str, str]]]:
    return None, [{"field": "p.x", "message": message}]


class TestNumber:
    def test_absent_or_null(self):
        assert read(None) == refused("is required")
        r = Reader()
        assert r.number({}, "x", "p") is None
        assert r.errors == [{"field": "p.x", "message": "is required"}]
        assert read(None, nullable=True) == (None, [])
        assert read(None, nullable=True, default=4.0) == (4.0, [])
        assert read(None, default=2.0) == (2.0, [])

    def test_plain_numbers_read_as_floats_or_ints(self):
        assert read(2.5) == (2.5, [])
        value, errors = read(3)
        assert (value, type(value), errors) == (3.0, float, [])
        value, errors = read(3, integer=True)
        assert (value, type(value), errors) == (3, int, [])
        value, errors = read(2.0, integer=True)  # a whole float is an integer
        assert (value, type(value), errors) == (2, int, [])

    def test_subclasses_read_as_plain_numbers(self):
        value, errors = read(Three.THREE)
        assert (value, type(value), errors) == (3.0, float, [])
        value, errors = read(Three.THREE, integer=True)
        assert (value, type(value), errors) == (3, int, [])
        value, errors = read(Half(0.5))
        assert (value, type(value), errors) == (0.5, float, [])
        value, errors = read(Half(-0.5), minimum=None)
        assert (value, type(value), errors) == (-0.5, float, [])

    def test_wrong_types(self):
        assert read("3") == refused("must be a number")
        assert read("3", integer=True) == refused("must be an integer")
        assert read(True) == refused("must be a number, not a boolean")
        assert read(False, integer=True) == refused("must be an integer, not a boolean")
        assert read(2.5, integer=True) == refused("must be an integer")
        assert read([1]) == refused("must be a number")

    def test_non_finite(self):
        assert read(math.nan) == refused("must be a finite number")
        assert read(math.inf) == refused("must be a finite number")
        assert read(-math.inf, minimum=None) == refused("must be a finite number")
        assert read(math.inf, integer=True) == refused("must be a finite number")
        assert read(math.nan, integer=True) == refused("must be a finite number")
        assert read(math.inf, above=0.0) == refused("must be a finite number")

    def test_the_magnitude_limit_is_inclusive(self):
        assert read(MAX_MAGNITUDE) == (1e12, [])
        assert read(MAX_MAGNITUDE, minimum=None) == (1e12, [])
        assert read(-MAX_MAGNITUDE, minimum=None) == (-1e12, [])
        assert read(10**12, integer=True) == (10**12, [])
        assert read(1.000001e12) == refused("is unreasonably large (limit 1e12)")
        assert read(-1.000001e12, minimum=None) == refused("is unreasonably large (limit 1e12)")
        assert read(10**12 + 1, integer=True) == refused("is unreasonably large (limit 1e12)")

    def test_minimum(self):
        assert read(0.0) == (0.0, [])  # the default minimum 0 is inclusive
        assert read(-0.5) == refused("must be ≥ 0")
        assert read(1, minimum=1, integer=True) == (1, [])
        assert read(1.0, minimum=1, integer=True) == (1, [])  # a whole float at the minimum
        assert read(0, minimum=1, integer=True) == refused("must be ≥ 1")
        assert read(0.0, minimum=1, integer=True) == refused("must be ≥ 1")
        assert read(-5.0, minimum=None) == (-5.0, [])  # no minimum at all
        assert read(-5, minimum=None) == (-5.0, [])

    def test_a_minimum_other_than_zero_holds_for_floats_too(self):
        assert read(0.5, minimum=1) == refused("must be ≥ 1")
        assert read(1.5, minimum=1) == (1.5, [])

    def test_above_with_integers_and_booleans(self):
        assert read(2.5, above=0.0, integer=True) == refused("must be an integer")
        value, errors = read(2, above=0.0, integer=True)
        assert (value, type(value), errors) == (2, int, [])
        assert read(True, above=0.0) == refused("must be a number, not a boolean")
        assert read("2", above=0.0) == refused("must be a number")

    def test_maximum(self):
        assert read(1.0, maximum=1.0) == (1.0, [])  # inclusive
        assert read(1, maximum=1.0) == (1.0, [])
        assert read(1.5, maximum=1.0) == refused("must be ≤ 1")
        assert read(2, minimum=None, maximum=1.0) == refused("must be ≤ 1")
        assert read(0.5, minimum=None, maximum=0.0) == refused("must be ≤ 0")
        # exactly the magnitude limit, over the maximum: the maximum is what is wrong
        assert read(MAX_MAGNITUDE, maximum=5.0) == refused("must be ≤ 5")

    def test_above(self):
        assert read(0.5, above=0.0) == (0.5, [])
        assert read(1, above=0.0) == (1.0, [])
        assert read(0.0, above=0.0) == refused("must be > 0")  # exclusive
        assert read(-1, above=0.0) == refused("must be > 0")
        assert read(0.25, above=0.5) == refused("must be > 0.5")
        assert read(1.0, above=0.0, maximum=1.0) == (1.0, [])
        assert read(1.5, above=0.0, maximum=1.0) == refused("must be ≤ 1")
        assert read(2, above=0.0, maximum=1.0, integer=True) == refused("must be ≤ 1")
        assert read(0, above=0.0, maximum=1.0, integer=True) == refused("must be > 0")

    def test_out_of_range_reports_the_bound_that_applies(self):
        # With `above`, `minimum` is not the bound: over the maximum says so even below minimum.
        assert read(-2.0, above=-5.0, maximum=-3.0) == refused("must be ≤ -3")
        # A value at the minimum but over the maximum is reported against the maximum.
        assert read(3.0, minimum=3.0, maximum=2.0) == refused("must be ≤ 2")


class TestAmountOptionalCount:
    def test_amount(self):
        r = Reader()
        assert r.amount({"x": 2.5}, "x", "p") == 2.5
        assert r.amount({"x": 2}, "x", "p") == 2.0
        assert r.amount({}, "x", "p", 7.0) == 7.0
        assert r.amount({"x": None}, "x", "p", 7.0) == 7.0
        assert r.amount({"x": -1}, "x", "p") is None
        assert r.amount({}, "x", "p") is None
        # a default stands in for an absent value, never for a wrong one
        assert r.amount({"x": "7"}, "x", "p", 7.0) is None
        assert r.amount({"x": True}, "x", "p", 7.0) is None
        assert r.errors == [
            {"field": "p.x", "message": "must be ≥ 0"},
            {"field": "p.x", "message": "is required"},
            {"field": "p.x", "message": "must be a number"},
            {"field": "p.x", "message": "must be a number, not a boolean"},
        ]

    def test_optional(self):
        r = Reader()
        assert r.optional({}, "x", "p") is None
        assert r.optional({"x": 0.5}, "x", "p") == 0.5
        assert r.optional({"x": 3}, "x", "p") == 3.0
        assert r.optional({"x": -0.5}, "x", "p") is None
        assert r.errors == [{"field": "p.x", "message": "must be ≥ 0"}]

    def test_count(self):
        r = Reader()
        assert r.count({"x": 2}, "x", "p", 1, 1) == 2
        assert r.count({}, "x", "p", 1, 1) == 1
        assert r.count({"x": 1}, "x", "p", 5, 1) == 1  # at the minimum
        assert r.count({"x": 0}, "x", "p", 1, 1) is None
        assert r.count({"x": 1.5}, "x", "p", 1, 1) is None
        assert r.count({}, "x", "p", MISSING, 1) is None
        assert r.errors == [
            {"field": "p.x", "message": "must be ≥ 1"},
            {"field": "p.x", "message": "must be an integer"},
            {"field": "p.x", "message": "is required"},
        ]


class TestBooleanChoiceText:
    def test_boolean(self):
        r = Reader()
        assert r.boolean({}, "x", "p") is False
        assert r.boolean({}, "x", "p", True) is True
        assert r.boolean({"x": False}, "x", "p", True) is False
        assert r.boolean({"x": 1}, "x", "p", True) is True  # refused: the default stands
        assert r.errors == [{"field": "p.x", "message": "must be true or false"}]

    def test_choice(self):
        allowed = ("a", "b")
        r = Reader()
        assert r.choice({"x": "b"}, "x", "p", allowed) == "b"
        assert r.choice({}, "x", "p", allowed, default="a") == "a"
        assert r.choice({"x": None}, "x", "p", allowed, nullable=True) is None
        assert r.choice({}, "x", "p", allowed) is None
        assert r.choice({"x": "c"}, "x", "p", allowed) is None
        assert r.choice({"x": "c"}, "x", "p", allowed, default="a") == "a"
        assert r.choice({"x": 1}, "x", "p", allowed) is None
        picked = r.choice({"x": Code("a")}, "x", "p", allowed)
        assert (picked, type(picked)) == ("a", str)  # the plain constant
        assert r.errors == [
            {"field": "p.x", "message": "is required"},
            {"field": "p.x", "message": "must be one of a, b"},
            {"field": "p.x", "message": "must be one of a, b"},
            {"field": "p.x", "message": "must be one of a, b"},
        ]

    def test_text(self):
        r = Reader()
        assert r.text({"x": "hi"}, "x", "p") == "hi"
        assert r.text({"x": " "}, "x", "p") == " "  # blank is fine when not required
        assert r.text({}, "x", "p") is None
        assert r.text({}, "x", "p", required=True) is None
        assert r.text({"x": " "}, "x", "p", required=True) is None
        assert r.text({"x": 5}, "x", "p") is None
        value = r.text({"x": Code("c")}, "x", "p", required=True)
        assert (value, type(value)) == ("c", str)
        assert r.text({"x": Code(" ")}, "x", "p") == " "
        assert r.errors == [
            {"field": "p.x", "message": "is required"},
            {"field": "p.x", "message": "must not be blank"},
            {"field": "p.x", "message": "must be a string"},
        ]

    def test_choices(self):
        allowed = ("a", "b", "c")
        r = Reader()
        assert r.choices({}, "x", "p", allowed, ("a",)) == ("a",)
        assert r.choices({"x": ["c", "a", "c"]}, "x", "p", allowed) == ("a", "c")
        assert r.choices({"x": ("b",)}, "x", "p", allowed) == ("b",)
        assert r.choices({"x": "a"}, "x", "p", allowed, ("b",)) == ("b",)
        assert r.choices({"x": ["a", "z", 3]}, "x", "p", allowed) == ("a",)
        assert r.errors == [
            {"field": "p.x", "message": "must be a list of a, b, c"},
            {"field": "p.x[1]", "message": "must be one of a, b, c"},
            {"field": "p.x[2]", "message": "must be one of a, b, c"},
        ]

    def test_obj(self):
        r = Reader()
        known = frozenset({"a"})
        assert r.obj({"a": 1}, "p", known) == {"a": 1}
        assert r.obj({"a": 1, "b": 2, "c": 3}, "p", known) == {"a": 1, "b": 2, "c": 3}
        assert r.obj({"b": 1}, "", known) == {"b": 1}
        assert r.obj({"z": 1}, "p") == {"z": 1}  # no known keys: anything goes
        assert r.obj([1], "p") is None
        assert r.errors == [
            {"field": "p.b", "message": "unknown field"},
            {"field": "p.c", "message": "unknown field"},
            {"field": "b", "message": "unknown field"},
            {"field": "p", "message": "must be an object"},
        ]


class TestOfferId:
    def _id(self, raw: Any) -> tuple[Any, list[dict[str, str]]]:
        r = Reader()
        return offer_id(raw, "f", r), r.errors

    def test_integers_and_non_blank_strings(self):
        assert self._id(7) == ("7", [])
        assert self._id(Three.THREE) == ("3", [])
        assert self._id("a") == ("a", [])
        value, _ = self._id(Code("b"))
        assert (value, type(value)) == ("b", str)

    def test_refused(self):
        required = [{"field": "f", "message": "is required"}]
        assert self._id(None) == (None, required)
        assert self._id(MISSING) == (None, required)
        bad = [{"field": "f", "message": "must be a non-blank string or an integer"}]
        assert self._id(True) == (None, bad)
        assert self._id(" ") == (None, bad)
        assert self._id(3.5) == (None, bad)


class TestEngineInputErrorSummary:
    def _errors(self, n: int) -> list[dict[str, str]]:
        return [{"field": f"f{i}", "message": "bad"} for i in range(1, n + 1)]

    def test_five_errors_are_listed_whole(self):
        assert str(EngineInputError(self._errors(5))) == (
            "5 input error(s): f1: bad; f2: bad; f3: bad; f4: bad; f5: bad"
        )

    def test_past_five_the_rest_are_counted(self):
        assert str(EngineInputError(self._errors(6))) == (
            "6 input error(s): f1: bad; f2: bad; f3: bad; f4: bad; f5: bad (+1 more)"
        )
        assert str(EngineInputError(self._errors(8))).endswith("f5: bad (+3 more)")

    def test_a_top_level_error_is_shown_as_the_input(self):
        error = EngineInputError([{"field": "", "message": "input must be a JSON object"}])
        assert str(error) == "1 input error(s): <input>: input must be a JSON object"
        assert error.errors == [{"field": "", "message": "input must be a JSON object"}]
        assert isinstance(error, ValueError)


@pytest.mark.parametrize("value", [0.0, 0, 1e-9])
def test_zero_and_tiny_amounts_are_kept(value: float):
    r = Reader()
    assert r.amount({"x": value}, "x", "p") == float(value)
    assert r.errors == []


class Tera(enum.IntEnum):
    """An int subclass (read past the fast paths) exactly at the magnitude limit."""

    UP = 10**12
    DOWN = -(10**12)


class MagnitudeLimitTests:
    def test_an_int_exactly_at_the_limit_is_read_as_a_float(self):
        # ±1e12 is in range (limits included): converted to float like any number field value;
        # only an int past the limit stays an int, to be refused without float() overflowing.
        value, errors = read(Tera.UP)
        assert (value, type(value), errors) == (1e12, float, [])
        value, errors = read(Tera.DOWN, minimum=None)
        assert (value, type(value), errors) == (-1e12, float, [])

    def test_an_int_past_float_range_is_refused_by_its_path(self):
        assert read(10**400) == refused("is unreasonably large (limit 1e12)")
