"""Admin for reviews: read-only once a review is final, and audit events never editable."""

from __future__ import annotations

from django.contrib import admin

from .checklists.models import ChecklistAnswer
from .models import FINAL_STATES, AuditEvent, Candidate, Review, SignOff

# The admin of snapshots and jobs (read-only) registers itself beside the review's.
from .snapshots import admin as snapshots_admin  # noqa: F401


def review_is_final(review: Review | None) -> bool:
    return review is not None and review.state in FINAL_STATES


class FinalReviewGuard(admin.ModelAdmin):
    """Refuse change and delete of an approved or rejected review and of its parts."""

    def review_of(self, obj) -> Review | None:
        return getattr(obj, "review", None)

    def has_change_permission(self, request, obj=None):
        if obj is not None and review_is_final(self.review_of(obj)):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and review_is_final(self.review_of(obj)):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Review)
class ReviewAdmin(FinalReviewGuard):
    list_display = ("title", "team", "state", "author", "round", "approvals_required", "updated_at")
    list_filter = ("state", "team")
    search_fields = ("title", "task__name")
    raw_id_fields = ("task", "author", "cloned_from")
    readonly_fields = ("version", "inputs_generation", "frozen_input", "created_at", "updated_at")
    filter_horizontal = ("reserved_links",)

    def review_of(self, obj):
        return obj


@admin.register(Candidate)
class CandidateAdmin(FinalReviewGuard):
    list_display = ("review", "offer", "machines", "position")
    raw_id_fields = ("review", "offer")


@admin.register(SignOff)
class SignOffAdmin(FinalReviewGuard):
    list_display = ("review", "reviewer", "decision", "round", "created_at")
    list_filter = ("decision",)
    raw_id_fields = ("review", "reviewer", "snapshot")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Append-only: readable, never changed or deleted (the database refuses it too)."""

    list_display = ("created_at", "team", "review", "actor", "action", "target")
    list_filter = ("action", "team")
    search_fields = ("target", "review__title")
    raw_id_fields = ("review", "actor")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChecklistAnswer)
class ChecklistAnswerAdmin(FinalReviewGuard):
    list_display = ("candidate", "question", "status", "updated_by", "updated_at")
    list_filter = ("question", "status")
    raw_id_fields = ("candidate", "evidence_benchmark", "updated_by")

    def review_of(self, obj):
        return obj.candidate.review
