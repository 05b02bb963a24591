from django.contrib import admin

from .models import TaskProfile


@admin.register(TaskProfile)
class TaskProfileAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "team",
        "workload",
        "cadence",
        "params_b",
        "compute_hours",
        "updated_at",
    ]
    list_filter = ["team", "workload", "cadence"]
    list_select_related = ["team"]
    search_fields = ["name"]
    raw_id_fields = ["data_site", "home_site", "result_site", "created_by"]
