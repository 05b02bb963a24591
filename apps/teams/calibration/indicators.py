"""Calibration, step 4: the four indicators (SPEC M), each with its values, the current and
suggested team thresholds, the reasoning and the figure, as the page shows them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..thresholds import show
from .figures import over_budget_figure, strip_figure
from .outcomes import BAD, UNKNOWN, TaskPoint
from .suggestions import reasoning, suggest

# The four indicators: which figure of a task, which team threshold.
INDICATORS = (
    {
        "code": "M1", "attr": "data_compute_ratio", "key": "data_compute_high",
        "title": gettext_lazy("M1 · data/compute ratio"),
        "axis": gettext_lazy("input GB per compute hour"),
        "measure": gettext_lazy("data/compute ratio"),
    },
    {
        "code": "M2", "attr": "interruption_cost_hours", "key": "interruption_cost_hours",
        "title": gettext_lazy("M2 · interruption cost"),
        "axis": gettext_lazy("work lost by one interruption (hours)"),
        "measure": gettext_lazy("interruption cost"),
    },
    {
        "code": "M3", "attr": None, "key": None,
        "title": gettext_lazy("M3 · latency budget"),
        "axis": "",
        "measure": gettext_lazy("latency budget"),
    },
    {
        "code": "M4", "attr": "network_cost_share", "key": "network_cost_share",
        "title": gettext_lazy("M4 · network cost share"),
        "axis": gettext_lazy("transfer cost ÷ total cost of the chosen option"),
        "measure": gettext_lazy("network cost share"),
    },
)


def indicators(points: list[TaskPoint], current: dict[str, float]) -> list[dict[str, Any]]:
    """Per indicator: its values, the current and suggested thresholds, reasoning and figure."""
    out = []
    for spec in INDICATORS:
        code = spec["code"]
        title = str(spec["title"])
        item: dict[str, Any] = {"code": code, "title": title, "key": spec["key"],
                                "chart_id": f"calibration-{code.lower()}"}
        if spec["key"] is None:
            labelled = [p for p in points if p.label != UNKNOWN]
            item.update(
                {
                    "current": None,
                    "suggestion": None,
                    "reasoning": _(
                        "Latency budgets are set per task, so there is no team threshold to "
                        "calibrate. Of %(n)d labelled tasks, %(over)d had a segment over budget "
                        "(%(bad)d of them turned out bad)."
                    ) % {
                        "n": len(labelled),
                        "over": sum(1 for p in labelled if p.over_budget),
                        "bad": sum(1 for p in labelled if p.over_budget and p.label == BAD),
                    },
                    "figure": over_budget_figure(points),
                    "values": len(points),
                }
            )
            out.append(item)
            continue
        attr = spec["attr"]
        current_value = current[spec["key"]]
        values = [
            (getattr(p, attr), p.label, p.task_name) for p in points if getattr(p, attr) is not None
        ]
        suggestion = suggest([(v, lab) for v, lab, _n in values], current_value)
        item.update(
            {
                "current": current_value,
                "suggestion": suggestion,
                "reasoning": reasoning(suggestion, measure=str(spec["measure"]),
                                       current=current_value),
                "current_text": show(current_value),
                "suggested_text": show(suggestion.value),
                "figure": strip_figure(
                    values,
                    axis=str(spec["axis"]),
                    current=current_value,
                    suggested=suggestion.value,
                ),
                "values": len(values),
            }
        )
        out.append(item)
    return out
