"""The recomputation of open reviews' snapshots after an engine upgrade (SPEC 6), in batches."""

from __future__ import annotations

import logging
from collections.abc import Callable

import engine
from apps.reviews.models import FINAL_STATES, Review, ReviewState
from apps.reviews.snapshots.models import EvaluationSnapshot

from .services import snapshot_compute

log = logging.getLogger(__name__)


RECOMPUTE_COUNTS = (
    "reviews", "outdated", "never_evaluated", "computed", "approved_kept", "rejected_kept",
    "failed",
)


def snapshot_recompute_batch(
    *,
    after_pk: int = 0,
    team_id: int | None = None,
    batch_size: int = 200,
    dry_run: bool = False,
) -> tuple[dict, int | None]:
    """One batch of the recomputation after an engine upgrade (SPEC 6): of the reviews with
    pk > `after_pk` (at most `batch_size`), every open one (draft, submitted, changes requested)
    whose latest snapshot was computed by another engine version, or that has none yet, gets a
    snapshot of its current inputs by the current engine, each in its own transaction
    (snapshot_compute). Decided reviews are left alone: an approved one keeps the snapshot it
    was signed on, a rejected one the figures it was rejected on.

    Returns the counts (`failed_reviews`: [review id, error] of the reviews the engine refused)
    and the last pk seen (None when nothing was left).
    """
    counts: dict = dict.fromkeys(RECOMPUTE_COUNTS, 0)
    counts["failed_reviews"] = []
    reviews = Review.objects.filter(pk__gt=after_pk)
    if team_id is not None:
        reviews = reviews.filter(team_id=team_id)
    batch = list(reviews.order_by("pk").values_list("pk", "state")[:batch_size])
    if not batch:
        return counts, None
    latest: dict[int, str] = {}
    for review_id, version in (
        EvaluationSnapshot.objects.filter(review_id__in=[pk for pk, _ in batch])
        .order_by("review_id", "-created_at", "-id")
        .values_list("review_id", "engine_version")
    ):
        latest.setdefault(review_id, version)
    counts["reviews"] = len(batch)
    for review_id, state in batch:
        version = latest.get(review_id)
        if version == engine.ENGINE_VERSION:
            continue  # already current
        if state in FINAL_STATES:
            if version is not None:
                key = "approved_kept" if state == ReviewState.APPROVED else "rejected_kept"
                counts[key] += 1
            continue
        counts["outdated" if version is not None else "never_evaluated"] += 1
        if dry_run:
            continue
        try:
            snapshot_compute(review_id=review_id)
        except engine.EngineInputError as exc:
            counts["failed"] += 1
            detail = "; ".join(f"{e['field'] or '(input)'}: {e['message']}" for e in exc.errors)
            counts["failed_reviews"].append([review_id, detail[:500]])
            log.warning("review %s cannot be evaluated: %s", review_id, exc.errors)
        else:
            counts["computed"] += 1
    return counts, batch[-1][0]


def snapshot_recompute_outdated(
    *,
    team_id: int | None = None,
    batch_size: int = 200,
    dry_run: bool = False,
    progress: Callable[[dict], None] | None = None,
) -> dict:
    """Every batch of snapshot_recompute_batch, walking reviews by primary-key ranges.

    Idempotent: a rerun (or a run after an interruption) finds the open reviews already computed
    by the current engine and skips them. `progress` is called after each batch with the totals.
    """
    totals: dict = dict.fromkeys(RECOMPUTE_COUNTS, 0)
    totals["failed_reviews"] = []
    after = 0
    while True:
        counts, last = snapshot_recompute_batch(
            after_pk=after, team_id=team_id, batch_size=batch_size, dry_run=dry_run
        )
        if last is None:
            break
        for key, value in counts.items():
            totals[key] += value
        after = last
        if progress is not None:
            progress({**totals, "last_review": last})
    return totals
