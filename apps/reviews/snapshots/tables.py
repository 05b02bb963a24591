"""The comparison table of a review (SPEC section 5): one row per placement option and one per
measured benchmark configuration, built from the engine's input and output only.

Costs follow the total bill (SPEC T as corrected by 7.2): `total_cost` of a row is compute +
scheduling + transfer + expected preemption cost (SPEC 7.3, spot capacity) + preprocessing (SPEC
6.4, a staged plan) + migration (SPEC 6.1, `migration_cost`, not a column of its own) + expected
rerun cost (SPEC 7.2); since engine 3.0 `placement_cost`, the option's total that decides the
choice, is the same figure (2.x's left out the rerun loss and migration).
"""

from __future__ import annotations

from typing import Any

from engine.bench_verdicts import fastest_per_offer, run_speedup

COLUMNS = [
    # (key, kind) — kind drives formatting and sorting in the page and the exports. The keys are
    # the CSV header row: stable English names that scripts can rely on (see docs/decisions.md).
    ("row_type", "text"),
    ("task", "text"),
    ("offer", "text"),
    ("offer_label", "text"),
    ("configuration", "text"),
    ("placement", "text"),
    ("site", "text"),
    ("tier", "text"),
    ("feasible", "bool"),
    ("reason", "text"),
    ("transfer_hours", "hours"),
    ("queue_hours", "hours"),
    ("compute_hours", "hours"),
    ("total_hours", "hours"),
    ("peak_gpu_mem_gb", "number"),
    ("compute_cost", "money"),
    ("scheduling_cost", "money"),
    ("transfer_cost", "money"),
    ("preemption_cost", "money"),
    ("rerun_cost", "money"),
    ("unit_price", "money"),
    ("total_cost", "money"),
    ("rank_unit", "int"),
    ("rank_total", "int"),
    ("failure_reruns", "int"),
    ("speedup", "number"),
    ("verdict", "text"),
    ("chosen", "bool"),
    # SPEC 6.4 (engine 2.2), appended so the earlier columns keep their positions in the CSV.
    ("plan", "text"),
    ("preprocess_hours", "hours"),
    ("preprocess_cost", "money"),
    # SPEC 7.5 and 7.11 (engine 3.1), appended likewise.
    ("input_overlapped", "bool"),
    ("scheduler_ops_cost", "money"),
]
COLUMN_KEYS = [key for key, _ in COLUMNS]
COLUMN_KINDS = dict(COLUMNS)


def row_key(row: dict) -> tuple:
    """What identifies a row across snapshots of one review (for side-by-side comparison)."""
    return (row.get("row_type"), str(row.get("offer")), row.get("placement"), row.get("site"))


def _offer_labels(data: dict) -> dict[str, dict]:
    return {str(o["id"]): o for o in data.get("offers", [])}


def _same(option: dict, chosen: dict | None) -> bool:
    return bool(chosen) and (option["kind"], option["site"], str(option["offer"])) == (
        chosen["kind"],
        chosen["site"],
        str(chosen["offer"]),
    )


def _option_verdict(option: dict, chosen: dict | None) -> str:
    if _same(option, chosen):
        return "chosen"
    if not option["feasible"]:
        return "infeasible"
    if not option["within_budget"]:
        return "over_budget"
    if option.get("within_cost_budget") is False:
        return "over_cost_budget"  # SPEC 7.7 (engine 3.1 output)
    return "feasible"


def _label(offer: dict, fallback: str) -> str:
    provider, name = offer.get("provider") or "", offer.get("name") or fallback
    return f"{provider} · {name}" if provider else name


def _j3_offers(output: dict) -> dict[str, str]:
    """SPEC J3: {offer id: "unit" | "total"} for the two candidates the J3 finding names."""
    for finding in output.get("findings", []):
        if finding.get("rule") == "J3":
            data = finding.get("data") or {}
            marks = {}
            if data.get("unit_offer") is not None:
                marks[str(data["unit_offer"])] = "unit"
            if data.get("total_offer") is not None:
                marks[str(data["total_offer"])] = "total"
            return marks
    return {}


def _sum(*values) -> float | None:
    if any(v is None for v in values):
        return None
    return round(sum(values), 6)


def comparison_rows(data: dict, output: dict) -> list[dict[str, Any]]:
    """Rows for the comparison table; every value JSON-safe, keys as in COLUMNS (and a few more
    for display: gpus, machines, within_budget, objective, placement_cost, j3, pair).

    One row per placement option of the engine, then one per timed benchmark run."""
    offers = _offer_labels(data)
    task_name = data.get("task", {}).get("name") or ""
    bill = {str(row["offer"]): row for row in output.get("bill", [])}
    return [
        *_option_rows(output, offers=offers, task_name=task_name, bill=bill),
        *_benchmark_rows(data, output, offers=offers, task_name=task_name, bill=bill),
    ]


def _option_rows(
    output: dict, *, offers: dict, task_name: str, bill: dict
) -> list[dict[str, Any]]:
    chosen = output.get("chosen")
    j3 = _j3_offers(output)
    sizing = {str(s["offer"]): s for s in output.get("sizing", {}).get("offers", [])}
    peak = output.get("sizing", {}).get("estimated_gpu_mem_gb")
    rows = []
    for option in output.get("options", []):
        oid = str(option["offer"])
        rows.append(
            _option_row(
                option,
                task_name=task_name,
                offer=offers.get(oid, {}),
                billed=bill.get(oid, {}),
                machines_needed=sizing.get(oid, {}).get("machines_needed"),
                peak=peak,
                j3_mark=j3.get(oid, ""),
                verdict=_option_verdict(option, chosen),
            )
        )
    return rows


def _option_row(
    option: dict,
    *,
    task_name: str,
    offer: dict,
    billed: dict,
    machines_needed: int | None,
    peak: float | None,
    j3_mark: str,
    verdict: str,
) -> dict[str, Any]:
    oid = str(option["offer"])
    gpus = option.get("gpus") or 0
    per_machine = offer.get("gpus_per_machine") or 1
    machines = max(1, -(-gpus // per_machine))
    rerun_cost = billed.get("rerun_cost", billed.get("rerun_loss"))  # 2.x: rerun_loss (7.2)
    return {
        "row_type": "option",
        "task": task_name,
        "offer": oid,
        "offer_label": _label(offer, oid),
        "configuration": f"{machines} × {per_machine} GPU",
        "machines": machines,
        "gpus": gpus,
        "machines_needed": machines_needed,
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
        # SPEC 6.3: 0 on on-demand capacity; older snapshots (engine < 2.1) have no such key.
        "preemption_cost": billed.get("preemption_cost", option.get("preemption_cost")),
        # SPEC 6.4: raw | staged and the preprocessing (engine < 2.2: no such keys).
        "plan": option.get("plan"),
        "preprocess_hours": option.get("preprocess_hours"),
        "preprocess_cost": billed.get("preprocess_cost", option.get("preprocess_cost")),
        **_engine_3_1(option, billed),
        "rerun_cost": rerun_cost,
        "migration_cost": billed.get("migration_cost"),
        "unit_price": option.get("effective_price", billed.get("unit_price")),
        "total_cost": _billed_total(option, billed),
        "placement_cost": option["total_cost"],
        "objective": option["objective"],
        "rank_unit": billed.get("rank_unit"),
        "rank_total": billed.get("rank_total"),
        "j3": j3_mark,
        "failure_reruns": None,
        "speedup": None,
        "verdict": verdict,
        "chosen": verdict == "chosen",
    }


def _engine_3_1(option: dict, billed: dict) -> dict[str, Any]:
    """SPEC 7.5 and 7.11: the input streamed beside compute, and a self-hosted layer's upkeep
    (snapshots of engines before 3.1 have neither key: blank)."""
    return {
        "input_overlapped": option.get("input_overlapped"),
        "scheduler_ops_cost": billed.get("scheduler_ops_cost", option.get("scheduler_ops_cost")),
    }


def _billed_total(option: dict, billed: dict) -> float | None:
    """The bill's total; from the option when the bill has none (engine 3.0's total_cost is the
    whole bill, 2.x's left out the rerun loss)."""
    total = billed.get("total")
    if total is None:
        total = _sum(option["total_cost"], billed.get("rerun_loss") or 0.0)
    return total


# The columns of an engine option that a timed benchmark run leaves empty.
_RUN_BLANKS = {
    "tier": "",
    "feasible": None,
    "reason": None,
    "within_budget": None,
    "transfer_hours": None,
    "queue_hours": None,
    "scheduling_cost": None,
    "transfer_cost": None,
    "preemption_cost": None,
    "plan": None,
    "preprocess_hours": None,
    "preprocess_cost": None,
    "input_overlapped": None,
    "scheduler_ops_cost": None,
    "placement_cost": None,
    "objective": None,
    "rank_unit": None,
    "rank_total": None,
    "j3": "",
    "chosen": False,
}


def _benchmark_rows(
    data: dict, output: dict, *, offers: dict, task_name: str, bill: dict
) -> list[dict[str, Any]]:
    bench = output.get("benchmark", {})
    # The compared single/multi pair (SPEC B), by position in the input (ids when given).
    pair_index = {bench.get("single_index"), bench.get("multi_index")} - {None}
    pair_ids = {str(v) for v in (bench.get("single_benchmark"), bench.get("multi_benchmark"))
                if v is not None}
    timed = [
        (index, b)
        for index, b in enumerate(data.get("benchmarks", []))
        if b.get("kind") in ("single", "multi")
    ]
    # SPEC 6.1 like-for-like: a run's speedup is against the fastest single run on the SAME offer
    # (same hardware); runs on different hardware are never divided by each other.
    fastest_singles = fastest_per_offer(
        (b for _, b in timed), "single",
        offer_of=lambda b: str(b.get("offer")), kind_of=lambda b: b["kind"],
        e2e_of=lambda b: b["e2e_hours"],
    )
    rows = []
    for index, record in timed:
        oid = str(record.get("offer"))
        rows.append(
            _benchmark_row(
                record,
                task_name=task_name,
                offer=offers.get(oid, {}),
                price=bill.get(oid, {}).get("unit_price"),
                fastest_single=fastest_singles.get(oid),
                pair=index in pair_index
                or (not pair_index and str(record.get("id")) in pair_ids),
            )
        )
    return rows


def _benchmark_row(
    record: dict,
    *,
    task_name: str,
    offer: dict,
    price: float | None,
    fastest_single: dict | None,
    pair: bool,
) -> dict[str, Any]:
    oid = str(record.get("offer"))
    gpus = record["nodes"] * record["gpus_per_node"]
    speedup = None
    if fastest_single is not None:
        speedup = run_speedup(fastest_single["e2e_hours"], record["e2e_hours"])
        speedup = round(speedup, 6) if speedup is not None else None
    reruns = record.get("failure_reruns", 0)
    rerun_hours = reruns * record.get("hours_lost_per_rerun", 0.0)
    burn = gpus * price if price is not None else None
    verdict = "baseline" if record is fastest_single else ""
    if record["kind"] == "multi" and speedup is not None:
        verdict = "net_gain" if speedup > 1 else "no_net_gain"
    return {
        **_RUN_BLANKS,
        "row_type": "benchmark",
        "benchmark": record.get("id"),
        "task": task_name,
        "offer": oid,
        "offer_label": _label(offer, oid),
        "configuration": f"{record['nodes']} × {record['gpus_per_node']} GPU",
        "machines": record["nodes"],
        "gpus": gpus,
        "placement": record["kind"],
        "site": offer.get("site", ""),
        "compute_hours": record["compute_hours"],
        "total_hours": record["e2e_hours"],
        "peak_gpu_mem_gb": record.get("peak_gpu_mem_gb"),
        "compute_cost": record.get("cost"),
        "rerun_cost": None if burn is None else round(rerun_hours * burn, 6),
        "unit_price": price,
        "total_cost": record.get("cost"),
        "failure_reruns": reruns,
        "speedup": speedup,
        "verdict": verdict,
        "pair": pair,
    }


def export_value(row: dict, key: str):
    """A cell for CSV/XLSX: numbers stay numbers, booleans are true/false, None is empty."""
    value = row.get(key)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
