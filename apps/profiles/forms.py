"""The task profile form: every field, grouped as the method groups them, explained in its terms."""

from __future__ import annotations

import json

from django import forms
from django.core.validators import MinValueValidator
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from apps.accounts.fields import SafeModelMultipleChoiceField
from apps.accounts.models import Team
from apps.accounts.widgets import FastSelect
from apps.catalog.forms import TeamSitesMixin, require_at_least
from apps.catalog.models import Parallelism, Site
from apps.web.concurrency import VersionedFormMixin
from apps.web.forms import finite_formfield
from engine.presets import PRESETS

from .models import SHAPE_FIELDS, Cadence, TaskProfile, Workload
from .sections import SECTIONS

HELP_TEXTS = {
    "name": _("What the team calls this job."),
    "description": _("Optional: anything a reviewer should know."),
    "workload": _(
        "Sets the memory formula (training and full fine-tuning; adapter tuning such as LoRA or "
        "QLoRA; inference-like), whether the job is data-intensive (D1) and whether it is an "
        "online service (X1)."
    ),
    "cadence": _("Recurring jobs are worth templating; a one-off job rarely pays for a scheduler."),
    "runs_per_quarter": _("How often it runs; retrofit effort is weighed against a year of runs."),
    "params_b": _(
        "Model size in billions of parameters; with the precision it gives the memory estimate. "
        "Blank = no model (no estimate)."
    ),
    "precision": _("Bytes per parameter: fp32 4, bf16/fp16 2, fp8/int8 1, int4 0.5."),
    "peak_gpu_mem_gb": _(
        "Measured peak GPU memory of one replica; overrides the estimate. Blank = not measured."
    ),
    "gpus": _(
        "GPUs you plan to run on: the GPU count compute hours were measured on. Machine-hour "
        "and contract offers bill whole machines."
    ),
    "parallelism": _(
        "Split strategies the job's framework supports. Without tensor, pipeline or sharded "
        "(FSDP, ZeRO-3), a model larger than one GPU cannot be split: plain data parallel "
        "copies the whole model onto every GPU."
    ),
    "coupling": _(
        "How much the parts talk while running: tight keeps the job in one site; loose allows "
        "the same city (cross hub only with 24 h or more of budget); none allows any site."
    ),
    "batch_size": _(
        "Samples (sequences) one replica processes at once. Model shape: give batch size, "
        "sequence length, hidden size, layers and heads together, or leave them all blank."
    ),
    "seq_len": _("Tokens per sequence the job runs with (at most what the model allows)."),
    "hidden_size": _("The model's hidden size (hidden_size in its config.json)."),
    "layers": _("Transformer layers (num_hidden_layers in its config.json)."),
    "heads": _("Attention heads (num_attention_heads); they must divide the hidden size evenly."),
    "kv_heads": _(
        "Key/value heads (num_key_value_heads) with grouped-query attention: at most the heads "
        "and dividing them. Blank = as many as heads. Sets the KV cache of inference."
    ),
    "activation_checkpointing": _(
        "Recompute activations in the backward pass: only each layer's input is kept "
        "(2 × sequence × batch × hidden bytes a layer instead of the full set)."
    ),
    "attention": _(
        "How training computes attention. Flash (FlashAttention, PyTorch SDPA, the default of "
        "current frameworks) never stores the attention scores: 34 bytes an element a layer. "
        "Eager stores them: 5 × heads × sequence ÷ hidden more (Dao et al. 2022)."
    ),
    "input_gb": _("Input data the job reads, in GB."),
    "result_gb": _("Results it writes back, in GB."),
    "compress_ratio": _("Size after compression ÷ before: 0 < r ≤ 1 (1 = not compressed)."),
    "image_gb": _("Environment image shipped to a remote site, in GB."),
    "access_pattern": _("Repeated full scans move the input once per pass."),
    "data_passes": _("Full passes over the input (counts for repeated full scans)."),
    "input_delivery": _(
        "Bulk: the input is copied to the site before compute starts. Streamed: the job reads "
        "it over the link while it computes, so the copy hides behind compute and only what "
        "outlasts it adds to the transfer time (the link stays in use, so it must be reserved). "
        "A repeated full scan that cannot be staged is streamed anyway; a staged copy ships in "
        "bulk. Blank = bulk."
    ),
    "processed_gb": _(
        "Size of the preprocessed version (features, shards, tokens) made next to the data. "
        "Given, every option away from the data is also costed shipping it instead of the raw "
        "input (D3). Blank = no staged plan."
    ),
    "preprocess_hours": _("Wall time of preprocessing at the data site, in hours."),
    "preprocess_cost_per_hour": _("What preprocessing costs per hour, in the team's currency."),
    "rounds_per_refresh": _(
        "Training runs that reuse one processed version: its shipment and preprocessing are "
        "shared by them."
    ),
    "data_site": _("Where the input data sits now."),
    "home_site": _("Where the team runs today: running here is waiting locally."),
    "result_site": _("Where the results must end up."),
    "compute_hours": _("The compute segment on the planned GPUs, at relative speed 1.0."),
    "budget_transfer_hours": _("Longest acceptable transfer time. Blank = no limit; 0 = none."),
    "budget_queue_hours": _("Longest acceptable wait for capacity. Blank = no limit."),
    "budget_compute_hours": _("Longest acceptable compute time. Blank = no limit."),
    "cost_budget": _(
        "Most one run may cost, in the team's currency, the whole bill (compute, scheduling, "
        "transfer, losses). Over it, P4 names the cheapest option within it. Blank = no limit."
    ),
    "delay_cost_per_hour": _(
        "Value of one hour of waiting, in the team's currency; 0 = time costs nothing."
    ),
    "resumable": _("Restarts from a checkpoint after an interruption."),
    "resume_verified": _("Resuming has actually been tried (needed before moving work)."),
    "env_aligned": _("The remote environment matches: drivers, libraries, paths."),
    "interruption_cost_hours": _("Work lost by one interruption, in hours."),
    "checkpoint_interval_hours": _(
        "Hours between checkpoints. On preemptible (spot) capacity a resumable job loses half an "
        "interval per preemption. Blank = 1 h."
    ),
    "restart_hours": _(
        "Hours to reload and re-queue after each preemption or failure of a resumable run "
        "(counted with half a checkpoint interval per restart). 0 = instant."
    ),
    "env_simple": _("Few dependencies: runs elsewhere without rework."),
    "image_packaged": _("Packaged as a container image."),
    "offsite_allowed": _("Policy allows running at another site."),
    "low_latency_online": _("Serves users under a tight latency bound (X1: stays local)."),
    "stateful": _("Holds state that moving would lose (X2)."),
    "compliance_restricted": _("The data may not leave its domain (X4)."),
    "allowed_sites": _(
        "Compliance only (X4): the sites where the data may be processed. None chosen = the "
        "sites in the data site's datacenter."
    ),
    "results_restricted": _(
        "Compliance only (X4): the results may not leave the allowed sites either."
    ),
    "strict_consistency": _("Link jitter would become a business risk (X5)."),
    "has_machines": _("The team already owns or rents machines."),
    "has_scheduler": _("A scheduling layer already runs the team's jobs."),
    "can_maintain_scheduler": _("Someone can operate a scheduler: using is not maintaining (J4)."),
    "pain": _("What hurts today: jobs too slow, or queueing for resources."),
}


# SPEC 6.4 and 7.1/7.3: what a blank optional figure means (the engine's defaults).
STAGED_DEFAULTS = {
    "preprocess_hours": 0.0,
    "preprocess_cost_per_hour": 0.0,
    "rounds_per_refresh": 1,
    "attention": "flash",
    "restart_hours": 0.0,
    "input_delivery": "bulk",
}


class TaskProfileForm(VersionedFormMixin, TeamSitesMixin, forms.ModelForm):
    site_fields = ("data_site", "home_site", "result_site")

    parallelism = forms.MultipleChoiceField(
        label=capfirst(_("parallelism supported")),
        choices=Parallelism.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=HELP_TEXTS["parallelism"],
    )
    allowed_sites = SafeModelMultipleChoiceField(
        label=capfirst(_("allowed sites")),
        queryset=Site.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=HELP_TEXTS["allowed_sites"],
        error_messages={"invalid_choice": _("Choose sites of this team.")},
    )

    class Meta:
        model = TaskProfile
        fields = ["name", "description", *(n for _, _, names in SECTIONS for n in names)]
        formfield_callback = finite_formfield
        help_texts = HELP_TEXTS
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        self.restrict_sites(team)
        self.fields["allowed_sites"].queryset = Site.objects.for_team(team).order_by("code")
        # SPEC 6.1: compute hours are measured on a GPU count, so it is required with them
        # (compute hours always are). The column stays nullable for older profiles (P3).
        self.fields["gpus"].required = True
        self.fields["gpus"].error_messages["required"] = _(
            "Enter the planned GPU count: the compute hours were measured on it."
        )
        for name in (
            "params_b",
            "peak_gpu_mem_gb",
            "input_gb",
            "result_gb",
            "image_gb",
            "compute_hours",
            "budget_transfer_hours",
            "budget_queue_hours",
            "budget_compute_hours",
            "cost_budget",
            "delay_cost_per_hour",
            "interruption_cost_hours",
        ):
            require_at_least(self.fields[name], 0)
        require_at_least(self.fields["compress_ratio"], 0, above=True)
        self.fields["compress_ratio"].validators.append(_ratio_at_most_one)
        self.fields["compress_ratio"].widget.attrs["max"] = 1
        for name in (*SHAPE_FIELDS, "kv_heads"):
            # One lower bound, 1, said once (the column's own ≥ 0 would say it twice).
            field = self.fields[name]
            field.validators = [v for v in field.validators if not isinstance(v, MinValueValidator)]
            field.widget.attrs.pop("min", None)
        for name in (
            "runs_per_quarter", "data_passes", "gpus", "rounds_per_refresh", *SHAPE_FIELDS,
            "kv_heads",
        ):
            require_at_least(self.fields[name], 1)
        require_at_least(self.fields["checkpoint_interval_hours"], 0, above=True)
        require_at_least(self.fields["restart_hours"], 0)
        # SPEC 6.4: the staged plan is optional; left blank, its figures take their defaults.
        for name in STAGED_DEFAULTS:
            self.fields[name].required = False

    def _staged_default(self, name: str):
        value = self.cleaned_data.get(name)
        return STAGED_DEFAULTS[name] if value is None else value

    def clean_preprocess_hours(self):
        return self._staged_default("preprocess_hours")

    def clean_preprocess_cost_per_hour(self):
        return self._staged_default("preprocess_cost_per_hour")

    def clean_rounds_per_refresh(self):
        return self._staged_default("rounds_per_refresh")

    def clean_attention(self):
        return self.cleaned_data.get("attention") or STAGED_DEFAULTS["attention"]

    def clean_input_delivery(self):
        return self.cleaned_data.get("input_delivery") or STAGED_DEFAULTS["input_delivery"]

    def clean_restart_hours(self):
        return self._staged_default("restart_hours")

    def presets(self) -> list[dict]:
        """The engine's model presets (SPEC 6.3), for the picker of the model shape section."""
        return preset_options()

    def fieldsets(self) -> list[tuple[str, object, list]]:
        """(key, legend, bound fields) per section; the name and description open the first."""
        groups = []
        for key, legend, names in SECTIONS:
            fields = [self[n] for n in names]
            if key == "workload":
                fields = [self["name"], self["description"], *fields]
            groups.append((key, legend, fields))
        return groups


def _ratio_at_most_one(value):
    if value is not None and value > 1:
        raise forms.ValidationError(
            _("Enter a ratio of at most 1 (size after compression ÷ before)."), code="max"
        )


class ProfileFilterForm(forms.Form):
    """The list's search and filters; an invalid value is ignored rather than refused."""

    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    # FastSelect: the same <select>, drawn without a template per option.
    workload = forms.ChoiceField(
        label=capfirst(_("workload")),
        required=False,
        choices=[("", _("All workloads")), *Workload.choices],
        widget=FastSelect,
    )
    cadence = forms.ChoiceField(
        label=capfirst(_("cadence")),
        required=False,
        choices=[("", _("Any cadence")), *Cadence.choices],
        widget=FastSelect,
    )
    site = forms.TypedChoiceField(
        label=capfirst(_("site")), required=False, coerce=int, empty_value=None,
        widget=FastSelect,
    )

    def __init__(self, *args, sites: list[tuple[int, str]], **kwargs):
        """`sites`: the team's (id, label) pairs, `filter_sites(team)`."""
        super().__init__(*args, **kwargs)
        self.fields["site"].choices = [("", _("Any site")), *sites]
        self.fields["q"].widget.attrs["placeholder"] = _("Name contains…")
        self.fields["q"].widget.attrs["type"] = "search"
        self.fields["site"].widget.attrs["title"] = _("Data, home or result site.")

    def filters(self) -> dict:
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {key: data[key] for key in ("q", "workload", "cadence", "site") if data.get(key)}


def filter_sites(team: Team) -> list[tuple[int, str]]:
    """The team's sites to filter profiles by, as the site filter lists them (one query)."""
    rows = Site.objects.for_team(team).order_by("code").values_list("pk", "code", "name")
    return [(pk, f"{code} · {name}") for pk, code, name in rows]  # as Site.__str__


def preset_options() -> list[dict]:
    """The engine's model presets (SPEC 6.3) as the picker shows them: the task fields a preset
    sets (its config.json values and parameter count), and the job's own batch size and
    sequence length filled only when blank (1, and the model's context length up to 4,096)."""
    return [
        {
            "name": p.name,
            "preset": p,
            "fields": json.dumps(p.task_fields()),
            "blank_fields": json.dumps({"batch_size": 1, "seq_len": min(p.max_seq_len, 4096)}),
        }
        for p in PRESETS.values()
    ]
