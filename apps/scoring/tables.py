"""The comparison table of a review (SPEC section 5): one row per placement option and one per
measured benchmark configuration, built from the engine's input and output only."""

from __future__ import annotations

from typing import Any

COLUMNS = [
    # (key, kind) — kind drives formatting and sorting in the page and the exports.
    ("row_type", "text"),
    ("task", "text"),
    ("offer", "text"),
    ("configuration", "text"),
    ("placement", "text"),
    ("site", "text"),
    ("tier", "text"),
    ("feasible", "bool"),
    ("transfer_hours", "hours"),
    ("queue_hours", "hours"),
    ("compute_hours", "hours"),
    ("total_hours", "hours"),
    ("peak_gpu_mem_gb", "number"),
    ("compute_cost", "money"),
    ("scheduling_cost", "money"),
    ("transfer_cost", "money"),
    ("rerun_loss", "money"),
    ("unit_price", "money"),
    ("total_cost", "money"),
    ("failure_reruns", "int"),
    ("speedup", "number"),
    ("verdict", "text"),
    ("chosen", "bool"),
]
COLUMN_KEYS = [key for key, _ in COLUMNS]


def _offer_labels(data: dict) -> dict[str, dict]:
    return {str(o["id"]): o for o in data.get("offers", [])}


def _option_verdict(option: dict, chosen: dict | None) -> str:
    if chosen and (option["kind"], option["site"], option["offer"]) == (
        chosen["kind"],
        chosen["site"],
        chosen["offer"],
    ):
        return "chosen"
    if not option["feasible"]:
        return "infeasible"
    if not option["within_budget"]:
        return "over_budget"
    return "feasible"


def comparison_rows(data: dict, output: dict) -> list[dict[str, Any]]:
    """Rows for the comparison table; every value JSON-safe, keys as in COLUMNS."""
    offers = _offer_labels(data)
    task_name = data.get("task", {}).get("name") or ""
    bill = {row["offer"]: row for row in output.get("bill", [])}
    chosen = output.get("chosen")
    sizing = {s["offer"]: s for s in output.get("sizing", {}).get("offers", [])}
    peak = output.get("sizing", {}).get("estimated_gpu_mem_gb")
    rows: list[dict[str, Any]] = []
    for option in output.get("options", []):
        offer = offers.get(option["offer"], {})
        fit = sizing.get(option["offer"], {})
        gpus = option.get("gpus") or 0
        per_machine = offer.get("gpus_per_machine") or 1
        verdict = _option_verdict(option, chosen)
        row = {
            "row_type": "option",
            "task": task_name,
            "offer": option["offer"],
            "offer_label": f"{offer.get('provider', '')} · {offer.get('name', option['offer'])}",
            "configuration": f"{max(1, -(-gpus // per_machine))} × {per_machine} GPU",
            "gpus": gpus,
            "machines_needed": fit.get("machines_needed"),
            "placement": option["kind"],
            "site": option["site"],
            "tier": option["tier"],
            "feasible": option["feasible"],
            "reason": option.get("reason"),
            "within_budget": option["within_budget"],
            "transfer_hours": option["transfer_hours"],
            "queue_hours": option["queue_hours"],
            "compute_hours": option["compute_hours"],
            "total_hours": option["total_hours"],
            "peak_gpu_mem_gb": peak,
            "compute_cost": option["compute_cost"],
            "scheduling_cost": option["scheduling_cost"],
            "transfer_cost": option["transfer_cost"],
            "rerun_loss": bill.get(option["offer"], {}).get("rerun_loss"),
            "unit_price": option.get("effective_price"),
            "total_cost": option["total_cost"],
            "objective": option["objective"],
            "failure_reruns": None,
            "speedup": None,
            "verdict": verdict,
            "chosen": verdict == "chosen",
        }
        rows.append(row)

    bench = output.get("benchmark", {})
    timed = [b for b in data.get("benchmarks", []) if b.get("kind") in ("single", "multi")]
    singles = [b for b in timed if b["kind"] == "single" and b["e2e_hours"] > 0]
    fastest_single = min(singles, key=lambda b: b["e2e_hours"]) if singles else None
    for record in timed:
        offer = offers.get(str(record.get("offer")), {})
        gpus = record["nodes"] * record["gpus_per_node"]
        speedup = None
        if fastest_single and record["e2e_hours"] > 0:
            speedup = round(fastest_single["e2e_hours"] / record["e2e_hours"], 6)
        price = bill.get(str(record.get("offer")), {}).get("unit_price")
        rerun_hours = record.get("failure_reruns", 0) * record.get("hours_lost_per_rerun", 0.0)
        burn = gpus * price if price is not None else None
        verdict = ""
        if record["kind"] == "multi" and speedup is not None:
            verdict = "net_gain" if speedup > 1 else "no_net_gain"
        rows.append(
            {
                "row_type": "benchmark",
                "benchmark": record.get("id"),
                "task": task_name,
                "offer": str(record.get("offer")),
                "offer_label": f"{offer.get('provider', '')} · {offer.get('name', '')}",
                "configuration": f"{record['nodes']} × {record['gpus_per_node']} GPU",
                "gpus": gpus,
                "placement": record["kind"],
                "site": offer.get("site", ""),
                "tier": "",
                "feasible": None,
                "reason": None,
                "within_budget": None,
                "transfer_hours": None,
                "queue_hours": None,
                "compute_hours": record["compute_hours"],
                "total_hours": record["e2e_hours"],
                "peak_gpu_mem_gb": record.get("peak_gpu_mem_gb"),
                "compute_cost": record.get("cost"),
                "scheduling_cost": None,
                "transfer_cost": None,
                "rerun_loss": None if burn is None else round(rerun_hours * burn, 6),
                "unit_price": price,
                "total_cost": record.get("cost"),
                "objective": None,
                "failure_reruns": record.get("failure_reruns", 0),
                "speedup": speedup,
                "verdict": verdict,
                "chosen": False,
                "pair": record.get("id")
                in (bench.get("single_benchmark"), bench.get("multi_benchmark")),
            }
        )
    return rows
