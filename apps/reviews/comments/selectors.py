"""What a review's discussion shows: its threads (the review's, then each candidate's), each a
page of comments drawn as HTML (text.render), and the whole discussion for the decision record.

A page that shows the threads reads the review with `with_comment_count`: a review nobody has
commented on costs no query more; one that has comments, one (the latest THREAD_PAGE of every
thread with each thread's total, by window functions). A comment keeps the members it mentions,
so drawing it never reads the team.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber
from django.urls import reverse
from django.utils.safestring import SafeString

from apps.catalog.models import Offer
from apps.web.limits import THREAD_PAGE

from ..models import Candidate, Review
from .forms import blank_comment_field
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
    form: object = None  # a CommentForm to draw (bound, with its errors); else a blank field
    whole: bool = False  # every comment shown (the record)

    @property
    def key(self) -> str:
        return thread_key(self.candidate)

    @property
    def url(self) -> str:
        if self.candidate is None:
            return reverse("reviews:comments", args=[self.review.pk])
        return reverse("reviews:candidate_comments", args=[self.review.pk, self.candidate.pk])

    @property
    def blank_field(self) -> SafeString:
        """The empty comment field of the thread's form, drawn without a form or a template."""
        return blank_comment_field(self.key)

    @property
    def earlier(self) -> int:
        """Comments of the thread not shown inline (the latest THREAD_PAGE are)."""
        if self.page is not None or self.whole:
            return 0
        return max(0, self.total - len(self.comments))


def thread_key(candidate: Candidate | None) -> str:
    """The thread's name in the page (its anchor `thread-<key>`, its form's prefix)."""
    return f"candidate-{candidate.pk}" if candidate is not None else "review"


def with_comment_count(reviews: QuerySet) -> QuerySet:
    """Reviews with `comment_count`, read in the same query."""
    count = (
        Comment.objects.filter(review=OuterRef("pk"))
        .order_by()
        .values("review")
        .annotate(n=Count("id"))
        .values("n")
    )
    return reviews.annotate(comment_count=Coalesce(Subquery(count), 0, output_field=IntegerField()))


def _known_empty(review: Review) -> bool:
    return getattr(review, "comment_count", None) == 0


def shown(comment: Comment, viewer) -> Shown:
    viewer_id = getattr(viewer, "pk", None)
    return Shown(comment, render(comment.text, comment.mentions), comment.author_id == viewer_id)


def _rows(review: Review, candidate: Candidate | None):
    return (
        Comment.objects.filter(review=review, candidate=candidate)
        .select_related("author")
        .order_by("created_at", "id")
    )


def _latest(review: Review, candidate: Candidate | None = None, *, one: bool = False):
    """The latest THREAD_PAGE comments of every thread of the review (or of one), each with its
    thread's `thread_total`, oldest first: one query."""
    rows = Comment.objects.filter(review=review)
    if one:
        rows = rows.filter(candidate=candidate)
    newest_first = [F("created_at").desc(), F("id").desc()]
    return (
        rows.annotate(
            rank=Window(RowNumber(), partition_by=[F("candidate_id")], order_by=newest_first),
            thread_total=Window(Count("id"), partition_by=[F("candidate_id")]),
        )
        .filter(rank__lte=THREAD_PAGE)
        .select_related("author")
        .order_by("created_at", "id")
    )


# What a thread shows of its candidate: its id (the thread's key and URL) and its offer's
# provider and name (the thread's title), the rest of the candidate and its offer left unread.
LABEL_FIELDS = ("id", "review_id", "offer__provider", "offer__name")


def candidate_labels(review: Review) -> QuerySet:
    """The review's candidates in its order, each with only what its thread shows."""
    return review.candidates.select_related("offer").only(*LABEL_FIELDS)


def thread_inputs(review: Review, candidates=None) -> str:
    """What the discussion reads besides its comments, as text to keep in a page's cache: the
    review's number of comments (its `comment_count` when read, else one query) and its
    candidates' labels (`candidates`: already read, else one query)."""
    if candidates is None:
        candidates = candidate_labels(review)
    labels = [[c.pk, c.offer.provider, c.offer.name] for c in candidates]
    count = getattr(review, "comment_count", None)
    if count is None:
        count = Comment.objects.filter(review=review).count()
    return json.dumps({"comments": count, "labels": labels})


def from_thread_inputs(review: Review, text: str) -> list[Candidate]:
    """The candidates `thread_inputs` kept, as `candidate_labels` reads them (their id and their
    offer's provider and name); the review gets its `comment_count`."""
    kept = json.loads(text)
    review.comment_count = kept["comments"]
    return [
        Candidate(pk=pk, review_id=review.pk, offer=Offer(provider=provider, name=name))
        for pk, provider, name in kept["labels"]
    ]


def review_threads(review: Review, viewer, *, candidates=None) -> list[Thread]:
    """The review's thread and one per candidate, each with its latest THREAD_PAGE comments."""
    if candidates is None:
        candidates = list(candidate_labels(review))
    threads = {getattr(c, "pk", None): Thread(review, c) for c in [None, *candidates]}
    if not _known_empty(review):
        for comment in _latest(review):
            thread = threads.get(comment.candidate_id)
            if thread is not None:
                thread.comments.append(shown(comment, viewer))
                thread.total = comment.thread_total
    return list(threads.values())


def inline_thread(review: Review, candidate: Candidate | None, viewer) -> Thread:
    """One thread as the review page shows it: its latest THREAD_PAGE comments."""
    thread = Thread(review, candidate)
    for comment in _latest(review, candidate, one=True):
        thread.comments.append(shown(comment, viewer))
        thread.total = comment.thread_total
    return thread


def thread_page(review: Review, candidate: Candidate | None, viewer, page: str | None) -> Thread:
    """One page of a thread, THREAD_PAGE comments each, the last (latest) page unless asked."""
    paginator = Paginator(_rows(review, candidate), THREAD_PAGE)
    current = paginator.get_page(page if page else paginator.num_pages)
    thread = Thread(review, candidate, total=paginator.count, page=current)
    thread.comments = [shown(comment, viewer) for comment in current.object_list]
    return thread


def record_threads(review: Review) -> list[Thread]:
    """Every comment of the review, thread by thread (the decision record's appendix): only the
    threads that have any, the review's first, then the candidates' in the review's order."""
    if _known_empty(review):
        return []
    by_thread: dict[int | None, Thread] = {}
    rows = (
        Comment.objects.filter(review=review)
        .select_related("author", "candidate__offer")
        .order_by("created_at", "id")
    )
    for comment in rows:
        thread = by_thread.setdefault(
            comment.candidate_id, Thread(review, comment.candidate, whole=True)
        )
        thread.comments.append(shown(comment, None))
        thread.total += 1
    return sorted(by_thread.values(), key=_thread_order)


def _thread_order(thread: Thread) -> tuple:
    if thread.candidate is None:
        return (0, 0, 0)
    return (1, thread.candidate.position, thread.candidate.pk)
