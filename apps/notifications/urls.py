from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("read-all/", views.mark_all_read, name="read_all"),
    path("preferences/", views.preferences, name="preferences"),
    path("<int:pk>/", views.open_notification, name="open"),
    path("<int:pk>/read/", views.mark_read, name="read"),
]
