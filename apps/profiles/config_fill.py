"""A Hugging Face `config.json` pasted or uploaded on the profile form fills its shape fields
(issue 38): hidden size, layers, heads, key/value heads and the parameter count worked out by
`model_config.py`. A config it cannot read is an error on the field, naming the missing or wrong
key; nothing is saved by a fill, the person checks the values and saves the profile."""

from __future__ import annotations

from django import forms
from django.forms.utils import ErrorDict
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .model_config import MAX_CONFIG_BYTES, ModelConfigError, ModelShape, model_shape_from_text

FILL = "config-fill"  # the name of the form's "fill from config.json" button


class ModelConfigForm(forms.Form):
    prefix = "config"

    text = forms.CharField(
        label=gettext_lazy("Paste a config.json"), required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
    )
    file = forms.FileField(label=gettext_lazy("or upload it"), required=False)

    shape: ModelShape | None = None

    def clean(self):
        upload, text = self.cleaned_data.get("file"), self.cleaned_data.get("text") or ""
        field = "file" if upload is not None else "text"
        if upload is not None:
            if upload.size > MAX_CONFIG_BYTES:
                self.add_error("file", _("This file is larger than 1 MB: not a model config."))
                return self.cleaned_data
            text = upload.read()
        if not text.strip():
            self.add_error("text", _("Paste a config.json, or choose the file."))
            return self.cleaned_data
        try:
            self.shape = model_shape_from_text(text)
        except ModelConfigError as exc:
            self.add_error(field, _("This config.json cannot be read: %(error)s.") % {
                "error": str(exc)})
        return self.cleaned_data

    def values(self) -> dict[str, str]:
        """The profile fields the shape fills, as a form posts them."""
        shape = self.shape
        return {"hidden_size": str(shape.hidden_size), "layers": str(shape.layers),
                "heads": str(shape.heads), "kv_heads": str(shape.kv_heads),
                "params_b": f"{shape.params_b:g}"}


def filled(request) -> tuple[QueryDict, ModelConfigForm]:
    """The posted profile with its shape fields filled from the config (as posted when the
    config cannot be read), and the config form with its errors."""
    config = ModelConfigForm(request.POST, request.FILES)
    data = request.POST.copy()
    if config.is_valid() and config.shape is not None:
        for name, value in config.values().items():
            data[name] = value
    return data, config


def unjudged(form):
    """The bound profile form shown back after a fill: its values, no field judged yet (the
    person has not asked to save)."""
    form.full_clean()
    form._errors = ErrorDict()
    return form
