"""The words of each kind of notification, in the reader's language (read when shown or mailed)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .models import Kind


def notification_text(kind: str, params: dict) -> str:
    values = {
        "actor": params.get("actor") or _("someone"),
        "review": params.get("review", ""),
        "quarter": params.get("quarter", ""),
        "team": params.get("team", ""),
        "url": params.get("url", ""),
        "excerpt": params.get("excerpt", ""),
        "offer": params.get("offer", ""),
        "mentioned": ", ".join(params.get("mentioned") or []) or _("someone"),
    }
    if kind == Kind.REVIEW_SUBMITTED:
        return _("%(actor)s submitted “%(review)s” for your decision.") % values
    if kind == Kind.DECISION_TAKEN:
        if params.get("decision") == "approved":
            return _("“%(review)s” is approved (last approval by %(actor)s).") % values
        return _("%(actor)s rejected “%(review)s”.") % values
    if kind == Kind.CHANGES_REQUESTED:
        return _("%(actor)s requested changes on “%(review)s”.") % values
    if kind == Kind.SNAPSHOT_STALE:
        return (
            _(
                "The figures of “%(review)s” changed after it was submitted: the decision is "
                "now taken on the new evaluation."
            )
            % values
        )
    if kind == Kind.QUARTERLY_READY:
        return _("The quarterly cost review of %(team)s for %(quarter)s is ready.") % values
    if kind == Kind.WEBHOOK_PAUSED:
        return (
            _(
                "The webhook %(url)s of %(team)s failed for a day and is paused: resume it once "
                "it answers."
            )
            % values
        )
    if kind == Kind.COMMENT_MENTION:
        if values["offer"]:
            return (
                _(
                    "%(actor)s mentioned %(mentioned)s about %(offer)s in “%(review)s”: "
                    "“%(excerpt)s”"
                )
                % values
            )
        return (
            _("%(actor)s mentioned %(mentioned)s in the discussion of “%(review)s”: “%(excerpt)s”")
            % values
        )
    return _("Something happened in %(team)s.") % values
