from django.urls import path

from . import views

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
]
