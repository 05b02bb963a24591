"""The sections of a task profile, in the method's order, for the form and the page."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Parallelism

from .shape import SHAPE_FIELDS

SECTIONS: tuple[tuple[str, object, tuple[str, ...]], ...] = (
    (
        "workload",
        _("Workload and model"),
        (
            "workload",
            "cadence",
            "runs_per_quarter",
            "params_b",
            "precision",
            "peak_gpu_mem_gb",
            "gpus",
            "parallelism",
            "coupling",
        ),
    ),
    (
        "shape",
        _("Model shape (optional)"),
        (
            "batch_size",
            "seq_len",
            "hidden_size",
            "layers",
            "heads",
            "kv_heads",
            "activation_checkpointing",
            "attention",
        ),
    ),
    (
        "data",
        _("Data"),
        (
            "data_site",
            "home_site",
            "result_site",
            "input_gb",
            "result_gb",
            "compress_ratio",
            "image_gb",
            "access_pattern",
            "data_passes",
            "input_delivery",
        ),
    ),
    (
        "staged",
        _("Staged plan (optional)"),
        ("processed_gb", "preprocess_hours", "preprocess_cost_per_hour", "rounds_per_refresh"),
    ),
    (
        "time",
        _("Time and budget"),
        (
            "compute_hours",
            "budget_transfer_hours",
            "budget_queue_hours",
            "budget_compute_hours",
            "cost_budget",
            "delay_cost_per_hour",
        ),
    ),
    (
        "faults",
        _("Fault tolerance"),
        (
            "resumable",
            "resume_verified",
            "env_aligned",
            "interruption_cost_hours",
            "checkpoint_interval_hours",
            "restart_hours",
        ),
    ),
    (
        "portability",
        _("Portability and compliance"),
        (
            "env_simple",
            "image_packaged",
            "offsite_allowed",
            "low_latency_online",
            "stateful",
            "compliance_restricted",
            "allowed_sites",
            "results_restricted",
            "strict_consistency",
        ),
    ),
    (
        "team",
        _("Team situation"),
        ("has_machines", "has_scheduler", "can_maintain_scheduler", "pain"),
    ),
)

# Every field the engine reads (name and description are the team's own words).
ENGINE_FIELDS: tuple[str, ...] = tuple(name for _, _, names in SECTIONS for name in names)
# What the sizing needs (SPEC A) and what cross-domain eligibility needs (SPEC X).
SIZING_FIELDS = (
    "workload",
    "params_b",
    "precision",
    "peak_gpu_mem_gb",
    "parallelism",
    *SHAPE_FIELDS,
    "kv_heads",
    "activation_checkpointing",
    "attention",
)
CROSS_DOMAIN_FIELDS = (
    "workload",
    "coupling",
    "budget_transfer_hours",
    "budget_queue_hours",
    "budget_compute_hours",
    "resumable",
    "interruption_cost_hours",
    "env_simple",
    "image_packaged",
    "offsite_allowed",
    "low_latency_online",
    "stateful",
    "compliance_restricted",
    "allowed_sites",
    "results_restricted",
    "strict_consistency",
)


_UNITS = {
    "params_b": "B",
    "peak_gpu_mem_gb": "GB",
    "input_gb": "GB",
    "result_gb": "GB",
    "image_gb": "GB",
    "compute_hours": "h",
    "budget_transfer_hours": "h",
    "budget_queue_hours": "h",
    "budget_compute_hours": "h",
    "interruption_cost_hours": "h",
    "checkpoint_interval_hours": "h",
    "processed_gb": "GB",
    "preprocess_hours": "h",
}
_BUDGETS = {"budget_transfer_hours", "budget_queue_hours", "budget_compute_hours", "cost_budget"}


def _number(value: float) -> str:
    text = f"{value:,.2f}"
    return text[:-3] if text.endswith(".00") else text


def shown_value(profile, name: str, currency: str) -> str:
    """One field of a profile as a reader wants it: labels, units, "no limit" for blanks."""
    field = profile._meta.get_field(name)
    value = getattr(profile, name)
    if field.choices and value is not None:
        return str(getattr(profile, f"get_{name}_display")())
    if isinstance(value, bool):
        return gettext("Yes") if value else gettext("No")
    if name == "parallelism":
        labels = dict(Parallelism.choices)
        return ", ".join(str(labels.get(p, p)) for p in value) if value else gettext("none")
    if name == "allowed_sites":
        codes = sorted(site.code for site in value.all())
        return ", ".join(codes) if codes else gettext("the sites in the data site's datacenter")
    if field.is_relation:
        return str(value) if value is not None else "—"
    if value is None:
        if name in _BUDGETS:
            return gettext("no limit")
        if name == "gpus":
            return gettext("not given: costs cannot be compared (P3)")
        if name == "peak_gpu_mem_gb":
            return gettext("not measured")
        if name == "checkpoint_interval_hours":
            return gettext("not given: 1 h assumed")
        if name == "processed_gb":
            return gettext("not given: no staged plan")
        if name == "kv_heads" and profile.heads is not None:
            return gettext("as many as heads (%(heads)s)") % {"heads": profile.heads}
        return "—"
    if name == "delay_cost_per_hour":
        return f"{_number(value)} {currency}/h"
    if name == "cost_budget":
        return f"{_number(value)} {currency}"  # SPEC 7.7: per run
    if isinstance(value, float):
        unit = _UNITS.get(name)
        return f"{_number(value)} {unit}" if unit else _number(value)
    return str(value)


def profile_sections(profile, currency: str) -> list[tuple[str, object, list[tuple]]]:
    """(key, title, [(label, shown value)]) per section, in the method's order."""
    return [
        (
            key,
            title,
            [
                (profile._meta.get_field(n).verbose_name, shown_value(profile, n, currency))
                for n in names
            ],
        )
        for key, title, names in SECTIONS
    ]
