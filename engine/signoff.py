"""SPEC S: whether a reviewer may sign off a candidate of a review."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .messages import render


def _reason(code: str, data: dict[str, Any]) -> dict[str, Any]:
    message, message_zh = render(f"S.{code}", data)
    return {"rule": "S", "code": code, "message": message, "message_zh": message_zh, "data": data}


def signoff_check(
    output: dict[str, Any],
    *,
    offer_id: Any,
    author_id: Any,
    reviewer_id: Any,
    previous_decider_ids: Iterable[Any],
    snapshot_is_latest: bool,
) -> dict[str, Any]:
    """SPEC S: refuse while a block finding stands for the candidate, for the review's author,
    for a reviewer who already decided, and on a stale snapshot. Every reason is listed."""
    offer = str(offer_id)
    reasons: list[dict[str, Any]] = []
    for f in output.get("findings", []):
        if f["severity"] == "block" and f.get("offer") in (None, offer):
            data = {"rule": f["rule"], "finding": f["message"], "offer": f.get("offer")}
            reason = _reason("block_finding", data)
            # The finding's own Chinese text reads better than its English inside a Chinese line.
            reason["message_zh"] = render(
                "S.block_finding", {**data, "finding": f.get("message_zh", f["message"])}
            )[1]
            reasons.append(reason)
    reviewer = str(reviewer_id)
    if reviewer == str(author_id):
        reasons.append(_reason("self_approval", {"reviewer": reviewer}))
    if reviewer in {str(d) for d in previous_decider_ids}:
        reasons.append(_reason("already_decided", {"reviewer": reviewer}))
    if not snapshot_is_latest:
        reasons.append(_reason("stale_snapshot", {}))
    return {"allowed": not reasons, "reasons": reasons}
