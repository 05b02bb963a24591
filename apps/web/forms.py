"""Form helpers shared by every app: the one finite-number field and service errors on a form
(type-ahead filter fields: apps/web/typeahead.py)."""

from __future__ import annotations

import math

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
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

