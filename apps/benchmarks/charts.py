"""The scaling chart of a task's runs: GPUs against speedup, with the ideal (linear) line."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

COLORS = {"single": "#5f6b82", "multi": "#1f4fd1", "ideal": "#a0a9bb"}


def scaling_figure(runs: list, baseline) -> dict | None:
    """A Plotly figure as JSON-safe data; None without a single-machine run to compare against.

    x = GPUs of each run, y = e2e of the fastest single run ÷ e2e of the run; the ideal line is
    y = x / GPUs of that single run (perfect scaling).
    """
    points = [row for row in runs if row.speedup is not None]
    if baseline is None or not points:
        return None
    import plotly.graph_objects as go  # imported here: only this page needs it
    import plotly.io as pio

    base_gpus = baseline.gpus or 1
    top = max(row.record.gpus for row in points)
    ideal_x = sorted({base_gpus, top, *(row.record.gpus for row in points)})
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=ideal_x,
            y=[x / base_gpus for x in ideal_x],
            mode="lines",
            name=_("Ideal (linear scaling)"),
            line={"dash": "dash", "color": COLORS["ideal"]},
            hoverinfo="skip",
        )
    )
    for kind, label in (("single", _("Single machine")), ("multi", _("Multi-machine"))):
        rows = [row for row in points if row.record.kind == kind]
        if not rows:
            continue
        fig.add_trace(
            go.Scatter(
                x=[row.record.gpus for row in rows],
                y=[round(row.speedup, 3) for row in rows],
                mode="markers+text",
                name=label,
                text=[f"#{row.record.pk}" for row in rows],
                textposition="top center",
                marker={"size": 12, "color": COLORS[kind]},
                customdata=[[row.record.e2e_hours, row.record.nodes] for row in rows],
                hovertemplate=(
                    _("GPUs")
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
            "title": {"text": _("Speedup vs the fastest single run (×)")},
            "rangemode": "tozero",
        },
        legend={"orientation": "h", "y": -0.2},
        height=380,
    )
    return json.loads(pio.to_json(fig))
