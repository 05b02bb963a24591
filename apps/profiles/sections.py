"""The six sections of a task profile, in the method's order, for the form and the page."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

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
        ),
    ),
    (
        "time",
        _("Time and budget"),
        (
            "compute_hours",
            "budget_transfer_hours",
            "budget_queue_hours",
            "budget_compute_hours",
            "delay_cost_per_hour",
        ),
    ),
    (
        "faults",
        _("Fault tolerance"),
        ("resumable", "resume_verified", "env_aligned", "interruption_cost_hours"),
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
SIZING_FIELDS = ("workload", "params_b", "precision", "peak_gpu_mem_gb", "parallelism")
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
    "strict_consistency",
)
