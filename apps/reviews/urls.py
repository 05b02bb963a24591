"""The review URLs (namespace `reviews`): the lists, create, edit, candidates, fixes, and the
review page with its decisions (submit, decide, clone), and its discussion. Paths and names are
the ones users know."""

from django.urls import path

from .comments import views as comments
from .views import candidates, detail, fixes, lifecycle, lists

app_name = "reviews"

urlpatterns = [
    path("", lists.review_list, name="list"),
    path("new/", lifecycle.review_create, name="create"),
    path("approvals/", lists.approvals, name="approvals"),
    path("filter-options/", lists.filter_options, name="filter_options"),
    path("<int:pk>/", detail.review_detail, name="detail"),
    path("<int:pk>/edit/", lifecycle.review_edit, name="edit"),
    path("<int:pk>/candidates/", candidates.review_candidates, name="candidates"),
    path("<int:pk>/submit/", detail.review_submit, name="submit"),
    path("<int:pk>/decide/", detail.review_decide, name="decide"),
    path("<int:pk>/band-actions/", detail.review_band_actions, name="band_actions"),
    path("<int:pk>/clone/", detail.review_clone, name="clone"),
    path("<int:pk>/reserve-plan/", fixes.reserve_plan, name="reserve_plan"),
    path("<int:pk>/readiness/", fixes.confirm_readiness, name="confirm_readiness"),
    path("<int:pk>/profile-field/", fixes.fix_profile_field, name="fix_profile_field"),
    # The discussion (issue 40): the review's thread, each candidate's, a comment's edit and delete.
    path("<int:pk>/comments/", comments.thread, name="comments"),
    path(
        "<int:pk>/candidates/<int:candidate_id>/comments/",
        comments.thread,
        name="candidate_comments",
    ),
    path("comments/<int:comment_id>/edit/", comments.comment_edit, name="comment_edit"),
    path("comments/<int:comment_id>/delete/", comments.comment_delete, name="comment_delete"),
]
