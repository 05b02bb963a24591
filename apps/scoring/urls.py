from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path(
        "reviews/<int:review_id>/evaluation",
        views.review_evaluation,
        name="review_evaluation",
    ),
]
