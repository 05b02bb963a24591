"""Admin: snapshots and jobs are read-only (a snapshot is never changed)."""

from __future__ import annotations

from django.contrib import admin

from .models import EvaluationSnapshot, SnapshotJob


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(EvaluationSnapshot)
class EvaluationSnapshotAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "created_at", "team", "review", "task", "platform", "chosen_kind",
        "chosen_total_cost", "block_count", "warn_count", "engine_version",
    )
    list_filter = ("team", "engine_version", "platform", "review_state")
    search_fields = ("review__title", "task__name", "fingerprint", "input_hash")
    list_select_related = ("team", "review", "task")
    date_hierarchy = "created_at"
    show_full_result_count = False


@admin.register(SnapshotJob)
class SnapshotJobAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "updated_at", "team", "review", "status", "attempts",
                    "snapshot")
    list_filter = ("status", "team")
    list_select_related = ("team", "review")
    search_fields = ("review__title", "error")
