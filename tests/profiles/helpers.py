"""Form data for the task profile tests."""

from __future__ import annotations

from typing import Any

HX = {"HTTP_HX_REQUEST": "true"}


def profile_data(site, **overrides: Any) -> dict[str, Any]:
    """A complete, valid POST of the profile form: a 7B bf16 inference job at `site`."""
    data: dict[str, Any] = {
        "name": "7B chat inference",
        "description": "",
        "workload": "inference",
        "cadence": "one_off",
        "runs_per_quarter": "1",
        "params_b": "7",
        "precision": "bf16",
        "peak_gpu_mem_gb": "",
        "gpus": "1",
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": "20",
        "result_gb": "1",
        "compress_ratio": "1",
        "image_gb": "10",
        "access_pattern": "streaming",
        "data_passes": "1",
        "data_site": site.pk,
        "home_site": site.pk,
        "result_site": site.pk,
        "compute_hours": "3",
        "budget_transfer_hours": "",
        "budget_queue_hours": "",
        "budget_compute_hours": "",
        "delay_cost_per_hour": "0",
        "resumable": "on",
        "interruption_cost_hours": "0.5",
        "env_simple": "on",
        "image_packaged": "on",
        "offsite_allowed": "on",
        "pain": "none",
    }
    for key, value in overrides.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def is_fragment(response) -> bool:
    return b"<html" not in response.content
