"""The review URLs (namespace `reviews`): the review domain's pages (lists, create, edit,
candidates, fixes) and the decision pages above it (the review page, submit, decide, clone)."""

from django.urls import path

from apps.reviews.views import candidates, fixes, lifecycle, lists

from . import views as decisions

app_name = "reviews"

urlpatterns = [
    path("", lists.review_list, name="list"),
    path("new/", lifecycle.review_create, name="create"),
    path("approvals/", lists.approvals, name="approvals"),
    path("<int:pk>/", decisions.review_detail, name="detail"),
    path("<int:pk>/edit/", lifecycle.review_edit, name="edit"),
    path("<int:pk>/candidates/", candidates.review_candidates, name="candidates"),
    path("<int:pk>/submit/", decisions.review_submit, name="submit"),
    path("<int:pk>/decide/", decisions.review_decide, name="decide"),
    path("<int:pk>/band-actions/", decisions.review_band_actions, name="band_actions"),
    path("<int:pk>/clone/", decisions.review_clone, name="clone"),
    path("<int:pk>/reserve-plan/", fixes.reserve_plan, name="reserve_plan"),
    path("<int:pk>/readiness/", fixes.confirm_readiness, name="confirm_readiness"),
    path("<int:pk>/profile-field/", fixes.fix_profile_field, name="fix_profile_field"),
]
