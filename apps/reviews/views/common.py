"""What every review view shares: the access helper, the page an action returns to, the version
the posted page was showing, and the page size of the lists."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from apps.accounts.access import get_scoped_or_404
from apps.reviews.comments.selectors import with_comment_count
from apps.reviews.forms import VersionForm
from apps.reviews.models import Review

PAGE_SIZE = 25


def get_review_for_user(request: HttpRequest, pk: int, *, comments: bool = False) -> Review:
    """The review if it belongs to one of the user's teams; else 404. `comments`: with its
    `comment_count` (for a page that shows the discussion)."""
    reviews = with_comment_count(Review.objects) if comments else Review.objects
    return get_scoped_or_404(
        reviews.select_related(
            "team", "author", "task", "task__home_site", "task__data_site", "task__result_site"
        ),
        request.user,
        pk=pk,
    )


# What the frame of a review's page shows around its drawn parts (title, actions, discussion).
FRAME_FIELDS = ("title", "state", "version", "team")


def get_review_frame_for_user(request: HttpRequest, pk: int) -> Review:
    """Only the review's frame fields: what an approved page reads when its head, body and
    discussion's inputs come from the cache. Not its task, sites, team or author (a read that
    costs more to build than the page's cache read): a page that draws any of them reads the
    whole review with get_review_for_user. 404 as that does."""
    return get_scoped_or_404(Review.objects.only(*FRAME_FIELDS), request.user, pk=pk)


def detail_url(review: Review) -> str:
    """Where an action on a review sends the user back to."""
    return reverse("reviews:detail", args=[review.pk])


def posted_version(request: HttpRequest) -> int | None:
    """The review version the posted page was showing (None when the form did not send one)."""
    form = VersionForm(request.POST)
    return form.cleaned_data["version"] if form.is_valid() else None
