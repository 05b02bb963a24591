"""How every chart looks: one palette, one font, one base layout (Plotly figure dicts).

The figures themselves are built where their data lives (scoring: a snapshot's charts;
benchmarks: the scaling chart; teams: the calibration strips) as plain JSON-safe dicts drawn by
static/js/app.js; none imports plotly.py. Each starts from `layout()` and takes its colours from
`PALETTE`, so the product's charts read as one family: the same font (with Chinese fallbacks),
the legend as a horizontal row above the plot (never under rotated tick labels, readable at phone
width), axes from zero, and the same colour for the same meaning everywhere (compute is blue,
transfer orange, a bad outcome or a threshold red, a good one green).
"""

from __future__ import annotations

import html
from typing import Any

PALETTE = {
    # Segments of an option's hours and the lines of its bill.
    "transfer": "#e8590c",
    "queue": "#a0a9bb",
    "compute": "#1f4fd1",
    "scheduling": "#7048e8",
    "rerun": "#c22a2a",
    "preemption": "#d6336c",
    "preprocess": "#0ca678",  # SPEC 6.4: preprocessing next to the data (a staged plan)
    "scheduler_ops": "#862e9c",  # SPEC 7.11: engineer time of a self-hosted scheduler
    "cost": "#1f4fd1",
    "hours": "#e8590c",
    "delay": "#f59f00",  # the delay cost part of the objective (an hour of waiting, priced)
    # Measurements against their ideal.
    "ideal": "#5f6b82",
    "measured": "#1e8e4f",
    "single": "#5f6b82",
    "multi": "#1f4fd1",
    "ideal_line": "#a0a9bb",
    # Thresholds and budgets.
    "threshold": "#c22a2a",
    "over": "#c22a2a",
    "under": "#1f4fd1",
    "current": "#111a2e",
    "suggested": "#1f4fd1",
    # Outcomes and money over quarters.
    "good": "#1e8e4f",
    "bad": "#c22a2a",
    "unknown": "#a0a9bb",
    "saved": "#1e8e4f",
    "fees": "#e8590c",
    "net": "#111a2e",
}
FONT = (
    'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Hiragino Sans GB", '
    '"Microsoft YaHei", "Noto Sans CJK SC", sans-serif'
)
HEIGHT = 340
SMALL_HEIGHT = 280


def layout(**extra: Any) -> dict[str, Any]:
    """The shared layout, with `extra` merged in (one level deep for dict values).

    The title is the card's caption in HTML (it wraps at phone width, SVG titles do not); the
    legend is a horizontal row above the plot, where rotated tick labels cannot hit it.
    """
    base: dict[str, Any] = {
        "font": {"family": FONT, "size": 12},
        "height": HEIGHT,
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02,
                   "yanchor": "bottom", "traceorder": "normal"},
        "margin": {"t": 36, "r": 12, "b": 40, "l": 52},
        "xaxis": {"automargin": True, "tickangle": 0},
        "yaxis": {"automargin": True, "rangemode": "tozero"},
        "hovermode": "closest",
    }
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return base


def plain(text: object) -> str:
    """A user's text (an offer or task name) as a chart shows it: literally.

    Plotly reads a subset of HTML in every label, legend and hover text (<a href>, <b>, <br>…),
    so an offer named '<a href="…">' would become a link inside the chart. Escaped, its markup
    characters show as typed.
    """
    return html.escape(str(text), quote=False)
