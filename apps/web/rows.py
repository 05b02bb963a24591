"""Table cells drawn in Python, as a template draws `{{ value }}` and `{{ value|date:f }}`.

A list's page draws 25 rows of seven or so cells each; through Django's template engine that is
most of a cold view (its rows drawn after any write of the team). A list's rows function builds
the same markup with these (the way accounts.widgets.FastSelect draws a select's options), and a
test compares it with the template-drawn rows.
"""

from __future__ import annotations

import math
from decimal import Decimal

from django.utils import dateformat
from django.utils.formats import localize, number_format
from django.utils.html import conditional_escape, escape
from django.utils.timezone import template_localtime


def text(value) -> str:
    """`{{ value }}`: localized (numbers in the language's format, datetimes in local time) and
    escaped."""
    if isinstance(value, str):  # what localize() and template_localtime() leave as it is
        return conditional_escape(value)
    return escape(str(localize(template_localtime(value))))


def date(value, fmt: str) -> str:
    """`{{ value|date:fmt }}` for a format string (not a named format): in local time, escaped;
    empty for no value. The two formats lists use are written directly (what Django's date
    format writes for them), any other through Django's date format."""
    if value in (None, ""):
        return ""
    local = template_localtime(value)
    if fmt == "c":
        return escape(local.isoformat())
    if fmt == "Y-m-d H:i" and local.year >= 1000:
        return local.strftime("%Y-%m-%d %H:%M")
    return escape(dateformat.format(local, fmt))


def choice_labels(model, field: str) -> dict:
    """`get_<field>_display()` of every value of a field with choices, each label put in the
    active language once (a list's rows look their label up in it)."""
    return {value: str(label) for value, label in model._meta.get_field(field).flatchoices}


def figure(value, digits: int = 2) -> str:
    """`{{ value|money:digits }}` (and `hours`, `number`: scoring's template filters): a figure
    with the language's thousands separators and `digits` decimals; "—" when there is none."""
    if value is None or value == "":
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    # Rounded here (number_format cuts a float's decimals off), then the language's separators
    # (config/formats), grouped whatever USE_THOUSAND_SEPARATOR says.
    if not math.isfinite(number):
        return "—"
    rounded = Decimal(f"{number:.{int(digits)}f}")
    return number_format(rounded, decimal_pos=int(digits), use_l10n=True, force_grouping=True)
