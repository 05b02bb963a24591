"""Plotly figures of a snapshot, stored as plain JSON (figure dicts) and drawn by static/js/app.js.

Labels are stored as keys ("@key") and translated at render time by `chart_labels`, so one
snapshot serves both languages.
Styling (palette, font, legend above the plot) comes from apps.web.charts, like every chart's.
"""

from __future__ import annotations

from typing import Any

from apps.web.charts import PALETTE, layout, plain

HISTORY_POINTS = 100  # the task history chart shows at most the last 100 snapshots


EXCLUDED_OPACITY = 0.35  # excluded options are drawn, greyed (issue 15: shown, not hidden)


def _option_label(row: dict) -> str:
    """Two short lines (placement, offer name) so three or four bars fit a phone screen; ✓ marks
    the chosen option, ✗ an excluded one."""
    name = row["offer_label"].split(" · ")[-1]
    if len(name) > 18:
        name = name[:17] + "…"
    mark = " ✓" if row.get("chosen") else " ✗" if row.get("feasible") is False else ""
    return f"@short_{row['placement']}|{mark}<br>{plain(name)}"


def _chart_options(rows: list[dict]) -> list[dict]:
    """The options a chart draws: every feasible one, and every excluded one whose figures are
    known (an option without a recorded link has no hours or cost to draw)."""
    return [
        r
        for r in rows
        if r["row_type"] == "option"
        and (r["feasible"] or (r.get("total_hours") is not None
                               and r.get("total_cost") is not None))
    ]


def _bar(name: str, labels: list[str], ys: list, options: list[dict], color: str,
         hover: str) -> dict[str, Any]:
    """One stacked bar series; an excluded option's bar is greyed and says so on hover."""
    return {
        "type": "bar",
        "name": f"@{name}",
        "x": labels,
        "y": ys,
        "marker": {
            "color": color,
            "opacity": [1 if r["feasible"] else EXCLUDED_OPACITY for r in options],
        },
        "customdata": ["" if r["feasible"] else "@excluded_hover" for r in options],
        "hovertemplate": hover + "%{customdata}<extra>%{fullData.name}</extra>",
    }


def _segments(options: list[dict]) -> tuple[str, ...]:
    """The time segments drawn: preprocessing (SPEC 6.4) only when some option is staged."""
    if any(r.get("preprocess_hours") for r in options):
        return ("preprocess", "transfer", "queue", "compute")
    return ("transfer", "queue", "compute")


def hours_by_segment(rows: list[dict]) -> dict[str, Any]:
    """Stacked bars: transfer, queue and compute hours of each option (excluded ones greyed)."""
    options = _chart_options(rows)
    labels = [_option_label(r) for r in options]
    return {
        "kind": "hours_by_segment",
        "data": [
            _bar(segment, labels, [r.get(f"{segment}_hours") or 0 for r in options], options,
                 PALETTE[segment], "%{y:.2f} h")
            for segment in _segments(options)
        ],
        "title": "@hours_by_segment",
        "layout": layout(barmode="stack",
                          yaxis={"title": {"text": "@hours"}}),
    }


def cost_by_component(rows: list[dict]) -> dict[str, Any]:
    """Stacked bars: compute, scheduling, transfer, preemption (only when some option is on spot
    capacity, SPEC 6.3) and rerun loss of each option: together its bill total (excluded options
    greyed)."""
    options = _chart_options(rows)
    labels = [_option_label(r) for r in options]
    parts = [
        ("compute", "compute_cost"),
        ("scheduling", "scheduling_cost"),
        ("transfer", "transfer_cost"),
        ("rerun", "rerun_cost"),
    ]
    if any(r.get("preemption_cost") for r in options):
        parts.insert(3, ("preemption", "preemption_cost"))
    if any(r.get("preprocess_cost") for r in options):
        parts.insert(3, ("preprocess", "preprocess_cost"))  # SPEC 6.4: a staged plan
    if any(r.get("scheduler_ops_cost") for r in options):
        parts.append(("scheduler_ops", "scheduler_ops_cost"))  # SPEC 7.11: self-hosted upkeep
    return {
        "kind": "cost_by_component",
        "data": [
            _bar(name, labels, [r.get(key) or 0 for r in options], options, PALETTE[name],
                 "%{y:,.2f}")
            for name, key in parts
        ],
        "title": "@cost_by_component",
        "layout": layout(barmode="stack",
                          yaxis={"title": {"text": "@cost"}}),
    }


def objective_parts(rows: list[dict]) -> dict[str, Any] | None:
    """Stacked bars of what decides (SPEC 6.1): each option's objective as its placement cost
    plus its delay cost (delay cost per hour × hours end to end). None when no option has one."""
    options = [r for r in _chart_options(rows) if r.get("objective") is not None
               and r.get("placement_cost") is not None]
    if not options:
        return None
    labels = [_option_label(r) for r in options]
    delay = [round(r["objective"] - r["placement_cost"], 6) for r in options]
    return {
        "kind": "objective_parts",
        "data": [
            _bar("placement_cost_part", labels, [r["placement_cost"] for r in options], options,
                 PALETTE["cost"], "%{y:,.2f}"),
            _bar("delay_cost_part", labels, delay, options, PALETTE["delay"], "%{y:,.2f}"),
        ],
        "title": "@objective_parts",
        "layout": layout(barmode="stack",
                          yaxis={"title": {"text": "@cost"}}),
    }


def scaling(rows: list[dict]) -> dict[str, Any] | None:
    """GPUs against measured speedup, with the ideal (linear) line; None without benchmarks."""
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
                "y": [round(x / base_gpus, 6) for x in xs],
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
                "hovertemplate": "%{x} GPU: ×%{y:.2f}<extra></extra>",
            },
        ],
        "title": "@scaling",
        "layout": layout(xaxis={"title": {"text": "@gpus"}},
                          yaxis={"title": {"text": "@speedup"}}),
    }


def chosen_option(output: dict) -> dict | None:
    """The engine option the output chose (None when nothing was chosen)."""
    chosen = output.get("chosen")
    if not chosen:
        return None
    for option in output.get("options", []):
        if (option["kind"], option["site"], str(option["offer"])) == (
            chosen["kind"], chosen["site"], str(chosen["offer"])
        ):
            return option
    return None


def _fmt(value: float) -> str:
    """Short figures for bar labels: 25, 36.9, 1,234."""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def indicators(output: dict, data: dict | None = None) -> dict[str, Any]:
    """The four indicators (SPEC M1–M4), each as value ÷ threshold: a bar above 1 crosses it.

    M1 data/compute ratio against the "move compute" threshold (GB/h); M2 interruption cost
    against the scheduling benefit; M3 the worst latency segment of the chosen option against its
    budget; M4 the network cost share against its threshold. An indicator without a figure (no
    wait-local option for M2, no budget for M3) is left out.
    """
    metrics = output.get("metrics", {})
    thresholds = output.get("thresholds", {})
    names, ratios, texts = [], [], []

    def add(name: str, value: float | None, limit: float | None, unit: str = "") -> None:
        if value is None or not limit:
            return
        names.append(name)
        ratios.append(round(value / limit, 6))
        texts.append(f"{_fmt(value)} / {_fmt(limit)}{unit}")

    add("@M1", metrics.get("data_compute_ratio"), thresholds.get("data_compute_high"), " GB/h")
    add("@M2", metrics.get("interruption_cost"), metrics.get("scheduling_benefit"))
    budgets = ((data or {}).get("task") or {}).get("latency_budget_hours") or {}
    worst = _worst_latency_segment(chosen_option(output), budgets)
    if worst is not None:
        add("@M3", *worst, " h")
    share = metrics.get("network_cost_share")
    if share is not None:
        limit = thresholds.get("network_cost_share")
        if limit:
            names.append("@M4")
            ratios.append(round(share / limit, 6))
            texts.append(f"{share:.0%} / {limit:.0%}")
    return _indicator_figure(names, ratios, texts)


def _worst_latency_segment(chosen: dict | None, budgets: dict) -> tuple[float, float] | None:
    """(hours, budget) of the chosen option's segment furthest over (or nearest to) its budget."""
    if chosen is None:
        return None
    worst = None
    for segment in ("transfer", "queue", "compute"):
        budget = budgets.get(segment)
        hours = chosen.get(f"{segment}_hours")
        if budget and hours is not None and (worst is None or hours / budget > worst[0]):
            worst = (hours / budget, hours, budget)
    return None if worst is None else (worst[1], worst[2])


def _indicator_figure(names: list[str], ratios: list[float], texts: list[str]) -> dict[str, Any]:
    colors = [PALETTE["over"] if r > 1 else PALETTE["under"] for r in ratios]
    return {
        "kind": "indicators",
        "data": [
            {
                "type": "bar",
                "name": "@value",
                "x": names,
                "y": ratios,
                "text": texts,
                "textposition": "outside",
                "cliponaxis": False,
                "marker": {"color": colors},
                "hovertemplate": "%{text}<extra></extra>",
            },
        ],
        "title": "@indicators",
        "layout": layout(
            showlegend=False,
            # The threshold (1.0) as a line across the whole plot, labelled at its right end.
            yaxis={"title": {"text": "@of_threshold"},
                   "range": [0, max([1.25, *[r * 1.2 for r in ratios]])]},
            shapes=[{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
                     "y0": 1, "y1": 1,
                     "line": {"color": PALETTE["threshold"], "width": 2, "dash": "dash"}}],
            annotations=[{"xref": "paper", "x": 1, "xanchor": "right", "yref": "y", "y": 1,
                          "yanchor": "bottom", "text": "@threshold", "showarrow": False,
                          "font": {"color": PALETTE["threshold"]}}],
        ),
    }


def build_charts(rows: list[dict], output: dict, data: dict | None = None) -> dict[str, Any]:
    """The figures stored with a snapshot (the task history chart is built when shown)."""
    charts = {
        "hours": hours_by_segment(rows),
        "cost": cost_by_component(rows),
    }
    objective = objective_parts(rows)
    if objective is not None:
        charts["objective"] = objective
    scale = scaling(rows)
    if scale is not None:
        charts["scaling"] = scale
    charts["indicators"] = indicators(output, data)
    return charts


def task_history(points: list[tuple]) -> dict[str, Any] | None:
    """The chosen option's total cost and hours across a task's snapshots: two panels on one time
    axis (cost above, hours below), not two scales over one plot, where the lines read as one.

    `points`: (created_at, chosen_total_cost, chosen_total_hours) oldest first.
    """
    points = [p for p in points if p[1] is not None or p[2] is not None]
    if not points:
        return None
    xs = [p[0].isoformat() for p in points]
    return {
        "kind": "task_history",
        "data": [
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "@total_cost",
                "x": xs,
                "y": [p[1] for p in points],
                "line": {"color": PALETTE["cost"]},
                "hovertemplate": "%{y:,.2f}<extra>%{fullData.name}</extra>",
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "@total_hours",
                "x": xs,
                "y": [p[2] for p in points],
                "xaxis": "x2",
                "yaxis": "y2",
                "line": {"color": PALETTE["hours"], "dash": "dot"},
                "hovertemplate": "%{y:.2f} h<extra>%{fullData.name}</extra>",
            },
        ],
        "title": "@task_history",
        "layout": layout(
            # The top panel's dates are the bottom one's: shown once, under the hours.
            xaxis={"type": "date", "matches": "x2", "showticklabels": False, "anchor": "y"},
            xaxis2={"type": "date", "nticks": 5, "anchor": "y2", "automargin": True},
            yaxis={"title": {"text": "@cost"}, "domain": [0.55, 1], "automargin": True},
            yaxis2={"title": {"text": "@hours"}, "domain": [0, 0.45], "rangemode": "tozero",
                    "automargin": True},
            height=420,
            margin={"t": 40, "r": 24, "b": 60, "l": 56},
        ),
    }


def quarterly(rows: list[dict]) -> dict[str, Any] | None:
    """Compute saved against transfer fees per quarter, with the net as a line."""
    if not rows:
        return None
    quarters = [r["quarter"] for r in rows]
    return {
        "kind": "quarterly",
        "data": [
            {"type": "bar", "name": "@compute_saved", "x": quarters,
             "y": [r["compute_saved"] for r in rows], "marker": {"color": PALETTE["saved"]},
             "hovertemplate": "%{y:,.2f}<extra>%{fullData.name}</extra>"},
            {"type": "bar", "name": "@transfer_fees", "x": quarters,
             "y": [r["transfer_fees"] for r in rows], "marker": {"color": PALETTE["fees"]},
             "hovertemplate": "%{y:,.2f}<extra>%{fullData.name}</extra>"},
            {"type": "scatter", "mode": "lines+markers", "name": "@net", "x": quarters,
             "y": [r["net"] for r in rows], "line": {"color": PALETTE["net"], "width": 3},
             "hovertemplate": "%{y:,.2f}<extra>%{fullData.name}</extra>"},
        ],
        "title": "@quarterly",
        "layout": layout(barmode="group", xaxis={"type": "category"},
                          yaxis={"title": {"text": "@cost"}, "rangemode": "normal"}),
    }
