from django.contrib import admin

from .models import NetworkLink, Offer, Site


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "team", "datacenter", "city", "hub", "queue_hours"]
    list_filter = ["team", "hub"]
    search_fields = ["code", "name", "city"]


@admin.register(NetworkLink)
class NetworkLinkAdmin(admin.ModelAdmin):
    list_display = ["__str__", "team", "bandwidth_gbps", "rtt_ms", "price_per_gb", "reservable"]
    list_filter = ["team", "reservable"]
    list_select_related = ["from_site", "to_site", "team"]


@admin.register(Offer)
class OfferAdmin(admin.ModelAdmin):
    list_display = ["name", "provider", "team", "kind", "site", "billing_basis", "price"]
    list_filter = ["team", "kind", "billing_basis"]
    list_select_related = ["site", "team"]
    search_fields = ["name", "provider", "gpu_model"]
