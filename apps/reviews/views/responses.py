"""Refusal reasons of the engine in the user's language, for the review and checklist views.

The two shapes of one URL and the answers to a conflict live in apps.web.htmx.
"""

from __future__ import annotations

from django.utils.translation import get_language

from apps.reviews.snapshots.exclusions import finding_text


def reason_texts(reasons: list[dict]) -> list[str]:
    """Refusal reasons in the user's language (the engine ships English and Chinese)."""
    return [finding_text(r, get_language() or "en") for r in reasons]
