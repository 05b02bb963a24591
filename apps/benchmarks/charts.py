"""The scaling chart of a task's runs: GPUs against speedup, with the ideal (linear) line.

A plain Plotly figure dict in the product's one chart style (apps.web.charts), drawn by
static/js/app.js.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.web.charts import PALETTE, layout, plain


def _offer_name(record) -> str:
    """The offer's name as the chart shows it: literally (apps.web.charts.plain)."""
    offer = record.offer
    return plain(offer.name) if offer is not None else _("no offer")


def _ideal_trace(rows: list, name: str) -> dict[str, Any]:
    """Perfect scaling on one offer: y = x / GPUs of its own single run."""
    base_gpus = rows[0].baseline.gpus or 1
    ideal_x = sorted({base_gpus, *(row.record.gpus for row in rows)})
    return {
        "type": "scatter",
        "mode": "lines",
        "x": ideal_x,
        "y": [x / base_gpus for x in ideal_x],
        "name": _("Ideal on %(offer)s") % {"offer": name},
        "line": {"dash": "dash", "color": PALETTE["ideal_line"]},
        "hoverinfo": "skip",
    }


def _runs_trace(rows: list, name: str) -> dict[str, Any]:
    """One point per run, labelled with its offer and record number."""
    return {
        "type": "scatter",
        "mode": "markers+text",
        "x": [row.record.gpus for row in rows],
        "y": [round(row.speedup, 3) for row in rows],
        "name": name,
        "text": [f"{name} #{row.record.pk}" for row in rows],
        "textposition": "top center",
        "marker": {
            "size": 12,
            "color": [PALETTE[row.record.kind] for row in rows],
            "symbol": ["circle" if row.record.kind == "single" else "diamond" for row in rows],
        },
        "customdata": [[row.record.e2e_hours, row.record.nodes] for row in rows],
        # The name by reference: a user's text never becomes part of the template itself.
        "hovertemplate": (
            f"%{{fullData.name}}<br>{_('GPUs')}: %{{x}}<br>{_('speedup')}: %{{y:.2f}}×<br>"
            f"{_('end to end')}: %{{customdata[0]:.1f}} h<extra></extra>"
        ),
    }


def scaling_figure(runs: list) -> dict | None:
    """The figure; None without a run that has a baseline.

    SPEC 6.1 like for like: x = GPUs of each run, y = e2e of the fastest single run on the same
    offer ÷ e2e of the run; one trace per offer, every point labelled with its offer, and each
    offer's ideal line y = x / GPUs of its own single run (perfect scaling).
    """
    points = [row for row in runs if row.speedup is not None]
    if not points:
        return None
    by_offer: dict = {}
    for row in points:
        by_offer.setdefault(row.record.offer_id, []).append(row)
    data = []
    for rows in by_offer.values():
        name = _offer_name(rows[0].record)
        data += [_ideal_trace(rows, name), _runs_trace(rows, name)]
    return {
        "data": data,
        "layout": layout(
            xaxis={"title": {"text": _("GPUs")}, "rangemode": "tozero"},
            yaxis={
                "title": {"text": _("Speedup vs the fastest single run on the same offer (×)")}
            },
            height=380,
        ),
    }
