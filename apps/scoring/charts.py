"""Plotly figures of a snapshot, stored as plain JSON (figure dicts) and drawn by static/js/app.js.

Labels are stored as keys and translated at render time (`localize_figure`), so one snapshot serves
both languages.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

PALETTE = {
    "transfer": "#e8590c",
    "queue": "#a0a9bb",
    "compute": "#1f4fd1",
    "scheduling": "#7048e8",
    "rerun": "#c22a2a",
    "ideal": "#5f6b82",
    "measured": "#1e8e4f",
    "threshold": "#c22a2a",
}


def _option_label(row: dict) -> str:
    return f"{row['placement']} · {row['site']} · {row['offer_label'].split(' · ')[-1]}"


def hours_by_segment(rows: list[dict]) -> dict[str, Any]:
    options = [r for r in rows if r["row_type"] == "option" and r["feasible"]]
    labels = [_option_label(r) for r in options]
    return {
        "kind": "hours_by_segment",
        "data": [
            {
                "type": "bar",
                "name": f"@{segment}",
                "x": labels,
                "y": [r[f"{segment}_hours"] or 0 for r in options],
                "marker": {"color": PALETTE[segment]},
            }
            for segment in ("transfer", "queue", "compute")
        ],
        "layout": {"barmode": "stack", "title": {"text": "@hours_by_segment"},
                   "yaxis": {"title": {"text": "@hours"}}},
    }


def cost_by_component(rows: list[dict]) -> dict[str, Any]:
    options = [r for r in rows if r["row_type"] == "option" and r["feasible"]]
    labels = [_option_label(r) for r in options]
    parts = (
        ("compute", "compute_cost"),
        ("scheduling", "scheduling_cost"),
        ("transfer", "transfer_cost"),
        ("rerun", "rerun_loss"),
    )
    return {
        "kind": "cost_by_component",
        "data": [
            {
                "type": "bar",
                "name": f"@{name}",
                "x": labels,
                "y": [r[key] or 0 for r in options],
                "marker": {"color": PALETTE[name]},
            }
            for name, key in parts
        ],
        "layout": {"barmode": "stack", "title": {"text": "@cost_by_component"},
                   "yaxis": {"title": {"text": "@cost"}}},
    }


def scaling(rows: list[dict]) -> dict[str, Any] | None:
    runs = [r for r in rows if r["row_type"] == "benchmark" and r["speedup"] is not None]
    singles = [r for r in runs if r["placement"] == "single"]
    if not runs or not singles:
        return None
    base = min(singles, key=lambda r: r["total_hours"])
    base_gpus = base["gpus"] or 1
    xs = sorted({r["gpus"] for r in runs} | {base_gpus})
    return {
        "kind": "scaling",
        "data": [
            {
                "type": "scatter",
                "mode": "lines",
                "name": "@ideal",
                "x": xs,
                "y": [x / base_gpus for x in xs],
                "line": {"dash": "dash", "color": PALETTE["ideal"]},
            },
            {
                "type": "scatter",
                "mode": "markers+text",
                "name": "@measured",
                "x": [r["gpus"] for r in runs],
                "y": [r["speedup"] for r in runs],
                "text": [r["configuration"] for r in runs],
                "textposition": "top center",
                "marker": {"size": 11, "color": PALETTE["measured"]},
            },
        ],
        "layout": {"title": {"text": "@scaling"}, "xaxis": {"title": {"text": "@gpus"}},
                   "yaxis": {"title": {"text": "@speedup"}}},
    }


def indicators(output: dict) -> dict[str, Any]:
    """The four indicators (M1–M4) as bars, each against its threshold."""
    metrics = output.get("metrics", {})
    thresholds = output.get("thresholds", {})
    names, values, limits = [], [], []
    ratio = metrics.get("data_compute_ratio")
    if ratio is not None:
        names.append("@M1")
        values.append(ratio)
        limits.append(thresholds.get("data_compute_high"))
    share = metrics.get("network_cost_share")
    if share is not None:
        names.append("@M4")
        values.append(share)
        limits.append(thresholds.get("network_cost_share"))
    cost, benefit = metrics.get("interruption_cost"), metrics.get("scheduling_benefit")
    if cost is not None and benefit is not None:
        names.append("@M2")
        values.append(cost)
        limits.append(benefit)
    over = metrics.get("over_budget") or []
    names.append("@M3")
    values.append(len(over))
    limits.append(0)
    return {
        "kind": "indicators",
        "data": [
            {"type": "bar", "name": "@value", "x": names, "y": values,
             "marker": {"color": PALETTE["compute"]}},
            {"type": "scatter", "mode": "markers", "name": "@threshold", "x": names, "y": limits,
             "marker": {"symbol": "line-ew-open", "size": 28, "line": {"width": 3},
                        "color": PALETTE["threshold"]}},
        ],
        "layout": {"title": {"text": "@indicators"}, "yaxis": {"type": "log"}},
    }


def build_charts(rows: list[dict], output: dict) -> dict[str, Any]:
    charts = {
        "hours": hours_by_segment(rows),
        "cost": cost_by_component(rows),
        "indicators": indicators(output),
    }
    scale = scaling(rows)
    if scale is not None:
        charts["scaling"] = scale
    return charts


def _labels() -> dict[str, str]:
    return {
        "transfer": _("Transfer"),
        "queue": _("Queue"),
        "compute": _("Compute"),
        "scheduling": _("Scheduling"),
        "rerun": _("Rerun loss"),
        "hours": _("Hours"),
        "cost": _("Cost"),
        "hours_by_segment": _("Hours by segment per option"),
        "cost_by_component": _("Cost by component per option"),
        "scaling": _("Scaling: GPUs against speedup"),
        "ideal": _("Ideal (linear)"),
        "measured": _("Measured"),
        "gpus": _("GPUs"),
        "speedup": _("Speedup"),
        "indicators": _("The four indicators against their thresholds"),
        "value": _("Value"),
        "threshold": _("Threshold"),
        "M1": _("M1 data/compute (GB/h)"),
        "M2": _("M2 interruption cost vs benefit"),
        "M3": _("M3 segments over budget"),
        "M4": _("M4 network cost share"),
    }


def localize_figure(figure: Any, labels: dict[str, str] | None = None) -> Any:
    """Replace "@key" strings by their translation in the active language."""
    labels = labels if labels is not None else _labels()
    if isinstance(figure, dict):
        return {k: localize_figure(v, labels) for k, v in figure.items()}
    if isinstance(figure, list):
        return [localize_figure(v, labels) for v in figure]
    if isinstance(figure, str) and figure.startswith("@"):
        return labels.get(figure[1:], figure[1:])
    return figure
