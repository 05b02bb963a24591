"""Admin: the quarterly figures are read-only (apps/reviews/snapshots/admin.py: snapshots, jobs)."""

from __future__ import annotations

from django.contrib import admin

from apps.reviews.snapshots.admin import ReadOnlyAdmin

from .models import QuarterlyCostReview


@admin.register(QuarterlyCostReview)
class QuarterlyCostReviewAdmin(ReadOnlyAdmin):
    list_display = ("team", "quarter", "reviews_counted", "compute_saved", "transfer_fees", "net",
                    "computed_at")
    list_filter = ("team",)
