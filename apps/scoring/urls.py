from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path(
        "reviews/<int:review_id>/evaluation",
        views.review_evaluation,
        name="review_evaluation",
    ),
    path("reviews/<int:review_id>/record/", views.review_record, name="review_record"),
    path("history/", views.history, name="history"),
    path("history/filter-options/", views.history_options, name="history_options"),
    path("snapshots/<int:pk>/", views.snapshot_detail, name="snapshot_detail"),
    path("snapshots/<int:pk>/comparison.csv", views.snapshot_csv, name="snapshot_csv"),
    path("snapshots/<int:pk>/comparison.xlsx", views.snapshot_xlsx, name="snapshot_xlsx"),
    path("snapshots/<int:pk>/skypilot.yaml", views.snapshot_skypilot, name="snapshot_skypilot"),
    path("compare/", views.compare, name="compare"),
    path("quarterly/", views.quarterly, name="quarterly"),
    path("quarterly/refresh", views.quarterly_refresh, name="quarterly_refresh"),
]
