"""Template helpers for showing the engine's findings and figures in the user's language."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

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


@register.filter
def money(value, digits: int = 2) -> str:
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):,.{int(digits)}f}"
    except (TypeError, ValueError):
        return "—"


@register.filter
def hours(value, digits: int = 2) -> str:
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):,.{int(digits)}f}"
    except (TypeError, ValueError):
        return "—"
