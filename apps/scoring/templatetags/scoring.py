"""Template helpers for showing the engine's findings and figures in the user's language."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def finding_message(finding: dict) -> str:
    """The finding's message in the current language (the engine ships English and Chinese)."""
    if (get_language() or "en").lower().startswith("zh"):
        return finding.get("message_zh") or finding.get("message", "")
    return finding.get("message", "")


@register.filter
def by_severity(findings: list[dict] | None, severity: str) -> list[dict]:
    return [f for f in findings or [] if f.get("severity") == severity]


def _figure(value, digits: int = 2) -> str:
    """A figure with thousands separators and `digits` decimals; "—" when there is none."""
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):,.{int(digits)}f}"
    except (TypeError, ValueError):
        return "—"


# One formatting, three names, so templates say what a figure is.
money = register.filter("money", _figure)
hours = register.filter("hours", _figure)
number = register.filter("number", _figure)


@register.filter
def sort_value(value) -> str:
    """The data-value of a sortable cell: the raw number, empty when missing."""
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


def _placements() -> dict[str, str]:
    return {
        "wait_local": _("Wait locally"),
        "move_compute": _("Move compute to the data"),
        "move_data": _("Move the data"),
        "single": _("Benchmark: single machine"),
        "multi": _("Benchmark: multi-machine"),
    }


def _verdicts() -> dict[str, str]:
    return {
        "chosen": _("chosen"),
        "feasible": _("feasible"),
        "infeasible": _("not feasible"),
        "over_budget": _("over the latency budget"),
        "net_gain": _("net gain"),
        "no_net_gain": _("no net gain"),
        "baseline": _("baseline"),
    }


def _tiers() -> dict[str, str]:
    from apps.catalog.models import Tier

    return {value: str(label) for value, label in Tier.choices}


def _platforms() -> dict[str, str]:
    return {
        "compute_platform": _("Compute platform"),
        "distributed_platform": _("Distributed computing platform"),
        "both": _("Both layers"),
        "baseline_first": _("Measure a baseline first"),
        "not_feasible": _("Not feasible"),
    }


def _reasons() -> dict[str, str]:
    return {
        # Engine 2.x reasons (SPEC 6.1).
        "pool_too_small": _("the pool has fewer GPUs than the plan (max machines × GPUs)"),
        "no_shared_parallelism": _("no strategy in common with the task to split or spread it"),
        "compliance_site": _("compliance: the data may not be processed at this site"),
        "compliance_moves_data": _("compliance: the input data may not move here"),
        "compliance_moves_results": _("compliance: the results may not leave the allowed sites"),
        "not_eligible": _("outside the home datacenter, and the task must stay in its domain"),
        "no_link": _("no network link recorded for a transfer"),
        # Engine 1.x reasons, still shown on snapshots signed under 1.x.
        "exceeds_max_machines": _("needs more machines than the offer has"),
        "tier_not_allowed": _("the task's coupling does not allow this tier"),
    }


def _label(table: dict[str, str], value) -> str:
    if value in (None, ""):
        return ""
    return table.get(str(value), str(value))


@register.filter
def placement_label(value) -> str:
    return _label(_placements(), value)


@register.filter
def verdict_label(value) -> str:
    return _label(_verdicts(), value)


@register.filter
def tier_label(value) -> str:
    return _label(_tiers(), value)


@register.filter
def platform_label(value) -> str:
    return _label(_platforms(), value)


@register.filter
def reason_label(value) -> str:
    return _label(_reasons(), value)


@register.filter
def state_label(value) -> str:
    from apps.reviews.models import ReviewState

    try:
        return str(ReviewState(value).label)
    except ValueError:
        return str(value or "")


@register.filter
def localized(figure):
    """A stored figure with its "@key" labels in the active language."""
    from apps.scoring.charts import localize_figure

    return localize_figure(figure)


@register.simple_tag
def chart_id(name: str, pk) -> str:
    return f"chart-{name}-{pk}"
