"""Form fields shared by every app."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

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


# Control characters other than tab and line breaks: no text field holds them (PostgreSQL refuses
# NUL, an XLSX cell refuses the rest), so a form refuses them on the field (issue 34).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
CONTROL_CHARACTER_MESSAGE = _("Remove the control character (U+%(code)s) from this text.")


def refuse_control_characters(value) -> None:
    """A validator for every text form field (installed on forms.CharField by the accounts app's
    ready(), so no form of any app can leave it out)."""
    found = CONTROL_CHARACTERS.search(value) if isinstance(value, str) else None
    if found is not None:
        raise ValidationError(
            CONTROL_CHARACTER_MESSAGE, code="control_character",
            params={"code": f"{ord(found.group()):04X}"},
        )


def install_text_validator() -> None:
    if refuse_control_characters not in forms.CharField.default_validators:
        forms.CharField.default_validators = [
            *forms.CharField.default_validators, refuse_control_characters
        ]


class FileTextField(forms.CharField):
    """The text of an uploaded file posted back for confirmation: its lines are checked one by
    one by the import (a control character is an error of its line), not refused whole here."""

    default_validators: list = []
