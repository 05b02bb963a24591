from django.urls import path

from . import views

app_name = "checklists"

urlpatterns = [
    path("reviews/<int:review_id>/", views.checklist_review, name="review"),
    path(
        "reviews/<int:review_id>/offers/<int:offer_id>/open/",
        views.open_questions,
        name="open_questions",
    ),
    path(
        "candidates/<int:candidate_id>/<str:question>/",
        views.checklist_answer,
        name="answer",
    ),
]
