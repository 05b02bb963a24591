"""Builders of engine input for the engine tests, and a Hypothesis strategy of valid inputs.

The engine needs no Django: ``no_django`` replaces the project-wide autouse fixture (which wants
pytest-django's ``settings``) for the engine test modules that import it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import strategies as st

from engine import EngineInputError, parse_input
from engine.schema import (
    BENCHMARK_KINDS,
    BYTES_PER_PARAM,
    PARALLELISM,
    TIERS,
    WORKLOADS,
)


@pytest.fixture(autouse=True)
def _eager_celery_and_clean_cache():
    """Shadows tests/conftest.py's Django fixture: engine tests must run without Django."""
    yield


# Three sites used by most rule tests: home and data share a city (same_city), far is elsewhere.
SITES: list[dict[str, Any]] = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 10},
    {"code": "data", "datacenter": "dc-d", "city": "shanghai", "hub": "east", "queue_hours": 1},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "hub": "west", "queue_hours": 0},
]
LINKS: list[dict[str, Any]] = [
    {"from": "data", "to": "home", "bandwidth_gbps": 10, "price_per_gb": 0.01},
    {"from": "data", "to": "far", "bandwidth_gbps": 20, "price_per_gb": 0.02},
    {"from": "home", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
]
PORTABLE = {"env_simple": True, "image_packaged": True, "offsite_allowed": True, "resumable": True}


def task(**overrides: Any) -> dict[str, Any]:
    """A small inference task at home that fits one 80 GB GPU and passes every gate."""
    data: dict[str, Any] = {
        "workload": "inference",
        "params_b": 7,
        "precision": "bf16",
        "compute_hours": 10,
        # One whole 8-GPU machine: what v1 billed when no GPU count was planned.
        "gpus": 8,
        "home_site": "home",
        **PORTABLE,
        "team": {"has_machines": True},
    }
    data.update(overrides)
    return data


def offer(oid: str, site: str = "home", **overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": oid,
        "kind": "compute",
        "site": site,
        "gpu_mem_gb": 80,
        "gpus_per_machine": 8,
        "billing_basis": "gpu_hour",
        "price": 2.0,
        "parallelism": ["data", "tensor", "pipeline"],
    }
    data.update(overrides)
    return data


def make_input(
    task_data: dict[str, Any] | None = None,
    *,
    offers: list[dict[str, Any]] | None = None,
    sites: list[dict[str, Any]] | None = None,
    links: list[dict[str, Any]] | None = None,
    benchmarks: list[dict[str, Any]] | None = None,
    checklists: dict[str, Any] | None = None,
    thresholds: dict[str, Any] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "task": task_data if task_data is not None else task(),
        "sites": copy.deepcopy(SITES if sites is None else sites),
        "links": copy.deepcopy(LINKS if links is None else links),
        "offers": offers if offers is not None else [offer("local")],
        "benchmarks": benchmarks or [],
    }
    if checklists is not None:
        data["checklists"] = checklists
    if thresholds is not None:
        data["thresholds"] = thresholds
    return data


def three_way_input(**task_overrides: Any) -> dict[str, Any]:
    """The placement scenario worked by hand in test_engine_rules_placement.py.

    A 500 GB data-processing job whose data sits at `data` (same city as `home`), results go
    home. Offers: L at home (gpu_hour 2.0), M at data (machine_hour 16 / 8 GPUs, twice as fast,
    10 % scheduling fee), D at far (contract 10000 / (500 h × 8 × 0.5) = 5.0 per GPU-hour).
    The job recurs (SPEC 7.6: a recurring job's package share is pro-rated by
    expected_utilization; a one-off job would pay D's whole package).
    """
    t = task(
        workload="data_processing",
        cadence="recurring",
        params_b=None,
        input_gb=500,
        result_gb=20,
        image_gb=10,
        data_site="data",
    )
    t.update(task_overrides)
    offers = [
        offer("L", "home"),
        offer(
            "M",
            "data",
            billing_basis="machine_hour",
            price=16,
            relative_speed=2,
            scheduling_fee_pct=10,
        ),
        offer(
            "D",
            "far",
            billing_basis="contract",
            price=10000,
            contract_hours=500,
            expected_utilization=0.5,
        ),
    ]
    return make_input(t, offers=offers)


def staged_task(**overrides: Any) -> dict[str, Any]:
    """The staged-plan world's task: 5,000 GB raw at `data`, processed to 200 GB in 2 h at 5 an
    hour; 8 GPUs × 10 h of training split over the GPUs, results home."""
    t = task(
        workload="training",
        data_site="data",
        result_site="home",
        input_gb=5000,
        result_gb=0,
        image_gb=0,
        compute_hours=10,
        gpus=8,
        processed_gb=200,
        preprocess_hours=2,
        preprocess_cost_per_hour=5,
        parallelism=["data", "tensor", "pipeline"],
    )
    t.update(overrides)
    return t


def staged_input(**task_overrides: Any) -> dict[str, Any]:
    """The staged task with F at far (1.0 per GPU-hour) and D at data (3.0), both answered; the
    link data → far costs 0.02 per GB."""
    return make_input(
        staged_task(**task_overrides),
        offers=[offer("F", "far", price=1.0), offer("D", "data", price=3.0)],
        checklists=answered("F", "D"),
    )


def parse_errors(data: dict[str, Any]) -> list[dict[str, str]]:
    """The errors parse_input refuses `data` with (the test fails if it is accepted)."""
    with pytest.raises(EngineInputError) as refused:
        parse_input(data)
    return refused.value.errors


def rules(output: dict[str, Any]) -> list[str]:
    return [f["rule"] for f in output["findings"]]


def findings_of(output: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [f for f in output["findings"] if f["rule"] == rule]


def option_of(output: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(o for o in output["options"] if o["offer"] == offer_id)


# ---------------------------------------------------------------------------------------------
# Hypothesis: valid inputs of every shape

# Hours are 0 or at least 1e-12 (SPEC 7.8: a positive figure something is divided by).
_hours = st.one_of(st.just(0.0), st.floats(min_value=1e-12, max_value=200))
_small = st.floats(min_value=0, max_value=1, allow_nan=False, allow_infinity=False)
_positive = st.floats(min_value=0.05, max_value=100, allow_nan=False, allow_infinity=False)
_gb = st.floats(min_value=0, max_value=20000, allow_nan=False, allow_infinity=False)
_strategies = st.lists(st.sampled_from(PARALLELISM), max_size=3, unique=True)

# Helpers of the rule tests (test_engine_rules_*.py, test_engine_v2_*.py).

# Every candidate's six questions answered, so that the C gate (SPEC 6.1: a candidate without
# answers is six unanswered, a block) stays out of tests about other rules.
ANSWERED = {f"q{i}": "answered" for i in range(1, 7)}


def answered(*offer_ids: str) -> dict[str, dict[str, str]]:
    return {oid: dict(ANSWERED) for oid in offer_ids}


def approx(value: float) -> Any:
    # The output rounds money and hours to 6 decimals.
    return pytest.approx(value, abs=1e-6)


def single(e2e: float, offer_id: str = "local", *, nodes: int = 1, gpn: int = 8, **kw: Any):
    """A single-machine benchmark run (compute hours default to the end-to-end hours)."""
    return {
        "kind": "single",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": e2e,
        **kw,
    }


def multi(e2e: float, offer_id: str = "local", *, nodes: int = 2, gpn: int = 8, **kw: Any):
    """A multi-machine benchmark run (compute hours default to the end-to-end hours)."""
    return {
        "kind": "multi",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": e2e,
        **kw,
    }


def sizing_row(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(s for s in out["sizing"]["offers"] if s["offer"] == offer_id)


def bill_row(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(r for r in out["bill"] if r["offer"] == offer_id)


# 70B full training needs 70 × 16 × 1.2 = 1344 GB: 19 GPUs of 72 usable GB, 3 machines of 8,
# so the plan is 24 GPUs (3 × 8).
def big_training(**team_and_task: Any) -> dict[str, Any]:
    """The 70B training task; team keys (has_machines, …) among the overrides go to the team."""
    team = {"has_machines": True}
    team.update(
        {
            k: team_and_task.pop(k)
            for k in list(team_and_task)
            if k in ("has_machines", "has_scheduler", "can_maintain_scheduler", "pain")
        }
    )
    team_and_task.setdefault("gpus", 24)
    return task(workload="training", params_b=70, team=team, **team_and_task)


def big_sharded_training(**overrides: Any) -> dict[str, Any]:
    """70B full training: 70 × 16 × 1.2 = 1344 GB; on 80 × 0.9 = 72 GB usable GPUs
    ceil(1344 / 72 = 18.67) = 19 GPUs, ceil(19 / 8) = 3 machines of 8; 24 GPUs planned, with
    data, tensor and pipeline parallelism."""
    team = overrides.pop("team", {"has_machines": True})
    data = task(
        workload="training",
        params_b=70,
        gpus=24,
        parallelism=["data", "tensor", "pipeline"],
        team=team,
    )
    data.update(overrides)
    return data


# Method v2's four sites: `annex` shares home's datacenter (dc-h); `data` is another datacenter in
# the same city (shanghai); `far` is another city and hub.
SITES_V2: list[dict[str, Any]] = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 10},
    {"code": "annex", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 2},
    {"code": "data", "datacenter": "dc-d", "city": "shanghai", "hub": "east", "queue_hours": 1},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "hub": "west", "queue_hours": 0},
]
LINKS_V2: list[dict[str, Any]] = [
    # same_datacenter, buffer 0.0: 450 GB take 450 × 8 / (1 × 3600) = 1.0 h
    {"from": "home", "to": "annex", "bandwidth_gbps": 1, "price_per_gb": 0},
    {"from": "data", "to": "home", "bandwidth_gbps": 10, "price_per_gb": 0.01},
    {"from": "data", "to": "annex", "bandwidth_gbps": 10, "price_per_gb": 0.01},
    {"from": "data", "to": "far", "bandwidth_gbps": 20, "price_per_gb": 0.02},
    {"from": "home", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
    {"from": "annex", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
]


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


@st.composite
def engine_inputs(draw: st.DrawFn, *, min_offers: int = 1) -> dict[str, Any]:
    """A valid engine input: 1–4 sites, some links, 1–5 offers, 0–4 benchmarks, checklists."""
    n_sites = draw(st.integers(1, 4))
    codes = [f"s{i}" for i in range(n_sites)]
    sites = [
        {
            "code": code,
            "datacenter": draw(st.sampled_from(["dc1", "dc2", "dc3", None])),
            "city": draw(st.sampled_from(["bj", "sh", None])),
            "hub": draw(st.sampled_from(["north", "east"])),
            "queue_hours": draw(_hours),
            "storage_tb": draw(_maybe(st.floats(min_value=0, max_value=30))),
        }
        for code in codes
    ]
    links = []
    for a in codes:
        for b in codes:
            if a == b or not draw(st.booleans()):
                continue
            reservable = draw(st.booleans())
            links.append(
                {
                    "from": a,
                    "to": b,
                    "bandwidth_gbps": draw(_positive),
                    "rtt_ms": draw(_hours),
                    "price_per_gb": draw(_small),
                    "buffer": draw(_maybe(_small)),
                    "reservable": reservable,
                    "reserved": reservable and draw(st.booleans()),
                }
            )
    offers = []
    for i in range(draw(st.integers(min_offers, 5))):
        basis = draw(st.sampled_from(["gpu_hour", "machine_hour", "contract"]))
        item: dict[str, Any] = {
            "id": draw(st.sampled_from([f"o{i}", i])),
            "kind": draw(st.sampled_from(["compute", "distributed", "managed"])),
            "site": draw(st.sampled_from(codes)),
            "gpu_mem_gb": draw(st.sampled_from([16, 24, 40, 80])),
            "gpus_per_machine": draw(st.sampled_from([1, 2, 4, 8])),
            "max_machines": draw(_maybe(st.integers(1, 8))),
            "billing_basis": basis,
            "price": draw(st.floats(min_value=0, max_value=50)),
            "scheduling_fee_pct": draw(st.floats(min_value=0, max_value=20)),
            "parallelism": draw(_strategies),
            "relative_speed": draw(st.floats(min_value=0.25, max_value=4)),
            "machines": draw(_maybe(st.integers(1, 4))),
            "boot_hours": draw(st.floats(min_value=0, max_value=5)),
            "migration_effort_hours": draw(_maybe(st.floats(min_value=0, max_value=200))),
        }
        if basis == "contract":
            item["contract_hours"] = draw(st.floats(min_value=1, max_value=2000))
            item["expected_utilization"] = draw(st.floats(min_value=0.1, max_value=1))
            item["contract_paid"] = draw(st.booleans())  # SPEC 7.6
        # SPEC 7.4: what joins the machines (absent = unknown)
        fabric = draw(st.sampled_from([None, "infiniband", "roce", "ethernet", "absent"]))
        if fabric != "absent":
            item["interconnect"] = fabric
        if draw(st.sampled_from([False, False, True])):
            # SPEC 6.3 / 7.3: spot capacity, from rarely to often preempted
            item["preemptible"] = True
            item["preemptions_per_day"] = draw(st.floats(min_value=0, max_value=6))
        offers.append(item)
    offer_ids = [str(o["id"]) for o in offers]
    budget = {seg: draw(_maybe(_hours)) for seg in ("transfer", "queue", "compute")}
    t: dict[str, Any] = {
        "workload": draw(st.sampled_from(WORKLOADS)),
        "cadence": draw(st.sampled_from(["one_off", "recurring"])),
        "runs_per_quarter": draw(st.floats(min_value=0, max_value=12)),
        "params_b": draw(_maybe(st.floats(min_value=0.1, max_value=200))),
        "precision": draw(st.sampled_from(sorted(BYTES_PER_PARAM))),
        "peak_gpu_mem_gb": draw(_maybe(st.floats(min_value=1, max_value=2000))),
        "gpus": draw(_maybe(st.integers(1, 64))),
        "parallelism": draw(_strategies),
        "coupling": draw(st.sampled_from(["none", "none", "none", "loose", "tight"])),
        "input_gb": draw(_gb),
        "result_gb": draw(_gb),
        "compress_ratio": draw(st.floats(min_value=0.05, max_value=1)),
        "image_gb": draw(st.floats(min_value=0, max_value=50)),
        "access_pattern": draw(st.sampled_from(["streaming", "repeated_full_scan"])),
        "data_passes": draw(st.integers(1, 4)),
        "compute_hours": draw(_hours),
        "interruption_cost_hours": draw(st.floats(min_value=0, max_value=5)),
        "latency_budget_hours": budget,
        "delay_cost_per_hour": draw(st.floats(min_value=0, max_value=10)),
        "team": {
            "has_machines": draw(st.booleans()),
            "has_scheduler": draw(st.booleans()),
            "can_maintain_scheduler": draw(st.booleans()),
            "pain": draw(st.sampled_from(["none", "slow", "queueing"])),
            "validated_tiers": draw(st.lists(st.sampled_from(TIERS), unique=True)),
        },
        "home_site": draw(st.sampled_from(codes)),
        "data_site": draw(st.sampled_from(codes)),
        "result_site": draw(st.sampled_from(codes)),
        "allowed_sites": draw(st.lists(st.sampled_from(codes), unique=True, max_size=3)),
        "results_restricted": draw(st.booleans()),
        # SPEC 7.1 and 7.3
        "attention": draw(st.sampled_from(["flash", "eager"])),
        "restart_hours": draw(st.floats(min_value=0, max_value=2)),
        "checkpoint_interval_hours": draw(st.floats(min_value=0, max_value=4)),
        # SPEC 7.5
        "input_delivery": draw(st.sampled_from(["bulk", "streamed"])),
        # SPEC 7.7: a money budget per run, often none
        "cost_budget": draw(_maybe(st.floats(min_value=0, max_value=5000))),
    }
    permissive = ("resumable", "env_simple", "image_packaged", "offsite_allowed")
    for flag in (*permissive, "resume_verified", "env_aligned"):
        t[flag] = draw(st.sampled_from([True, True, True, True, True, False]))
    for flag in ("low_latency_online", "stateful", "compliance_restricted", "strict_consistency"):
        # Rare, so that eligible tasks and cross-domain choices get exercised too.
        t[flag] = draw(st.sampled_from([False] * 11 + [True]))
    benchmarks = []
    for _ in range(draw(st.integers(0, 4))):
        e2e = draw(_hours)
        benchmarks.append(
            {
                "kind": draw(st.sampled_from(BENCHMARK_KINDS)),
                "offer": draw(st.sampled_from(offer_ids)),
                "nodes": draw(st.integers(1, 4)),
                "gpus_per_node": draw(st.integers(1, 8)),
                "e2e_hours": e2e,
                "compute_hours": e2e * draw(_small),
                "comm_hours": draw(_maybe(st.just(e2e * 0.1))),
                "peak_gpu_mem_gb": draw(_maybe(st.floats(min_value=1, max_value=500))),
                "failure_reruns": draw(st.integers(0, 3)),
                "hours_lost_per_rerun": draw(st.floats(min_value=0, max_value=10)),
                "migration_effort_hours": draw(_maybe(st.floats(min_value=0, max_value=200))),
                "tier": draw(_maybe(st.sampled_from(TIERS))),
                "succeeded": draw(st.booleans()),
            }
        )
    answer = st.sampled_from(["answered", "unanswered"])
    checklists = {
        oid: {q: draw(answer) for q in ("q1", "q2", "q3", "q4", "q5", "q6")}
        for oid in offer_ids
        if draw(st.booleans())
    }
    # SPEC 7.2: the team's fleet failure rate and the evidence an offer's records need.
    thresholds = {
        "failure_rate_per_gpu_hour": draw(st.sampled_from([0.0, 2e-5, 0.01])),
        "failure_evidence_gpu_hours": draw(st.sampled_from([1.0, 10.0, 1000.0])),
        # SPEC 7.11: a self-hosted distributed layer's upkeep (priced with engineer_hour_cost)
        "scheduler_ops_hours_per_month": draw(st.sampled_from([0.0, 0.0, 30.0])),
    }
    return {
        "task": t,
        "sites": sites,
        "links": links,
        "offers": offers,
        "benchmarks": benchmarks,
        "checklists": checklists,
        "thresholds": thresholds,
    }
