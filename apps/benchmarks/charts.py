"""The scaling chart of a task's runs: GPUs against speedup, with the ideal (linear) line."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

COLORS = {"single": "#5f6b82", "multi": "#1f4fd1", "ideal": "#a0a9bb"}


def _offer_name(record) -> str:
    offer = record.offer
    return offer.name if offer is not None else _("no offer")


def scaling_figure(runs: list) -> dict | None:
    """A Plotly figure as JSON-safe data; None without a run that has a baseline.

    SPEC 6.1 like for like: x = GPUs of each run, y = e2e of the fastest single run on the same
    offer ÷ e2e of the run; one trace per offer, every point labelled with its offer, and each
    offer's ideal line y = x / GPUs of its own single run (perfect scaling).
    """
    points = [row for row in runs if row.speedup is not None]
    if not points:
        return None
    import plotly.graph_objects as go  # imported here: only this page needs it
    import plotly.io as pio

    by_offer: dict = {}
    for row in points:
        by_offer.setdefault(row.record.offer_id, []).append(row)
    fig = go.Figure()
    for rows in by_offer.values():
        name = _offer_name(rows[0].record)
        base_gpus = rows[0].baseline.gpus or 1
        ideal_x = sorted({base_gpus, *(row.record.gpus for row in rows)})
        fig.add_trace(
            go.Scatter(
                x=ideal_x,
                y=[x / base_gpus for x in ideal_x],
                mode="lines",
                name=_("Ideal on %(offer)s") % {"offer": name},
                line={"dash": "dash", "color": COLORS["ideal"]},
                hoverinfo="skip",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[row.record.gpus for row in rows],
                y=[round(row.speedup, 3) for row in rows],
                mode="markers+text",
                name=name,
                text=[f"{name} #{row.record.pk}" for row in rows],
                textposition="top center",
                marker={
                    "size": 12,
                    "color": [COLORS[row.record.kind] for row in rows],
                    "symbol": [
                        "circle" if row.record.kind == "single" else "diamond" for row in rows
                    ],
                },
                customdata=[[row.record.e2e_hours, row.record.nodes] for row in rows],
                hovertemplate=(
                    name
                    + "<br>"
                    + _("GPUs")
                    + ": %{x}<br>"
                    + _("speedup")
                    + ": %{y:.2f}×<br>"
                    + _("end to end")
                    + ": %{customdata[0]:.1f} h<extra></extra>"
                ),
            )
        )
    fig.update_layout(
        template="plotly_white",
        title={"text": _("Scaling: speedup against GPUs")},
        xaxis={"title": {"text": _("GPUs")}, "rangemode": "tozero"},
        yaxis={
            "title": {"text": _("Speedup vs the fastest single run on the same offer (×)")},
            "rangemode": "tozero",
        },
        legend={"orientation": "h", "y": -0.2},
        height=380,
    )
    return json.loads(pio.to_json(fig))
