"""The preferences form: two switches per kind (inbox, email)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import WEBHOOK_EVENTS, Kind, WebhookShape

CHANNELS = ("inbox", "email")
IGNORED_KEYS = {"csrfmiddlewaretoken"}


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language of emails"), choices=settings.LANGUAGES
    )

    def __init__(self, *args, initial_rows: list[dict] | None = None, language: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = language or settings.LANGUAGE_CODE
        initial = {row["kind"]: row for row in initial_rows or []}
        for kind, label in Kind.choices:
            for channel in CHANNELS:
                self.fields[f"{kind}__{channel}"] = forms.BooleanField(
                    required=False,
                    label=label,
                    initial=initial.get(kind, {}).get(channel, True),
                )

    def clean(self):
        cleaned = super().clean()
        # An unknown field is refused, never ignored (a typo must not look saved).
        unknown = sorted(set(self.data) - set(self.fields) - IGNORED_KEYS)
        if unknown:
            raise ValidationError(_("Unknown fields: %(fields)s") % {"fields": ", ".join(unknown)})
        return cleaned

    def rows(self) -> list[dict]:
        """The form as one row per kind, for the template's table."""
        return [
            {
                "kind": kind,
                "label": label,
                "inbox": self[f"{kind}__inbox"],
                "email": self[f"{kind}__email"],
            }
            for kind, label in Kind.choices
        ]

    def choices(self) -> dict[str, dict[str, bool]]:
        return {
            kind: {c: bool(self.cleaned_data.get(f"{kind}__{c}")) for c in CHANNELS}
            for kind in Kind.values
        }


class WebhookForm(forms.Form):
    """A team owner's new webhook endpoint: the URL, its events and the shape of the body."""

    url = forms.URLField(
        label=gettext_lazy("URL"), max_length=500, assume_scheme="https",
        help_text=gettext_lazy(
            "http or https. Private, loopback and link-local addresses are refused."
        ),
    )  # fmt: skip
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        choices=[(kind.value, kind.label) for kind in WEBHOOK_EVENTS],
        widget=forms.CheckboxSelectMultiple,
    )
    shape = forms.ChoiceField(
        label=gettext_lazy("Body"), choices=WebhookShape.choices, initial=WebhookShape.SIGNED_JSON
    )

    def clean(self):
        unknown = sorted(set(self.data) - set(self.fields) - IGNORED_KEYS)
        if unknown:
            raise ValidationError(_("Unknown fields: %(fields)s") % {"fields": ", ".join(unknown)})
        return super().clean()
