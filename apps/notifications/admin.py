from django.contrib import admin

from .models import Notification, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "recipient", "team", "kind", "read_at")
    list_filter = ("kind", "team")
    search_fields = ("recipient__username", "event_key")
    readonly_fields = ("recipient", "team", "kind", "event_key", "params", "url", "created_at")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "inbox", "email")
    list_filter = ("kind",)
