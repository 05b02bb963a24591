"""Form fields shared by every app."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

# Primary keys are 64-bit; a larger number is no id at all (and SQLite cannot even bind it).
MAX_PK = 2**63 - 1


def _beyond_pk_range(value) -> bool:
    try:
        return abs(int(str(value))) > MAX_PK
    except (TypeError, ValueError):
        return False  # not a number: the parent field reports it as an invalid choice


class SafeModelChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField that answers an out-of-range id as an invalid choice, not a 500."""

    def to_python(self, value):
        if _beyond_pk_range(value):
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": value},
            )
        return super().to_python(value)


class SafeModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A ModelMultipleChoiceField that answers an out-of-range id as an invalid pk value."""

    def _check_values(self, value):
        for pk in value:
            if _beyond_pk_range(pk):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)
