"""SPEC 6.3: a model shape's fields and the rules across them, shared by the profile (models.py)
and the sizing page (sizing_form.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# SPEC 6.3: the model shape's fields. The five the engine needs together, and the largest value
# each takes (well above any published model; the engine's own limit is 10¹²).
SHAPE_FIELDS = ("batch_size", "seq_len", "hidden_size", "layers", "heads")
SHAPE_MAX = {
    "batch_size": 1_000_000,
    "seq_len": 10_000_000,
    "hidden_size": 1_000_000,
    "layers": 10_000,
    "heads": 100_000,
}


def shape_errors(values: dict) -> dict[str, list[ValidationError]]:
    """SPEC 6.3's rules across a model shape's fields, by field: batch, sequence length, hidden
    size, layers and heads all given or none (a KV head count needs them too); heads divide the
    hidden size; KV heads at most heads and dividing them. `values` maps the field names to
    their values (None: blank); a field refused on its own is left out of `values`, and a value
    out of its range is refused on its own (its validators), so neither is judged here again."""
    errors: dict[str, list[ValidationError]] = {}

    def add(name: str, message, code: str) -> None:
        errors.setdefault(name, []).append(ValidationError(message, code=code))

    def in_range(name: str):
        value = values.get(name)
        limit = SHAPE_MAX["heads" if name == "kv_heads" else name]
        return value if value is not None and 1 <= value <= limit else None

    given = [name for name in (*SHAPE_FIELDS, "kv_heads") if values.get(name) is not None]
    if given:
        for name in SHAPE_FIELDS:
            if name in values and values[name] is None:
                add(
                    name,
                    _(
                        "Enter this with the other model shape fields (batch size, sequence "
                        "length, hidden size, layers, heads), or leave them all blank."
                    ),
                    "shape_incomplete",
                )
    hidden, heads, kv_heads = in_range("hidden_size"), in_range("heads"), in_range("kv_heads")
    if hidden and heads and hidden % heads:
        add(
            "heads",
            _("The heads must divide the hidden size (%(hidden)s) evenly.") % {"hidden": hidden},
            "heads_divide_hidden",
        )
    if heads and kv_heads:
        if kv_heads > heads:
            add(
                "kv_heads",
                _("Enter at most the number of heads (%(heads)s).") % {"heads": heads},
                "kv_heads_above_heads",
            )
        elif heads % kv_heads:
            add(
                "kv_heads",
                _("The KV heads must divide the heads (%(heads)s) evenly.") % {"heads": heads},
                "kv_heads_divide_heads",
            )
    return errors
