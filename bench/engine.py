"""Throughput of the scoring engine: evaluations per second on one core.

    python bench/engine.py            # human-readable
    python bench/engine.py --json     # one JSON object
    python bench/engine.py --seconds 1

Two inputs: a typical review (5 offers, 4 sites, 10 benchmark records) and a large one
(50 offers, 20 sites, links between every pair). Each runs ``evaluate`` (parse, score and
serialise, as the API does) repeatedly for about the given number of seconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from apps.scoring.engine import ENGINE_VERSION, evaluate  # noqa: E402

BILLING = ("gpu_hour", "machine_hour", "contract")
KINDS = ("compute", "managed", "distributed")


def _sites(count: int) -> list[dict[str, Any]]:
    return [
        {
            "code": f"site-{i:02d}",
            "datacenter": f"dc-{i // 2}",  # pairs share a datacenter
            "city": f"city-{i // 4}",  # fours share a city
            "hub": f"hub-{i // 8}",
            "queue_hours": float((i * 7) % 13),
        }
        for i in range(count)
    ]


def _links(sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    links = []
    for i, a in enumerate(sites):
        for b in sites[i + 1 :]:
            links.append(
                {
                    "from": a["code"],
                    "to": b["code"],
                    "bandwidth_gbps": 10.0 + (i % 4) * 10,
                    "rtt_ms": 5.0 + i,
                    "price_per_gb": 0.01 * (1 + i % 3),
                    "reservable": i % 2 == 0,
                    "reserved": i % 4 == 0,
                }
            )
    return links


def _offers(count: int, sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    offers = []
    for i in range(count):
        basis = BILLING[i % 3]
        offer: dict[str, Any] = {
            "id": f"offer-{i}",
            "kind": KINDS[i % 3],
            "site": sites[i % len(sites)]["code"],
            "gpu_mem_gb": (24, 40, 80)[i % 3],
            "gpus_per_machine": (4, 8)[i % 2],
            "max_machines": 16,
            "billing_basis": basis,
            "price": (2.4, 18.0, 11000.0)[i % 3] * (1 + i / 100),
            "scheduling_fee_pct": (0, 5, 8)[i % 3],
            "parallelism": ["data", "tensor", "pipeline"][: 1 + i % 3],
            "relative_speed": (1.0, 1.2, 0.9)[i % 3],
        }
        if basis == "contract":
            offer["contract_hours"] = 720
            offer["expected_utilization"] = 0.7
        offers.append(offer)
    return offers


def _benchmarks(count: int, offers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kinds = ("single", "multi", "network_probe", "pilot_migration")
    records = []
    for i in range(count):
        kind = kinds[i % 4]
        e2e = 6.0 + i % 5
        records.append(
            {
                "kind": kind,
                "offer": offers[i % len(offers)]["id"],
                "nodes": 1 if kind == "single" else 2,
                "gpus_per_node": 8,
                "e2e_hours": e2e,
                "compute_hours": e2e * 0.8,
                "peak_gpu_mem_gb": 60.0 if kind == "single" else None,
                "failure_reruns": i % 3,
                "hours_lost_per_rerun": 0.5,
                "migration_effort_hours": 12.0 if kind == "pilot_migration" else None,
                "tier": "same_city" if kind == "pilot_migration" else None,
                "succeeded": kind == "pilot_migration",
            }
        )
    return records


def build_input(n_offers: int, n_sites: int, n_benchmarks: int) -> dict[str, Any]:
    sites = _sites(n_sites)
    offers = _offers(n_offers, sites)
    return {
        "task": {
            "name": "bench",
            "workload": "fine_tuning",
            "cadence": "recurring",
            "runs_per_quarter": 3,
            "params_b": 13,
            "precision": "bf16",
            "parallelism": ["data", "tensor"],
            "coupling": "loose",
            "input_gb": 1200,
            "result_gb": 60,
            "compress_ratio": 0.6,
            "compute_hours": 20,
            "resumable": True,
            "resume_verified": True,
            "interruption_cost_hours": 2,
            "latency_budget_hours": {"transfer": 4, "queue": 12, "compute": None},
            "delay_cost_per_hour": 3,
            "env_simple": True,
            "image_packaged": True,
            "offsite_allowed": True,
            "team": {"has_machines": True, "has_scheduler": True, "pain": "slow"},
            "home_site": sites[0]["code"],
            "data_site": sites[1 % n_sites]["code"],
            "result_site": sites[0]["code"],
        },
        "sites": sites,
        "links": _links(sites),
        "offers": offers,
        "benchmarks": _benchmarks(n_benchmarks, offers),
        "checklists": {
            o["id"]: {f"q{q}": "answered" if (q + i) % 4 else "unanswered" for q in range(1, 7)}
            for i, o in enumerate(offers)
        },
    }


def measure(data: dict[str, Any], seconds: float) -> dict[str, float]:
    evaluate(data)  # warm up
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            evaluate(data)
        count += 20
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "evaluations": count,
        "seconds": round(elapsed, 3),
        "per_second": round(count / elapsed, 1),
        "ms_each": round(1000 * elapsed / count, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per input")
    args = parser.parse_args(argv)
    cases = {
        "typical": build_input(5, 4, 10),
        "large": build_input(50, 20, 10),
    }
    results: dict[str, Any] = {
        "engine_version": ENGINE_VERSION,
        "python": platform.python_version(),
    }
    for name, data in cases.items():
        results[name] = {
            "offers": len(data["offers"]),
            "sites": len(data["sites"]),
            "links": len(data["links"]),
            "benchmarks": len(data["benchmarks"]),
            **measure(data, args.seconds),
        }
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"scoring engine {ENGINE_VERSION} on Python {results['python']}")
    for name in cases:
        r = results[name]
        print(
            f"  {name:8s} {r['offers']:3d} offers {r['sites']:3d} sites {r['links']:4d} links"
            f" {r['benchmarks']:3d} benchmarks: {r['per_second']:9.1f} evaluations/s"
            f" ({r['ms_each']:.3f} ms each)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
