"""Template helpers for showing the engine's findings and figures in the user's language."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language, gettext_lazy

import engine
from apps.reviews.snapshots import flips
from apps.reviews.snapshots.chart_labels import localize_figure
from apps.reviews.snapshots.exclusions import finding_text
from apps.web.labels import PLACEMENTS, PLATFORMS, REASONS, VERDICTS, label
from apps.web.rows import figure as _figure

register = template.Library()


@register.filter
def finding_message(finding: dict) -> str:
    """The finding's message in the current language (the engine ships English and Chinese)."""
    return finding_text(finding, get_language() or "en")


@register.filter
def flip_message(entry: dict) -> str:
    """A flip of the decision in the current language (SPEC 6.3), like finding_message."""
    return flips.flip_message(entry, get_language() or "en")


@register.filter
def nearest_flips(output: dict | None) -> list[dict]:
    return flips.nearest_flips(output)


@register.filter
def has_sensitivity(output: dict | None) -> bool:
    return flips.has_sensitivity(output)


@register.filter
def by_severity(findings: list[dict] | None, severity: str) -> list[dict]:
    return [f for f in findings or [] if f.get("severity") == severity]


# One formatting, three names, so templates say what a figure is.
money = register.filter("money", _figure)
hours = register.filter("hours", _figure)
number = register.filter("number", _figure)


def _signed(value, digits: int = 2) -> str:
    """A difference with its sign (+12.50, −3.00); "—" when there is none."""
    if value is None or value == "":
        return "—"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return "—"
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    return f"{sign}{abs(value):,.{int(digits)}f}"


signed_money = register.filter("signed_money", _signed)
signed_hours = register.filter("signed_hours", _signed)


@register.filter
def sort_value(value) -> str:
    """The data-value of a sortable cell: the raw number, empty when missing."""
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


def _tiers() -> dict[str, str]:
    from apps.catalog.models import Tier

    return {value: str(label) for value, label in Tier.choices}


@register.filter
def placement_label(value) -> str:
    return label(PLACEMENTS, value)


@register.filter
def verdict_label(value) -> str:
    return label(VERDICTS, value)


@register.filter
def tier_label(value) -> str:
    return label(_tiers(), value)


@register.filter
def platform_label(value) -> str:
    return label(PLATFORMS, value)


@register.filter
def reason_label(value) -> str:
    return label(REASONS, value)


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
    return localize_figure(figure)


@register.simple_tag
def chart_id(name: str, pk) -> str:
    return f"chart-{name}-{pk}"


# Issue 15, readable money: a price always says its billing basis, and beside it the effective
# GPU-hour price the engine compares (SPEC P, 口径对齐).
BASIS_UNITS = {
    "gpu_hour": gettext_lazy("per GPU-hour"),
    "machine_hour": gettext_lazy("per machine-hour"),
    "contract": gettext_lazy("per contract package"),
}


@register.simple_tag
def offer_price(offer) -> dict:
    """{price, basis, unit, effective} of an offer: a catalog Offer or an engine input offer
    (a review shows the prices it was evaluated with). `effective` is None when the terms are
    incomplete, and equals `price` on the GPU-hour basis."""
    def get(key):
        return offer.get(key) if isinstance(offer, dict) else getattr(offer, key, None)

    basis = get("billing_basis") or "gpu_hour"
    price = get("price")
    try:
        effective = engine.effective_gpu_hour_price(
            basis, float(price), int(get("gpus_per_machine") or 1),
            get("contract_hours"), get("expected_utilization"),
        )
    except (TypeError, ValueError, ZeroDivisionError):
        effective = None
    return {"price": price, "basis": basis, "unit": BASIS_UNITS.get(basis, ""),
            "effective": effective}
