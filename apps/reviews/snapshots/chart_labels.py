"""The labels of stored Plotly figures and their translation at render time.

A snapshot's figures (apps.reviews.snapshots.charts) store keys, not words, so one snapshot
serves both languages: a string "@key" becomes the translation of key, and "@key|rest" becomes the
translation of key followed by rest (used for option labels: "@wait_local|<br>Offer @ site").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def figure_labels() -> dict[str, str]:
    """The translation of every \"@key\" a stored figure may hold, in the active language."""
    return {
        "transfer": _("Transfer"),
        "queue": _("Queue"),
        "compute": _("Compute"),
        "scheduling": _("Scheduling"),
        "rerun": _("Rerun cost"),
        "preemption": _("Preemption"),
        "preprocess": _("Preprocessing"),
        "scheduler_ops": _("Scheduler upkeep"),
        "hours": _("Hours"),
        "cost": _("Cost"),
        "hours_by_segment": _("Hours by segment per option"),
        "cost_by_component": _("Cost by component per option"),
        "objective_parts": _("What decides: cost + delay cost × hours per option"),
        "placement_cost_part": _("Cost of the placement"),
        "delay_cost_part": _("Delay cost × hours"),
        "excluded_hover": " · " + _("excluded"),
        "scaling": _("Scaling: GPUs against speedup"),
        "ideal": _("Ideal (linear)"),
        "measured": _("Measured"),
        "gpus": _("GPUs"),
        "speedup": _("Speedup"),
        "indicators": _("The four indicators against their thresholds"),
        "value": _("Value"),
        "threshold": _("Threshold"),
        "of_threshold": _("× threshold"),
        "M1": "M1<br>" + _("data:compute"),
        "M2": "M2<br>" + _("interruption"),
        "M3": "M3<br>" + _("latency"),
        "M4": "M4<br>" + _("network share"),
        "task_history": _("The task's chosen option across snapshots"),
        "total_cost": _("Total cost"),
        "total_hours": _("Total hours"),
        "quarterly": _("Quarterly cost review"),
        "compute_saved": _("Compute cost variance"),
        "transfer_fees": _("Extra transfer fees"),
        "net": _("Net"),
        "wait_local": _("Wait locally"),
        "move_compute": _("Move compute to the data"),
        "move_data": _("Move the data"),
        "short_wait_local": _("Wait locally"),
        "short_move_compute": _("Move compute"),
        "short_move_data": _("Move data"),
    }


def localize_figure(figure: Any, labels: dict[str, str] | None = None) -> Any:
    """Replace "@key" (and "@key|rest") strings by their translation in the active language."""
    labels = labels if labels is not None else figure_labels()
    if isinstance(figure, dict):
        return {k: localize_figure(v, labels) for k, v in figure.items()}
    if isinstance(figure, list):
        return [localize_figure(v, labels) for v in figure]
    if isinstance(figure, str) and figure.startswith("@"):
        key, sep, rest = figure[1:].partition("|")
        return labels.get(key, key) + rest
    return figure
