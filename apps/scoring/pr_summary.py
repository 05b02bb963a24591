"""A review's decision as a short summary for a pull request or a chat (issue 40): the decision,
the chosen option against the runner-up with total cost and hours, the nearest flips, the open
blocks, the sign-offs and a link. In JSON for a program, in Markdown (templates/scoring/
pr_summary.md) for a CI job to post as a comment.

It picks from what the review page's glance shows (apps.reviews.snapshots.glance): the same
rows, the same runner-up, the same flips; no figure is computed here. `evaluation_summary` does
the same for an engine input and output that no review holds
(POST /api/v1/evaluate?format=markdown).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from apps.reviews import selectors as review_selectors
from apps.reviews.models import Review, ReviewState
from apps.reviews.snapshots import exclusions, flips, glance
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.services import signed_snapshot
from apps.reviews.snapshots.tables import comparison_rows
from apps.web.labels import PLATFORMS, label

LISTED = 8  # blocks and sign-offs listed before "… and N more": the summary stays under 60 lines


def _option(row: dict | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "offer": str(row.get("offer")),
        "offer_label": row.get("offer_label"),
        "placement": row.get("placement"),
        "site": row.get("site"),
        "total_cost": row.get("total_cost"),
        "total_hours": row.get("total_hours"),
    }


def _decision(rows: list[dict], output: dict, data: dict | None) -> dict[str, Any]:
    """What the engine decided, from a snapshot's rows or rows built from an evaluation."""
    language = get_language() or "en"
    excluded = exclusions.excluded_options(rows, output, data, language)
    picked = glance.decision_glance(exclusions.annotate_rows(rows, excluded, output), [], output)
    blocks = [f for f in output.get("findings", []) if f.get("severity") == "block"]
    return {
        "platform": output.get("platform", ""),
        "platform_label": label(PLATFORMS, output.get("platform")),
        "platform_rule": output.get("platform_rule", ""),
        "chosen": _option(picked["chosen"]),
        "runner_up": _option(picked["runner_up"]),
        "runner_cost_delta": picked["runner_cost_delta"],
        "runner_hours_delta": picked["runner_hours_delta"],
        "flips": [
            {
                "rank": e["rank"],
                "input": e["input"],
                "flips_at": e["flips_at"],
                "message": flips.flip_message(e, language),
            }
            for e in flips.nearest_flips(output)
        ],
        "open_blocks": [
            {
                "rule": f["rule"],
                "offer": f.get("offer"),
                "message": exclusions.finding_text(f, language),
            }
            for f in blocks
        ],
    }


def _latest(review: Review) -> EvaluationSnapshot | None:
    return signed_snapshot(review) or review.snapshots.select_related("team").first()


def review_summary(review: Review) -> dict[str, Any]:
    """The summary of a review: its signed snapshot once approved, else its newest one (`current`
    says whether that snapshot saw the review's present inputs)."""
    snapshot = _latest(review)
    url = settings.SITE_URL + reverse("reviews:detail", args=[review.pk])
    signoffs = review_selectors.review_signoffs(review)
    summary: dict[str, Any] = {
        "review": {
            "id": review.pk,
            "title": review.title,
            "state": review.state,
            "state_label": ReviewState(review.state).label,
            "round": review.round,
            "approvals_required": review.approvals_required,
            "url": url,
        },
        "currency": review.team.currency,
        "snapshot": None,
        "signoffs": [
            {
                "reviewer": s.reviewer.get_username(),
                "decision": s.decision,
                "decision_label": s.get_decision_display(),
                "round": s.round,
                "comment": s.comment,
                "at": s.created_at.isoformat(),
            }
            for s in signoffs
        ],
    }
    if snapshot is None:
        return summary
    summary["snapshot"] = {
        "id": snapshot.pk,
        "engine_version": snapshot.engine_version,
        "signed": review.state == ReviewState.APPROVED,
        "current": snapshot.inputs_generation == review.inputs_generation,
        "created_at": snapshot.created_at.isoformat(),
    }
    summary.update(_decision(snapshot.table_rows or [], snapshot.output or {}, snapshot.input))
    return summary


def evaluation_summary(data: dict, output: dict, *, currency: str = "") -> dict[str, Any]:
    """The same summary for an engine input and its output (a job spec a CI job evaluates)."""
    return {
        "review": None,
        "currency": currency,
        "snapshot": None,
        "signoffs": [],
        **_decision(comparison_rows(data, output), output, data),
    }


_MARKUP = re.compile(r"([\\`*_{}\[\]<>|#@!~])")
COMMENT_CHARS = 200


def md(text: Any, limit: int | None = None) -> str:
    """User or engine text as one line of Markdown that shows as typed: markup characters
    escaped (a `|` would break the table, an `@` would ping someone on GitHub), cut to `limit`."""
    line = " ".join(str(text or "").split())
    if limit is not None and len(line) > limit:
        line = line[: limit - 1] + "…"
    return _MARKUP.sub(r"\\\1", line)


def _md_option(option: dict | None) -> dict | None:
    if option is None:
        return None
    return {**option, "offer_label": md(option["offer_label"]), "site": md(option["site"])}


def summary_markdown(summary: dict[str, Any]) -> str:
    """The summary as GitHub-flavoured Markdown, in the active language."""
    blocks = [{**f, "message": md(f["message"])} for f in summary.get("open_blocks", [])]
    signoffs = [
        {**s, "reviewer": md(s["reviewer"]), "comment": md(s["comment"], COMMENT_CHARS)}
        for s in summary["signoffs"]
    ]
    review = summary["review"]
    context = {
        **summary,
        "review": {**review, "title": md(review["title"])} if review else None,
        "chosen": _md_option(summary.get("chosen")),
        "runner_up": _md_option(summary.get("runner_up")),
        "flips": [{**e, "message": md(e["message"])} for e in summary.get("flips", [])],
        "open_blocks": blocks,
        "blocks_shown": blocks[:LISTED],
        "blocks_more": max(0, len(blocks) - LISTED),
        "signoffs_shown": signoffs[-LISTED:],
        "signoffs_more": max(0, len(signoffs) - LISTED),
    }
    text = render_to_string("scoring/pr_summary.txt", context)
    lines = [line.rstrip() for line in text.splitlines()]
    # Template tags leave blank lines; Markdown needs one between blocks, never two.
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip() + "\n"
