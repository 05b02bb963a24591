"""The output's figures (SPEC 4): money and hours to 6 decimals and never -0.0, break-even values
to 12 significant digits, finding data made JSON-safe, legs shown once per site and copied, and
evaluate_input's default (sensitivity included).
"""

from __future__ import annotations

import math

from engine import evaluate, evaluate_input, parse_input
from engine.output import _significant, clean, num

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    offer,
    option_of,
    three_way_input,
)


def positive_zero(value: float) -> bool:
    return value == 0.0 and math.copysign(1.0, value) == 1.0


class TestNum:
    def test_negative_zero_becomes_zero(self):
        assert positive_zero(num(-0.0))
        # -5e-7 rounds to -0.0 at 6 decimals (a half, so the exact path is not taken): 0.0
        assert positive_zero(num(-5e-7))

    def test_rounding_and_blanks(self):
        assert num(None) is None
        assert num(math.nan) is None
        assert num(math.inf) is None
        assert num(256.0) == 256.0
        assert num(1.23456789) == 1.234568
        assert num(-1.23456749) == -1.234567
        assert num(2e12 + 0.25) == 2e12 + 0.25  # past the fast path's range: round() itself

    def test_a_value_just_off_a_half_rounds_the_way_its_binary_value_lies(self):
        # The double nearest 18.0222235 is 18.02222349999999906…: below the half, so 18.022223
        # (× 1e6 it computes to 18022223.5 exactly, which must not be rounded as a half).
        assert num(18.0222235) == 18.022223
        # The double nearest 161.7325705 is 161.73257050000000845…: above the half.
        assert num(161.7325705) == 161.732571
        assert num(-161.7325705) == -161.732571

    def test_significant_digits(self):
        assert _significant(2.6e-05) == 2.6e-05
        assert _significant(1 / 3) == 0.333333333333
        assert positive_zero(_significant(-0.0))
        assert _significant(None) is None
        assert _significant(math.inf) is None


class TestClean:
    def test_floats_rounded_tuples_as_lists_nested(self):
        data = {"a": (1.23456789, -0.0), "b": [{"c": 2.0000001}], "d": "x", "e": 3, "f": None}
        cleaned = clean(data)
        assert cleaned == {"a": [1.234568, 0.0], "b": [{"c": 2.0}], "d": "x", "e": 3, "f": None}
        assert type(cleaned["a"]) is list
        assert positive_zero(cleaned["a"][1])
        assert clean(("x", 1.0000004)) == ["x", 1.0]


class TestLegsPerSite:
    def test_two_offers_at_one_site_show_the_same_legs_as_separate_copies(self):
        data = three_way_input()
        data["offers"].append(offer("D2", "far", price=3.0))
        out = evaluate(data)
        d, d2 = option_of(out, "D"), option_of(out, "D2")
        assert d["legs"] == d2["legs"]
        assert [leg["what"] for leg in d2["legs"]] == ["input", "image", "results"]
        d2["legs"][0]["gb"] = -1.0
        assert d["legs"][0]["gb"] == 500.0  # the input's 500 GB: a copy, not the same dict


class TestEvaluateInputDefault:
    def test_sensitivity_is_worked_out_unless_left_out(self):
        inp = parse_input(three_way_input())
        default = evaluate_input(inp)
        assert default.sensitivity  # the three-way choice has break-even values
        assert default.sensitivity == evaluate_input(inp, with_sensitivity=True).sensitivity
        assert evaluate_input(inp, with_sensitivity=False).sensitivity == []
