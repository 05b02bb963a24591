from django.contrib import admin

from .models import ActualCost, ActualsSettings


@admin.register(ActualCost)
class ActualCostAdmin(admin.ModelAdmin):
    list_display = ("id", "team", "review", "period", "compute_cost", "transfer_cost", "source")
    list_filter = ("source", "team")
    raw_id_fields = ("review", "created_by")


admin.site.register(ActualsSettings)
