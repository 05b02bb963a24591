"""The form of the sizing page (how many GPUs does my model need): the profile form's sizing
fields and help texts, plus deadline sizing (SPEC 6.3), without saving a profile."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.datastructures import MultiValueDict
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from apps.catalog.forms import require_at_least
from apps.catalog.models import Parallelism
from apps.web.forms import FiniteFloatField

from .forms import HELP_TEXTS, TaskProfileForm
from .models import Precision, TaskProfile, Workload
from .shape import SHAPE_FIELDS, SHAPE_MAX, shape_errors


class SizingForm(forms.Form):
    """How many GPUs does my model need: size, precision, workload, optional measured peak."""

    params_b = FiniteFloatField(
        label=capfirst(_("parameters (billions)")),
        min_value=0,
        help_text=_("Model size in billions of parameters, e.g. 7 or 70."),
    )
    precision = forms.ChoiceField(
        label=capfirst(_("precision")),
        choices=Precision.choices,
        initial=Precision.BF16,
        help_text=HELP_TEXTS["precision"],
    )
    workload = forms.ChoiceField(
        label=capfirst(_("workload")),
        choices=Workload.choices,
        initial=Workload.INFERENCE,
        help_text=_(
            "Training and full fine-tuning count weights, gradients and Adam states (16 bytes a "
            "parameter); adapter tuning (LoRA/QLoRA) adds 0.16 bytes a parameter to the weights."
        ),
    )
    peak_gpu_mem_gb = FiniteFloatField(
        label=capfirst(_("measured peak GPU memory (GB)")),
        required=False,
        min_value=0,
        help_text=HELP_TEXTS["peak_gpu_mem_gb"],
    )
    parallelism = forms.MultipleChoiceField(
        label=capfirst(_("parallelism supported")),
        choices=Parallelism.choices,
        required=False,
        initial=["data", "tensor"],
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "With tensor, pipeline or sharded, a model larger than one GPU can fill a machine."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in (*SHAPE_FIELDS, "kv_heads", "activation_checkpointing", "attention"):
            field = TaskProfile._meta.get_field(name)
            self.fields[name] = field.formfield(
                label=capfirst(field.verbose_name), help_text=HELP_TEXTS[name], required=False
            )
            if name not in ("activation_checkpointing", "attention"):
                require_at_least(self.fields[name], 1)
                limit = SHAPE_MAX["heads" if name == "kv_heads" else name]
                self.fields[name].validators.append(MaxValueValidator(limit))
                self.fields[name].widget.attrs["max"] = limit
        # Deadline sizing (SPEC 6.3): compute hours measured on a GPU count, and a budget.
        self.fields["gpus"] = forms.IntegerField(
            label=capfirst(_("planned GPUs")),
            required=False,
            min_value=1,
            max_value=1_000_000,
            help_text=_("Deadline sizing: the GPU count the compute hours were measured on."),
        )
        self.fields["compute_hours"] = FiniteFloatField(
            label=capfirst(_("compute hours")),
            required=False,
            min_value=0,
            help_text=_("Deadline sizing: the compute time on the planned GPUs."),
        )
        self.fields["budget_compute_hours"] = FiniteFloatField(
            label=capfirst(_("compute budget (h)")),
            required=False,
            min_value=0,
            help_text=_(
                "Deadline sizing: the longest acceptable compute time; each offer then says the "
                "fewest GPUs that meet it."
            ),
        )

    presets = TaskProfileForm.presets

    def clean(self):
        data = super().clean()
        shape = {n: data.get(n) for n in (*SHAPE_FIELDS, "kv_heads") if n not in self.errors}
        for name, errors in shape_errors(shape).items():
            for error in errors:
                self.add_error(name, error)
        deadline = ("gpus", "compute_hours", "budget_compute_hours")
        given = [n for n in deadline if data.get(n) is not None]
        if given:
            for name in deadline:
                if name not in self.errors and data.get(name) is None:
                    self.add_error(
                        name,
                        forms.ValidationError(
                            _(
                                "Enter the planned GPUs, the compute hours and the compute "
                                "budget together, or leave all three blank."
                            ),
                            code="deadline_incomplete",
                        ),
                    )
        return data

    def engine_fields(self) -> dict:
        """The cleaned values as sizing_estimate's keywords (blanks left out)."""
        data = self.cleaned_data
        out = {
            name: data[name]
            for name in ("workload", "params_b", "precision", "peak_gpu_mem_gb", "parallelism")
        }
        shape = {n: data.get(n) for n in (*SHAPE_FIELDS, "kv_heads")}
        out["shape"] = {n: v for n, v in shape.items() if v is not None}
        out["activation_checkpointing"] = bool(data.get("activation_checkpointing"))
        out["attention"] = data.get("attention") or "flash"  # SPEC 7.1: blank = flash
        if data.get("gpus") is not None:
            out["deadline"] = {
                n: data[n] for n in ("gpus", "compute_hours", "budget_compute_hours")
            }
        return out


def sizing_data(profile: TaskProfile) -> MultiValueDict:
    """The sizing form's data from a saved profile, as if typed: what the profile holds of the
    model, and deadline sizing when it has all three of its figures."""
    values: dict[str, list] = {
        name: [getattr(profile, name)]
        for name in ("params_b", "precision", "workload", "peak_gpu_mem_gb", *SHAPE_FIELDS,
                     "kv_heads")
        if getattr(profile, name) is not None
    }  # fmt: skip
    values["parallelism"] = list(profile.parallelism or [])
    if profile.activation_checkpointing:
        values["activation_checkpointing"] = ["on"]
    values["attention"] = [profile.attention]  # SPEC 7.1
    deadline = ("gpus", "compute_hours", "budget_compute_hours")
    if all(getattr(profile, name) is not None for name in deadline):
        values.update({name: [getattr(profile, name)] for name in deadline})
    return MultiValueDict(values)
