"""Calibration, step 3: the figures (Plotly JSON in the product's chart style, apps.web.charts)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.web.charts import PALETTE, SMALL_HEIGHT, layout, plain

from ..thresholds import show
from .outcomes import BAD, GOOD, UNKNOWN, TaskPoint

COLORS = {label: PALETTE[label] for label in (GOOD, BAD, UNKNOWN)}


def _outcome_names() -> dict[str, str]:
    return {GOOD: _("good"), BAD: _("bad"), UNKNOWN: _("unknown")}


def _vline(x: float, color: str, dash: str) -> dict[str, Any]:
    return {
        "type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
        "line": {"color": color, "width": 2, "dash": dash},
    }


def _line_label(x: float, text: str, color: str, y: float, anchor: str) -> dict[str, Any]:
    return {
        "x": x, "y": y, "xref": "x", "yref": "paper", "text": text, "showarrow": False,
        "font": {"color": color, "size": 11}, "xanchor": anchor, "yanchor": "bottom",
    }


def _dots(values: list[tuple[float, str, str]], names: dict[str, str]) -> list[dict[str, Any]]:
    """One trace per outcome: a dot per task at its indicator value."""
    data = []
    for label in (BAD, UNKNOWN, GOOD):
        dots = [(v, name) for v, lab, name in values if lab == label]
        if not dots:
            continue
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": names[label],
                "x": [v for v, _n in dots],
                "y": [names[label]] * len(dots),
                "text": [plain(n) for _v, n in dots],
                "hovertemplate": "%{text}<br>%{x:.3g}<extra></extra>",
                "marker": {
                    "color": COLORS[label], "size": 12, "opacity": 0.85,
                    "line": {"width": 1, "color": "#ffffff"},
                },
            }
        )
    return data


def _threshold_lines(current: float | None, suggested: float | None) -> tuple[list, list]:
    """The current (solid) and suggested (dashed) thresholds, each with its label."""
    shapes, annotations = [], []
    # The lower line's label leans left, the higher one's right, so the two never overlap.
    lower = suggested is not None and current is not None and suggested < current
    if current is not None:
        shapes.append(_vline(current, PALETTE["current"], "solid"))
        annotations.append(
            _line_label(current, _("current %(v)s") % {"v": show(current)}, PALETTE["current"], 1.0,
                        "left" if lower or suggested is None else "right")
        )
    if suggested is not None:
        shapes.append(_vline(suggested, PALETTE["suggested"], "dash"))
        annotations.append(
            _line_label(suggested, _("suggested %(v)s") % {"v": show(suggested)},
                        PALETTE["suggested"], 1.0, "right" if lower else "left")
        )
    return shapes, annotations


def strip_figure(
    values: list[tuple[float, str, str]],
    *,
    axis: str,
    current: float | None,
    suggested: float | None,
) -> dict[str, Any]:
    """One dot per task (x = the indicator, y = its outcome), with the threshold lines."""
    names = _outcome_names()
    shapes, annotations = _threshold_lines(current, suggested)
    return {
        "data": _dots(values, names),
        "layout": layout(
            height=SMALL_HEIGHT,
            showlegend=False,
            margin={"t": 28, "r": 16, "b": 48, "l": 72},
            xaxis={"title": {"text": axis}, "zeroline": False},
            yaxis={
                "type": "category",
                "categoryorder": "array",
                "categoryarray": [names[BAD], names[UNKNOWN], names[GOOD]],
                "rangemode": "normal",
            },
            shapes=shapes,
            annotations=annotations,
        ),
    }


def over_budget_figure(points: list[TaskPoint]) -> dict[str, Any]:
    """M3 has no team threshold: tasks by number of segments over budget, per outcome."""
    names = _outcome_names()
    buckets = ["0", "1", "2", "3"]
    data = []
    for label in (GOOD, BAD, UNKNOWN):
        counts = [0, 0, 0, 0]
        for p in points:
            if p.label == label:
                counts[min(len(p.over_budget), 3)] += 1
        if any(counts):
            data.append(
                {
                    "type": "bar", "name": names[label], "x": buckets, "y": counts,
                    "marker": {"color": COLORS[label]},
                    "hovertemplate": "%{y}<extra>%{fullData.name}</extra>",
                }
            )
    return {
        "data": data,
        "layout": layout(
            height=SMALL_HEIGHT,
            barmode="group",
            margin={"t": 28, "r": 16, "b": 48, "l": 56},
            xaxis={"title": {"text": _("segments over their latency budget")}, "type": "category"},
            yaxis={"title": {"text": _("tasks")}, "dtick": 1},
        ),
    }
