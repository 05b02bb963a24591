"""The values every import reads the same way, whichever path they arrive by (a form, a CSV cell,
a JSON number, a provider bill): numbers, whole numbers, text no column may hold, idempotency keys,
and the error naming every offending field at once.
"""

from __future__ import annotations

import math

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _

from apps.accounts.fields import CONTROL_CHARACTER_MESSAGE, CONTROL_CHARACTERS

from ..csv_file import RowError
from ..limits import MAX_MAGNITUDE

KEY_MAX_LENGTH = 120


class FieldErrors(Exception):
    """Every offending field with its messages: {"field": ["message", …]}."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors

    def as_list(self) -> list[dict[str, str]]:
        """The API's shape: [{"field", "message"}]."""
        return [
            {"field": name, "message": str(message)}
            for name, messages in self.errors.items()
            for message in messages
        ]


def blank(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def parse_float(value) -> float:
    """A finite float from a number or a numeric string; ValueError with a message otherwise."""
    if isinstance(value, bool):
        raise ValueError(_("Enter a number."))
    if isinstance(value, int | float):
        number = float(value)
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ValueError(_("Enter a number.")) from None
    if not math.isfinite(number):
        raise ValueError(_("Enter a finite number (not NaN or infinity)."))
    if abs(number) > MAX_MAGNITUDE:
        raise ValueError(_("Enter a number no larger than 10¹² in size."))
    return number


def parse_int(value) -> int:
    if isinstance(value, bool):
        raise ValueError(_("Enter a whole number."))
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise ValueError(_("Enter a whole number."))
        return int(value)
    text = str(value).strip()
    try:
        return int(text)
    except ValueError:
        raise ValueError(_("Enter a whole number.")) from None


def refuse_nul(value) -> None:
    """PostgreSQL text cannot hold NUL, nor an XLSX cell other control characters: refuse them
    as bad input (CSV, bills and API alike) rather than fail on save or on export."""
    if isinstance(value, str) and "\x00" in value:
        raise ValueError(str(ProhibitNullCharactersValidator.message))
    found = CONTROL_CHARACTERS.search(value) if isinstance(value, str) else None
    if found is not None:
        raise ValueError(str(CONTROL_CHARACTER_MESSAGE % {"code": f"{ord(found.group()):04X}"}))


def clean_idempotency_key(raw) -> str | None:
    """The stripped key, None when absent; ValueError when too long."""
    if blank(raw):
        return None
    key = str(raw).strip()
    refuse_nul(key)
    if len(key) > KEY_MAX_LENGTH:
        raise ValueError(_("Too long (at most %(n)s characters).") % {"n": KEY_MAX_LENGTH})
    return key


def row_errors(exc: FieldErrors) -> list[RowError]:
    """A FieldErrors as the row errors of a file's line."""
    return [RowError(name, m) for name, messages in exc.errors.items() for m in messages]
