from django.urls import path

from . import views, webhook_views

app_name = "teams"

urlpatterns = [
    path("settings/", views.team_settings, name="settings"),
    path("settings/members/add", views.member_add, name="member_add"),
    path("settings/members/<int:pk>/role", views.member_role, name="member_role"),
    path("settings/members/<int:pk>/remove", views.member_remove, name="member_remove"),
    path("settings/general", views.settings_general, name="settings_general"),
    path("settings/tiers", views.tier_toggle, name="tier_toggle"),
    path("settings/thresholds/set", views.threshold_set, name="threshold_set"),
    path("settings/thresholds/reset", views.threshold_reset, name="threshold_reset"),
    path("calibration/", views.calibration, name="calibration"),
    path("calibration/adopt", views.calibration_adopt, name="calibration_adopt"),
    # The team's webhooks keep the address they had under notifications/.
    path("notifications/webhooks/", webhook_views.webhook_list, name="webhooks"),
    path("notifications/webhooks/<int:pk>/", webhook_views.webhook_detail, name="webhook_detail"),
    path("notifications/webhooks/<int:pk>/test/", webhook_views.webhook_test, name="webhook_test"),
    path(
        "notifications/webhooks/<int:pk>/resume/", webhook_views.webhook_resume,
        name="webhook_resume",
    ),
    path(
        "notifications/webhooks/<int:pk>/delete/", webhook_views.webhook_delete,
        name="webhook_delete",
    ),
]
