"""Refusal reasons of the engine in the user's language, for the review and checklist views.

The two shapes of one URL and the answers to a conflict live in apps.web.htmx.
"""

from __future__ import annotations

from apps.scoring.templatetags.scoring import finding_message


def reason_texts(reasons: list[dict]) -> list[str]:
    """Refusal reasons in the user's language (the engine ships English and Chinese)."""
    return [finding_message(r) for r in reasons]
