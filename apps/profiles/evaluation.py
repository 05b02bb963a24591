"""The engine's output (SPEC 4) shaped for the profile pages: labels in the user's language, offer
names next to offer ids, the chosen option marked. No rule is decided here; only shown."""

from __future__ import annotations

from typing import Any

from apps.catalog.models import Tier
from apps.web.labels import (
    EXCLUSIONS,
    GATES,
    OPTION_KINDS,
    PLATFORM_BADGES,
    PLATFORMS,
    REASONS,
    SEGMENTS,
    SIZING_SOURCES,
    label,
)

from .memory_bar import memory_bar


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
    options = _present_options(data, output)
    metrics = dict(output.get("metrics") or {})
    metrics["over_budget_labels"] = [label(SEGMENTS, s) for s in metrics.get("over_budget", [])]
    cross = output["cross_domain"]
    return {
        "platform": output["platform"],
        "platform_label": label(PLATFORMS, output["platform"]),
        "platform_badge": PLATFORM_BADGES.get(output["platform"], "info"),
        "platform_rule": output.get("platform_rule"),
        "sizing": _present_sizing(data, output),
        "cross": {
            "eligible": cross["eligible"],
            "exclusions": [(rule, label(EXCLUSIONS, rule)) for rule in cross["exclusions"]],
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


def _present_options(data: dict, output: dict) -> list[dict[str, Any]]:
    """The engine's options with their offer's name and the words for their codes."""
    offers = {o["id"]: o for o in data.get("offers", [])}
    chosen = output.get("chosen") or {}
    options = []
    for option in output.get("options", []):
        offer = offers.get(option["offer"])
        options.append(
            {
                **option,
                "label": _offer_label(offer, option["offer"]),
                "offer_name": (offer or {}).get("name") or option["offer"],
                "provider": (offer or {}).get("provider") or "",
                "kind_label": label(OPTION_KINDS, option["kind"]),
                "tier_label": Tier(option["tier"]).label if option.get("tier") else "—",
                "reason_label": label(REASONS, option.get("reason")) or None,
                "is_chosen": bool(chosen) and option["offer"] == chosen.get("offer"),
            }
        )
    return options


def _present_sizing(data: dict, output: dict) -> dict[str, Any]:
    """The sizing block: memory estimate, its rows and bar, the planned GPUs and the deadline."""
    sizing = output["sizing"]
    rows = sizing_rows(data, output)
    task = data.get("task") or {}
    return {
        "mem_gb": sizing.get("estimated_gpu_mem_gb"),
        "formula_gb": sizing.get("formula_gpu_mem_gb"),
        "source": sizing.get("source"),
        "source_label": label(SIZING_SOURCES, sizing.get("source")),
        "rows": rows,
        "bar": memory_bar(sizing.get("breakdown"), rows),
        "planned_gpus": task.get("gpus"),
        # SPEC 6.3 deadline sizing: set only with a compute budget.
        "budget_hours": (task.get("latency_budget_hours") or {}).get("compute"),
        "budget_efficiency": sizing.get("budget_efficiency"),
        "budget_efficiency_source": sizing.get("budget_efficiency_source"),
        # gpus_for_budget means something only with both a budget and a planned count.
        "deadline": bool(sizing.get("budget_efficiency_source")) and task.get("gpus") is not None,
    }
