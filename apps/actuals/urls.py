from django.urls import path

from . import views

app_name = "actuals"

urlpatterns = [
    path("", views.actual_list, name="list"),
    path("new/", views.actual_create, name="create"),
    path("import/", views.actual_import, name="import"),
    path("import/template.csv", views.actual_import_template, name="import_template"),
    path("bill/", views.bill_import, name="bill"),
    path("bill/settings/", views.bill_settings_set, name="bill_settings"),
    path("threshold/", views.threshold_set, name="threshold"),
    path("notice/<int:pk>/", views.over_plan_notice, name="notice"),
    path("<int:pk>/edit/", views.actual_edit, name="edit"),
    path("<int:pk>/delete/", views.actual_delete, name="delete"),
]
