"""Form helpers shared by every app: the one finite-number field, service errors on a form, and
the ids a filter form was given."""

from __future__ import annotations

import math
from collections.abc import Iterable

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import QuerySet
from django.forms import BaseForm
from django.utils.translation import gettext_lazy as _

from engine.reader import MAX_MAGNITUDE


class FiniteFloatField(forms.FloatField):
    """A float field that says why "nan", "inf" or 1e300 is refused.

    The limit is the engine's own (`MAX_MAGNITUDE`): a figure a form accepts is one the engine
    accepts, so a saved profile or offer can always be evaluated.
    """

    default_error_messages = {
        "not_finite": _("Enter a finite number (not NaN or infinity)."),
        "too_large": _("Enter a number no larger than 10¹² in size."),
    }

    def to_python(self, value):
        # Django's FloatField refuses inf/nan as "Enter a number"; say what is wrong instead.
        text = str(value).strip().lower() if value is not None else ""
        if text.lstrip("+-") in {"nan", "inf", "infinity"}:
            raise forms.ValidationError(self.error_messages["not_finite"], code="not_finite")
        return super().to_python(value)

    def validate(self, value):
        if value not in self.empty_values and not math.isfinite(value):
            raise forms.ValidationError(self.error_messages["not_finite"], code="not_finite")
        super().validate(value)
        if value not in self.empty_values and abs(value) > MAX_MAGNITUDE:
            raise forms.ValidationError(self.error_messages["too_large"], code="too_large")


def finite_formfield(db_field: models.Field, **kwargs) -> forms.Field | None:
    """Meta.formfield_callback: model float fields become FiniteFloatField."""
    if isinstance(db_field, models.FloatField):
        kwargs.setdefault("form_class", FiniteFloatField)
    return db_field.formfield(**kwargs)


def attach_errors(form: BaseForm, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: on the field when the form has it."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.error_dict.items():
        form.add_error(field if field in form.fields else None, errors)


def submitted_ids(data, *names: str) -> list[int]:
    """The ids submitted in the fields `names` of a filter form's data (ASCII digits only): the
    choices a submitted filter is checked against, without reading every choice. Anything else is
    no id, and the form says the choice is not valid."""
    values = (data.get(name, "") for name in names)
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) <= 18]


def only_ids(rows: QuerySet, ids: Iterable[int] | None) -> QuerySet:
    """`rows`, or given `ids` (submitted_ids) only those: what a submitted filter is checked
    against. No ids, no rows, and no query (Django answers `pk__in=[]` without one)."""
    return rows if ids is None else rows.filter(pk__in=list(ids))
