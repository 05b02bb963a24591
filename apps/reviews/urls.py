from django.urls import path

from . import views

app_name = "reviews"

urlpatterns = [
    path("", views.review_list, name="list"),
    path("new/", views.review_create, name="create"),
    path("approvals/", views.approvals, name="approvals"),
    path("<int:pk>/", views.review_detail, name="detail"),
    path("<int:pk>/edit/", views.review_edit, name="edit"),
    path("<int:pk>/candidates/", views.review_candidates, name="candidates"),
    path("<int:pk>/submit/", views.review_submit, name="submit"),
    path("<int:pk>/decide/", views.review_decide, name="decide"),
    path("<int:pk>/clone/", views.review_clone, name="clone"),
]
