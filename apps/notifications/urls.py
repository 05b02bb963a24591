from django.urls import path

from . import views, webhook_views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("read-all/", views.mark_all_read, name="read_all"),
    path("preferences/", views.preferences, name="preferences"),
    path("<int:pk>/", views.open_notification, name="open"),
    path("<int:pk>/read/", views.mark_read, name="read"),
    path("webhooks/", webhook_views.webhook_list, name="webhooks"),
    path("webhooks/<int:pk>/", webhook_views.webhook_detail, name="webhook_detail"),
    path("webhooks/<int:pk>/test/", webhook_views.webhook_test, name="webhook_test"),
    path("webhooks/<int:pk>/resume/", webhook_views.webhook_resume, name="webhook_resume"),
    path("webhooks/<int:pk>/delete/", webhook_views.webhook_delete, name="webhook_delete"),
]
