"""The engine's output (SPEC 4) shaped for the profile pages: labels in the user's language, offer
names next to offer ids, the chosen option marked. No rule is decided here; only shown."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Tier

PLATFORMS = {
    "compute_platform": _("Compute platform"),
    "distributed_platform": _("Distributed computing platform"),
    "both": _("Both layers: compute and distributed"),
    "baseline_first": _("Run a single-machine baseline first"),
    "not_feasible": _("Not feasible"),
}
PLATFORM_BADGES = {
    "compute_platform": "ok",
    "distributed_platform": "info",
    "both": "info",
    "baseline_first": "warn",
    "not_feasible": "block",
}
EXCLUSIONS = {
    "X1": _("Low-latency online service"),
    "X2": _("Stateful"),
    "X3": _("Tightly coupled distributed training"),
    "X4": _("Compliance restricted"),
    "X5": _("Strict consistency"),
}
GATES = (
    ("G1", "portability", _("Portability")),
    ("G2", "latency_tolerance", _("Latency tolerance")),
    ("G3", "interruption", _("Interruption")),
)
OPTION_KINDS = {
    "wait_local": _("Wait locally"),
    "move_compute": _("Move compute to the data"),
    "move_data": _("Move the data"),
}
REASONS = {
    "pool_too_small": _("the pool is smaller than the plan"),
    "no_shared_parallelism": _("no split strategy in common"),
    "compliance_site": _("the data may not be processed here (X4)"),
    "compliance_moves_data": _("moves data that may not leave (X4)"),
    "compliance_moves_results": _("moves results that may not leave (X4)"),
    "not_eligible": _("outside the home datacenter (X/G)"),
    "no_link": _("no link recorded"),
}
SEGMENTS = {"transfer": _("transfer"), "queue": _("queue"), "compute": _("compute")}
SOURCES = {
    "estimate": _("estimated from parameters and precision"),
    "measured": _("measured peak"),
    "none": _("no memory figure: memory limits nothing"),
}


def _offer_label(offer: dict | None, offer_id: str) -> str:
    if offer is None:
        return offer_id
    return f"{offer.get('provider') or ''} · {offer.get('name') or offer_id}".strip(" ·")


def sizing_rows(data: dict, output: dict) -> list[dict[str, Any]]:
    offers = {o["id"]: o for o in data.get("offers", [])}
    rows = []
    for row in output["sizing"]["offers"]:
        offer = offers.get(row["offer"], {})
        rows.append(
            {
                **row,
                "offer_pk": row["offer"],
                "label": _offer_label(offer, row["offer"]),
                "offer_name": offer.get("name") or row["offer"],
                "provider": offer.get("provider") or "",
                "site": offer.get("site"),
                "gpu_mem_gb": offer.get("gpu_mem_gb"),
                "gpus_per_machine": offer.get("gpus_per_machine"),
            }
        )
    return rows


def present(data: dict, output: dict) -> dict[str, Any]:
    """Everything the profile page and the live panel show of one evaluation."""
    offers = {o["id"]: o for o in data.get("offers", [])}
    chosen = output.get("chosen") or {}
    cross = output["cross_domain"]
    options = []
    for option in output.get("options", []):
        offer = offers.get(option["offer"])
        options.append(
            {
                **option,
                "label": _offer_label(offer, option["offer"]),
                "offer_name": (offer or {}).get("name") or option["offer"],
                "provider": (offer or {}).get("provider") or "",
                "kind_label": OPTION_KINDS.get(option["kind"], option["kind"]),
                "tier_label": Tier(option["tier"]).label if option.get("tier") else "—",
                "reason_label": REASONS.get(option.get("reason") or "", option.get("reason")),
                "is_chosen": bool(chosen) and option["offer"] == chosen.get("offer"),
            }
        )
    metrics = dict(output.get("metrics") or {})
    metrics["over_budget_labels"] = [SEGMENTS.get(s, s) for s in metrics.get("over_budget", [])]
    sizing = output["sizing"]
    return {
        "platform": output["platform"],
        "platform_label": PLATFORMS.get(output["platform"], output["platform"]),
        "platform_badge": PLATFORM_BADGES.get(output["platform"], "info"),
        "platform_rule": output.get("platform_rule"),
        "sizing": {
            "mem_gb": sizing.get("estimated_gpu_mem_gb"),
            "formula_gb": sizing.get("formula_gpu_mem_gb"),
            "source": sizing.get("source"),
            "source_label": SOURCES.get(sizing.get("source"), sizing.get("source")),
            "rows": sizing_rows(data, output),
        },
        "cross": {
            "eligible": cross["eligible"],
            "exclusions": [(rule, EXCLUSIONS.get(rule, rule)) for rule in cross["exclusions"]],
            "gates": [(rule, name, cross["gates"].get(key)) for rule, key, name in GATES],
            "spread_tier": cross.get("spread_tier"),
            "spread_tier_label": Tier(cross["spread_tier"]).label
            if cross.get("spread_tier")
            else None,
            "allowed_sites": cross.get("allowed_sites"),
        },
        "options": options,
        "chosen": next((o for o in options if o["is_chosen"]), None),
        "metrics": metrics,
        "readiness": output.get("readiness") or {},
        "findings": output.get("findings", []),
        "engine_version": output.get("engine_version"),
    }
