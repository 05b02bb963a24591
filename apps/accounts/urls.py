from django.urls import path
from django.views.generic import RedirectView

from . import invitation_views, views

app_name = "accounts"

urlpatterns = [
    path("", views.account_home, name="account"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("team/", views.team_switch, name="team_switch"),
    path("invitations/", invitation_views.invitation_list, name="invitations"),
    path(
        "invitations/<int:pk>/revoke/",
        invitation_views.invitation_revoke_view,
        name="invitation_revoke",
    ),
    path(
        "invitations/accept/<str:token>/",
        invitation_views.invitation_accept_view,
        name="invitation_accept",
    ),
    # The team's pages moved to apps.teams (/settings/, /calibration/): old bookmarks still land.
    path(
        "settings/", RedirectView.as_view(url="/settings/", permanent=True), name="settings_moved"
    ),
    path(
        "calibration/",
        RedirectView.as_view(url="/calibration/", permanent=True),
        name="calibration_moved",
    ),
]
