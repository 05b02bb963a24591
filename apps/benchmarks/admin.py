from django.contrib import admin

from .models import BenchmarkRecord


@admin.register(BenchmarkRecord)
class BenchmarkRecordAdmin(admin.ModelAdmin):
    list_display = ("id", "team", "task", "kind", "nodes", "gpus_per_node", "e2e_hours", "source",
                    "recorded_at")
    list_filter = ("kind", "source", "team")
    search_fields = ("idempotency_key", "notes", "task__name")
    raw_id_fields = ("task", "offer", "from_site", "to_site", "applied_to_link", "created_by")
