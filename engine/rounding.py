"""Figures as the output shows them: money and hours to 6 decimals, never NaN, infinity or -0.0
(SPEC 4 and 7.8), and JSON-safe finding data."""

from __future__ import annotations

from typing import Any

ROUNDER = 6755399441055744.0  # 1.5 × 2**52


def num(value: float | None) -> float | None:
    """Money and hours: 6 decimals, never NaN or infinity, never -0.0."""
    if value is None:
        return None
    # x - x is 0.0 for every finite float and NaN for NaN and ±infinity; + 0.0 turns -0.0
    # into 0.0.
    if value - value == 0:
        if type(value) is float and value.is_integer():
            return value + 0.0  # already round (costs like 256.0): round() is the dear part
        # round(value, 6) without its decimal string, where that gives the same float: y is
        # within 2**-13 of value × 10**6 (|y| < 2**40), so n is that product rounded to the
        # nearest integer unless it lies within 0.001 of a half; n / 1e6 is then the float
        # nearest to n × 10**-6, as round(value, 6) is.
        y = value * 1e6
        if -1e12 < y < 1e12:
            # round(y) without a call: y + 1.5 × 2**52 lies where floats are whole numbers, so
            # the addition rounds y to the nearest one (ties to even, as round() does) and the
            # subtraction is exact; n is that whole number as a float (|n| < 2**53: exact).
            n = y + ROUNDER - ROUNDER
            if -0.499 < y - n < 0.499:
                return n / 1e6  # n ≠ 0 keeps the sign; n = 0 gives 0.0, never -0.0
        return round(value, 6) + 0.0
    return None


def nums(values: tuple[float | None, ...]) -> list[float | None]:
    """[num(v) for v in values] in one call (an option shows eleven figures, a call each cost a
    tenth of the output's time): num's two commonest cases, a whole float and a float rounded
    by addition, are taken here as num takes them; any other value goes to num."""
    shown: list[float | None] = []
    for value in values:
        if type(value) is float:
            if value.is_integer():
                shown.append(value + 0.0)
                continue
            y = value * 1e6
            if -1e12 < y < 1e12:
                n = y + ROUNDER - ROUNDER
                if -0.499 < y - n < 0.499:
                    shown.append(n / 1e6)
                    continue
        shown.append(num(value))
    return shown


def clean(value: Any) -> Any:
    """JSON-safe copy of finding data: floats rounded, tuples as lists."""
    kind = type(value)
    if kind is float:
        return num(value)
    if kind is dict:
        # Finding data is mostly flat: strings and ints are kept without a call each.
        return {k: v if type(v) is str or type(v) is int else clean(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [clean(v) for v in value]
    return value
