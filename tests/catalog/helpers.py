"""Form data builders for the catalog tests."""

from __future__ import annotations

from typing import Any

HX = {"HTTP_HX_REQUEST": "true"}


def site_data(**overrides: Any) -> dict[str, Any]:
    data = {
        "code": "sh-b",
        "name": "Shanghai B",
        "datacenter": "sh-lingang",
        "city": "Shanghai",
        "hub": "east",
        "queue_hours": "2",
        "storage_tb": "",
    }
    data.update(overrides)
    return data


def link_data(from_site, to_site, **overrides: Any) -> dict[str, Any]:
    data = {
        "from_site": from_site.pk,
        "to_site": to_site.pk,
        "bandwidth_gbps": "10",
        "rtt_ms": "30",
        "price_per_gb": "0.02",
        "buffer": "",
    }
    data.update(overrides)
    return data


def offer_data(site, **overrides: Any) -> dict[str, Any]:
    data = {
        "provider": "Lambda",
        "name": "8x A100 80GB",
        "kind": "compute",
        "site": site.pk,
        "gpu_model": "A100 80GB",
        "gpu_mem_gb": "80",
        "gpus_per_machine": "8",
        "max_machines": "",
        "billing_basis": "machine_hour",
        "price": "24",
        "contract_hours": "",
        "expected_utilization": "",
        "scheduling_fee_pct": "0",
        "parallelism": ["data", "tensor"],
        "relative_speed": "1",
        "boot_hours": "0.5",
        "exit_path": "Weights and data leave as they are.",
    }
    data.update(overrides)
    return data


def is_fragment(response) -> bool:
    return b"<html" not in response.content
