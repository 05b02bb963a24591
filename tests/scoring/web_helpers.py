"""What the scoring page tests share (the world and snapshot fixtures are in conftest.py): the
evaluation block's URL and cloned snapshots for query counts that must not grow with rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.urls import reverse

from apps.reviews.snapshots.models import EvaluationSnapshot

HX = {"HTTP_HX_REQUEST": "true"}


def evaluation_url(review) -> str:
    return reverse("scoring:review_evaluation", args=[review.pk])


def clone_snapshots(snapshot: EvaluationSnapshot, count: int, start=None) -> None:
    """`count` more snapshots of the same review (distinct fingerprints), one hour apart."""
    start = start or datetime(2026, 1, 1, tzinfo=UTC)
    first = EvaluationSnapshot.objects.count()
    fields = {
        f.attname: getattr(snapshot, f.attname)
        for f in EvaluationSnapshot._meta.concrete_fields
        if f.attname not in {"id", "fingerprint", "created_at"}
    }
    made = EvaluationSnapshot.objects.bulk_create(
        [EvaluationSnapshot(fingerprint=f"clone-{first + i:058d}", **fields) for i in range(count)]
    )
    for i, clone in enumerate(made):
        clone.created_at = start + timedelta(hours=i)
    EvaluationSnapshot.objects.bulk_update(made, ["created_at"])
