"""A small world for benchmark tests: two sites, an offer, a task profile, valid record data."""

from __future__ import annotations

import json
from dataclasses import dataclass

from tests.factories import make_offer, make_profile, make_site


@dataclass
class World:
    team: object
    site_a: object
    site_b: object
    offer: object
    task: object


def make_world(team, prefix: str = "") -> World:
    site_a = make_site(team, f"{prefix}bj-a", city="Beijing", datacenter="dc-1")
    site_b = make_site(team, f"{prefix}bj-b", city="Beijing", datacenter="dc-2")
    offer = make_offer(team, site_a, name=f"{prefix}H100 x8")
    task = make_profile(
        team, site_a, name=f"{prefix}Train 70B", workload="training", params_b=70,
        parallelism=["data", "tensor", "pipeline"], compute_hours=400,
    )
    return World(team=team, site_a=site_a, site_b=site_b, offer=offer, task=task)


def single_data(world: World, **kw) -> dict:
    data = {
        "task": world.task.pk,
        "offer": world.offer.pk,
        "kind": "single",
        "nodes": 1,
        "gpus_per_node": 8,
        "e2e_hours": 10,
        "compute_hours": 9,
    }
    data.update(kw)
    return data


def multi_data(world: World, **kw) -> dict:
    return single_data(world, kind="multi", nodes=4, e2e_hours=4, compute_hours=3, **kw)


def probe_data(world: World, **kw) -> dict:
    data = {
        "task": world.task.pk,
        "kind": "network_probe",
        "from_site": world.site_a.code,
        "to_site": world.site_b.code,
        "bandwidth_gbps": 25.5,
        "rtt_ms": 1.2,
    }
    data.update(kw)
    return data


def pilot_data(world: World, **kw) -> dict:
    data = {"task": world.task.pk, "kind": "pilot_migration", "tier": "same_city",
            "succeeded": True}
    data.update(kw)
    return data


def api_post(client, body, token: str | None = None, raw: str | None = None, **extra):
    headers = dict(extra)
    if token is not None:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client.post(
        "/api/v1/benchmarks",
        data=raw if raw is not None else json.dumps(body),
        content_type="application/json",
        **headers,
    )


def preprocess_data(world: World, **kw) -> dict:
    """A preprocessing run at the task's data site: 6 h, 5,000 GB in, 200 GB out, 12.5 an hour."""
    data = {
        "task": world.task.pk,
        "kind": "preprocess",
        "site": world.site_a.code,
        "preprocess_hours": 6,
        "input_gb": 5000,
        "output_gb": 200,
        "preprocess_cost_per_hour": 12.5,
    }
    data.update(kw)
    return data
