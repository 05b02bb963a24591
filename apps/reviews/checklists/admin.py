from __future__ import annotations

from django.contrib import admin

from apps.reviews.admin import FinalReviewGuard

from .models import ChecklistAnswer


@admin.register(ChecklistAnswer)
class ChecklistAnswerAdmin(FinalReviewGuard):
    list_display = ("candidate", "question", "status", "updated_by", "updated_at")
    list_filter = ("question", "status")
    raw_id_fields = ("candidate", "evidence_benchmark", "updated_by")

    def review_of(self, obj):
        return obj.candidate.review
