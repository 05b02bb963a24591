from django.urls import path

from . import views

app_name = "method"

urlpatterns = [
    path("", views.index, name="index"),
    # Rule ids hold letters, digits and "-" ("R-mod"); tier codes hold "_" ("cross_hub").
    path("<slug:entry_id>/", views.entry, name="entry"),
]
