"""Typed field readers for parse_input: every problem is recorded, none raised."""

from __future__ import annotations

import math
from typing import Any

MISSING: Any = object()
# Larger figures are typos, and they keep products of inputs far from float overflow.
MAX_MAGNITUDE = 1e12
# SPEC 7.8: a figure that must be above 0 (a size or rate some figure is divided by) is at least
# this, so that no quotient of inputs leaves the floats (no NaN or infinite figure ever).
MIN_POSITIVE = 1e-12


class Reader:
    """Reads typed fields out of JSON objects and records every problem it meets."""

    __slots__ = ("errors",)

    def __init__(self) -> None:
        self.errors: list[dict[str, str]] = []

    def error(self, field: str, message: str) -> None:
        self.errors.append({"field": field, "message": message})

    def _absent(self, value: Any, field: str, default: Any, nullable: bool) -> tuple[bool, Any]:
        # A null counts as absent: nullable and defaulted fields take their default.
        if value is MISSING or value is None:
            if nullable or default is not MISSING:
                return True, None if default is MISSING else default
            self.error(field, "is required")
            return True, None
        return False, None

    def number(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        *,
        default: Any = MISSING,
        nullable: bool = False,
        minimum: float | None = 0.0,
        above: float | None = None,
        maximum: float | None = None,
        integer: bool = False,
    ) -> Any:
        value = obj.get(key)
        if value is None:  # absent or null: the commonest case for optional fields
            if nullable:
                return None if default is MISSING else default
            if default is not MISSING:
                return default
            self.error(f"{path}.{key}", "is required")
            return None
        kind = type(value)
        if (
            kind is float
            and not integer
            and 0.0 <= value <= MAX_MAGNITUDE  # false for NaN, and for ±infinity
            and minimum == 0.0
            and above is None
            and maximum is None
        ):
            return value  # the commonest case: a plain non-negative float with default bounds
        if (
            kind is int
            and above is None
            and maximum is None
            and minimum is not None
            and minimum <= value <= MAX_MAGNITUDE
        ):
            return value if integer else float(value)  # next: a plain int at least its minimum
        if (
            above is not None
            and maximum is None
            and not integer
            and (kind is float or kind is int)
            and above < value <= MAX_MAGNITUDE  # false for NaN, and for ±infinity
            and (above != 0.0 or value >= MIN_POSITIVE)
        ):
            return float(value)  # a plain number above its bound (bandwidth, GPU memory)
        return self._checked_number(value, key, path, minimum, above, maximum, integer)

    def _checked_number(
        self,
        value: Any,
        key: str,
        path: str,
        minimum: float | None,
        above: float | None,
        maximum: float | None,
        integer: bool,
    ) -> Any:
        """number() past its fast paths: any value, converted, checked for type and range."""
        kind = type(value)
        if kind is not float and kind is not int and kind is not bool:
            value = _plain_number(value)
            kind = type(value)
        # Fast path first: a plain in-range number, the overwhelmingly common case.
        if kind is float or kind is int:
            if integer:
                if kind is float:
                    if not math.isfinite(value) or not value.is_integer():
                        return self._bad_number(value, key, path, integer)
                    value = int(value)
            elif kind is float:
                if not math.isfinite(value):
                    return self._bad_number(value, key, path, integer)
            elif -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
                value = float(value)  # an int past float's range stays an int: refused below
            if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
                if above is not None:
                    if (
                        value > above
                        and (above != 0.0 or value >= MIN_POSITIVE)
                        and (maximum is None or value <= maximum)
                    ):
                        return value
                elif (minimum is None or value >= minimum) and (
                    maximum is None or value <= maximum
                ):
                    return value
            return self._out_of_range(value, key, path, minimum, above, maximum)
        return self._bad_number(value, key, path, integer)

    def amount(self, obj: dict[str, Any], key: str, path: str, default: Any = MISSING) -> Any:
        """A number ≥ 0, the commonest kind of field: a plain float or int in range is answered
        at once; anything else (absent without a default, out of range, of another type) as
        number() answers it."""
        value = obj.get(key)
        kind = type(value)
        if kind is float:
            if 0.0 <= value <= MAX_MAGNITUDE:  # false for NaN, and for ±infinity
                return value
        elif kind is int:
            if 0 <= value <= MAX_MAGNITUDE:
                return float(value)
        elif value is None and default is not MISSING:
            return default
        return self.number(obj, key, path, default=default)

    def optional(self, obj: dict[str, Any], key: str, path: str) -> float | None:
        """A number ≥ 0 or null (absent)."""
        value = obj.get(key)
        if value is None:
            return None
        kind = type(value)
        if kind is float and 0.0 <= value <= MAX_MAGNITUDE:
            return value
        if kind is int and 0 <= value <= MAX_MAGNITUDE:
            return float(value)
        return self.number(obj, key, path, nullable=True)

    def count(self, obj: dict[str, Any], key: str, path: str, default: Any, minimum: int) -> Any:
        """An integer ≥ minimum: a plain int in range is answered at once."""
        value = obj.get(key)
        if type(value) is int and minimum <= value <= MAX_MAGNITUDE:
            return value
        if value is None and default is not MISSING:
            return default
        return self.number(obj, key, path, default=default, minimum=minimum, integer=True)

    def _bad_number(self, value: Any, key: str, path: str, integer: bool) -> None:
        field = f"{path}.{key}"
        kind = type(value)
        if kind is float and not math.isfinite(value):
            self.error(field, "must be a finite number")
        else:
            noun = "an integer" if integer else "a number"
            suffix = ", not a boolean" if kind is bool else ""
            self.error(field, f"must be {noun}{suffix}")
        return None

    def _out_of_range(
        self,
        value: float,
        key: str,
        path: str,
        minimum: float | None,
        above: float | None,
        maximum: float | None,
    ) -> None:
        field = f"{path}.{key}"
        if abs(value) > MAX_MAGNITUDE:
            self.error(field, "is unreasonably large (limit 1e12)")
        elif above is not None and not value > above:
            self.error(field, f"must be > {_show(above)}")
        elif above == 0.0 and value < MIN_POSITIVE:
            self.error(field, "is unreasonably small (limit 1e-12)")
        elif above is None and minimum is not None and value < minimum:
            self.error(field, f"must be ≥ {_show(minimum)}")
        else:
            self.error(field, f"must be ≤ {_show(maximum or 0.0)}")
        return None

    def boolean(self, obj: dict[str, Any], key: str, path: str, default: bool = False) -> bool:
        value = obj.get(key)
        if value is None:
            return default
        if type(value) is not bool:
            self.error(f"{path}.{key}", "must be true or false")
            return default
        return value

    def choice(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        allowed: tuple[str, ...],
        *,
        default: Any = MISSING,
        nullable: bool = False,
    ) -> Any:
        value = obj.get(key, MISSING)
        if type(value) is str and value in allowed:
            return value  # fast path: a plain str that is one of the choices
        field = f"{path}.{key}"
        absent, fallback = self._absent(value, field, default, nullable)
        if absent:
            return fallback
        if not isinstance(value, str) or value not in allowed:
            self.error(field, f"must be one of {', '.join(allowed)}")
            return None if default is MISSING else default
        return allowed[allowed.index(value)]  # the plain constant, even for a str-enum member

    def text(
        self, obj: dict[str, Any], key: str, path: str, *, required: bool = False
    ) -> str | None:
        value = obj.get(key)
        if type(value) is str and (not required or value.strip()):
            return value  # fast path: a plain, non-blank str
        field = f"{path}.{key}"
        if value is None:
            if required:
                self.error(field, "is required")
            return None
        if not isinstance(value, str):
            self.error(field, "must be a string")
            return None
        value = str.__str__(value)  # a plain str, even for a str subclass
        if required and not value.strip():
            self.error(field, "must not be blank")
            return None
        return value

    def choices(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        allowed: tuple[str, ...],
        default: tuple[str, ...] = (),
    ) -> tuple[str, ...]:
        value = obj.get(key)
        if value is None:
            return default
        field = f"{path}.{key}"
        if not isinstance(value, (list, tuple)):
            self.error(field, f"must be a list of {', '.join(allowed)}")
            return default
        picked: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in allowed:
                self.error(f"{field}[{i}]", f"must be one of {', '.join(allowed)}")
            elif item not in picked:
                picked.append(item)
        # Canonical order, so equal sets give equal outputs.
        return tuple(a for a in allowed if a in picked)

    def obj(
        self, value: Any, field: str, known: frozenset[str] | None = None
    ) -> dict[str, Any] | None:
        """The object at `field`; with `known`, every other key is refused by its path (SPEC 6.2:
        a typo must never silently change a decision)."""
        if not isinstance(value, dict):
            self.error(field, "must be an object")
            return None
        if known is not None and not known.issuperset(value):
            for key in value:
                if key not in known:
                    self.error(f"{field}.{key}" if field else str(key), "unknown field")
        return value


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def offer_id(raw: Any, field: str, reader: Reader) -> str | None:
    if raw is None or raw is MISSING:
        reader.error(field, "is required")
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        return str(int(raw))
    if isinstance(raw, str) and raw.strip():
        return str.__str__(raw)
    reader.error(field, "must be a non-blank string or an integer")
    return None


def _plain_number(value: Any) -> Any:
    """int and float subclasses (an IntEnum, a numpy scalar registered as float) read as plain."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value
