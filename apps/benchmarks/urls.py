from django.urls import path

from . import mlflow_views, views

app_name = "benchmarks"

urlpatterns = [
    path("", views.benchmark_list, name="list"),
    path("new/", views.benchmark_create, name="create"),
    path("import/", views.benchmark_import, name="import"),
    path("mlflow/", mlflow_views.mlflow_page, name="mlflow"),
    path("import/template.csv", views.benchmark_import_template, name="import_template"),
    path("tasks/<int:pk>/", views.task_comparison, name="task"),
    path("tokens/", views.token_list, name="tokens"),
    path("tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
    path("<int:pk>/", views.benchmark_detail, name="detail"),
    path("<int:pk>/edit/", views.benchmark_edit, name="edit"),
    path("<int:pk>/delete/", views.benchmark_delete, name="delete"),
    path("<int:pk>/apply/", views.probe_apply, name="apply_probe"),
]
