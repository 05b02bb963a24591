"""What a review's discussion shows: its threads (the review's, then each candidate's), each a
page of comments drawn as HTML (text.render), and the whole discussion for the decision record."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Count
from django.urls import reverse
from django.utils.safestring import SafeString

from apps.web.limits import THREAD_PAGE

from ..models import Candidate, Review
from .models import Comment
from .text import render


@dataclass
class Shown:
    comment: Comment
    html: SafeString
    mine: bool


@dataclass
class Thread:
    review: Review
    candidate: Candidate | None
    comments: list[Shown] = field(default_factory=list)
    total: int = 0
    page: object = None  # a Paginator page on the thread's own page; None when capped inline
    form: object = None

    @property
    def key(self) -> str:
        return thread_key(self.candidate)

    @property
    def url(self) -> str:
        if self.candidate is None:
            return reverse("reviews:comments", args=[self.review.pk])
        return reverse("reviews:candidate_comments", args=[self.review.pk, self.candidate.pk])

    @property
    def earlier(self) -> int:
        """Comments of the thread not shown inline (the latest THREAD_PAGE are)."""
        return 0 if self.page is not None else max(0, self.total - len(self.comments))


def thread_key(candidate: Candidate | None) -> str:
    """The thread's name in the page (its anchor `thread-<key>`, its form's prefix)."""
    return f"candidate-{candidate.pk}" if candidate is not None else "review"


def team_usernames(team_id: int) -> list[str]:
    return list(
        get_user_model()
        .objects.filter(memberships__team_id=team_id)
        .values_list("username", flat=True)
    )


def _shown(rows, usernames, viewer) -> list[Shown]:
    viewer_id = getattr(viewer, "pk", None)
    return [Shown(c, render(c.text, usernames), c.author_id == viewer_id) for c in rows]


def shown(comment: Comment, viewer) -> Shown:
    """One comment as a thread shows it (after an edit)."""
    return _shown([comment], team_usernames(comment.review.team_id), viewer)[0]


def _rows(review: Review, candidate: Candidate | None):
    return (
        Comment.objects.filter(review=review, candidate=candidate)
        .select_related("author")
        .order_by("created_at", "id")
    )


def review_threads(review: Review, viewer, *, candidates=None) -> list[Thread]:
    """The review's thread and one per candidate, each with its latest THREAD_PAGE comments."""
    if candidates is None:
        candidates = list(review.candidates.select_related("offer"))
    counts = dict(
        Comment.objects.filter(review=review)
        .values_list("candidate_id")
        .annotate(n=Count("id"))
        .values_list("candidate_id", "n")
    )
    usernames = team_usernames(review.team_id) if counts else []
    return [
        _latest(review, candidate, viewer, counts.get(candidate and candidate.pk, 0), usernames)
        for candidate in [None, *candidates]
    ]


def _latest(review, candidate, viewer, total: int, usernames) -> Thread:
    thread = Thread(review, candidate, total=total)
    if total:
        latest = list(_rows(review, candidate).reverse()[:THREAD_PAGE])[::-1]
        thread.comments = _shown(latest, usernames, viewer)
    return thread


def inline_thread(review: Review, candidate: Candidate | None, viewer) -> Thread:
    """One thread as the review page shows it: its latest THREAD_PAGE comments."""
    total = Comment.objects.filter(review=review, candidate=candidate).count()
    usernames = team_usernames(review.team_id) if total else []
    return _latest(review, candidate, viewer, total, usernames)


def thread_page(review: Review, candidate: Candidate | None, viewer, page: str | None) -> Thread:
    """One page of a thread, THREAD_PAGE comments each, the last (latest) page unless asked."""
    paginator = Paginator(_rows(review, candidate), THREAD_PAGE)
    shown = paginator.get_page(page if page else paginator.num_pages)
    thread = Thread(review, candidate, total=paginator.count, page=shown)
    thread.comments = _shown(shown.object_list, team_usernames(review.team_id), viewer)
    return thread


def record_threads(review: Review) -> list[Thread]:
    """Every comment of the review, thread by thread (the decision record's appendix); only the
    threads that have any."""
    rows = list(
        Comment.objects.filter(review=review)
        .select_related("author", "candidate__offer")
        .order_by("created_at", "id")
    )
    if not rows:
        return []
    usernames = team_usernames(review.team_id)
    by_thread: dict[int | None, Thread] = {}
    for comment in rows:
        thread = by_thread.setdefault(
            comment.candidate_id, Thread(review, comment.candidate, page=True)
        )
        thread.comments.extend(_shown([comment], usernames, None))
        thread.total += 1
    return sorted(by_thread.values(), key=_thread_order)


def _thread_order(thread: Thread) -> tuple:
    """The review's thread first, then the candidates' in the review's order."""
    if thread.candidate is None:
        return (0, 0, 0)
    return (1, thread.candidate.position, thread.candidate.pk)
