"""The task profile as a review shows it: the engine input's task, as label/value pairs (frozen
once the review is approved, so read from the input rather than the profile row)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .models import Cadence, Coupling, Workload


def task_summary(task: dict) -> list[tuple[str, str]]:
    """The profile as the engine saw it (frozen once approved), as label/value pairs."""
    if not task:
        return []

    def label_of(choices, value):
        try:
            return str(choices(value).label)
        except ValueError:
            return value or "—"

    def num(value, unit=""):
        if value is None:
            return "—"
        text = f"{value:,.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
        return f"{text} {unit}".strip()

    budgets = task.get("latency_budget_hours") or {}
    budget_text = " · ".join(
        f"{name} {num(budgets.get(key), 'h') if budgets.get(key) is not None else '∞'}"
        for key, name in (
            ("transfer", _("transfer")),
            ("queue", _("queue")),
            ("compute", _("compute")),
        )
    )
    return [
        (str(_("Workload")), label_of(Workload, task.get("workload"))),
        (str(_("Cadence")), label_of(Cadence, task.get("cadence"))),
        (str(_("Model")), f"{num(task.get('params_b'))} B · {task.get('precision', '')}"),
        (str(_("Planned GPUs")), num(task.get("gpus"))),
        (str(_("Coupling")), label_of(Coupling, task.get("coupling"))),
        (str(_("Compute")), num(task.get("compute_hours"), "h")),
        (
            str(_("Input / results")),
            f"{num(task.get('input_gb'), 'GB')} / {num(task.get('result_gb'), 'GB')}",
        ),
        (
            str(_("Sites (home · data · results)")),
            f"{task.get('home_site')} · {task.get('data_site')} · {task.get('result_site')}",
        ),
        (str(_("Latency budget")), budget_text),
    ]
