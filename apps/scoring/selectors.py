"""Reads of the scoring app."""

from __future__ import annotations

from apps.reviews.models import Review
from apps.scoring import services
from apps.scoring.models import EvaluationSnapshot, SnapshotJob


def review_evaluation(review: Review, *, request_if_missing: bool = True) -> dict:
    """What a review page shows of its evaluation.

    `snapshot`: the snapshot of the current inputs (None while it is being computed);
    `latest`: the newest snapshot (possibly stale); `job`: the job computing the current one;
    `stale`: the newest snapshot no longer matches the inputs.
    """
    snapshot = services.current_snapshot(review)
    latest = snapshot or services.latest_snapshot(review)
    job = None
    if snapshot is None:
        job = (
            services.snapshot_request(review=review)
            if request_if_missing
            else SnapshotJob.objects.filter(review=review).order_by("-created_at").first()
        )
        # In eager mode (no broker) the job has already run; look again.
        snapshot = services.current_snapshot(review)
        if snapshot is not None:
            latest = snapshot
        elif job is not None:
            job.refresh_from_db()
    return {
        "snapshot": snapshot,
        "latest": latest,
        "job": job if snapshot is None else None,
        "stale": snapshot is None and latest is not None,
        "review": review,
    }


def snapshot_for_user(user, pk: int) -> EvaluationSnapshot:
    from apps.accounts.access import get_scoped_or_404

    return get_scoped_or_404(
        EvaluationSnapshot.objects.select_related("review", "task", "team"), user, pk=pk
    )
