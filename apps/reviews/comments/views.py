"""The pages of a review's discussion (issue 40): a thread (the review's or a candidate's), a
comment's edit and delete.

One URL, two shapes (apps/web/htmx.py):
- thread: GET → the thread's own page, paginated (with htmx: the thread as the review page shows
  it); POST → a new comment: with htmx the thread redrawn (200, the form's errors in place and
  the typed text kept), without JavaScript a redirect to the comment on the review page, or the
  thread's page with the errors (400).
- edit: GET → the edit form (a fragment for htmx; `?cancel=1` the comment as it is); POST → the
  comment (htmx) or a redirect to it; errors as above.
- delete: POST → the thread redrawn (htmx) or a redirect to it.
Another team's review, candidate or comment is a 404; someone else's comment a 403.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.access import get_scoped_or_404, membership_for, require_role
from apps.web.forms import attach_errors
from apps.web.htmx import go, vary, wants_fragment

from ..models import Candidate, Review
from ..views.common import get_review_for_user
from . import selectors, services
from .forms import CommentForm
from .models import Comment

PARTS = "reviews/_discussion.html"
PAGE = "reviews/comments.html"


def _candidate(review: Review, candidate_id: int | None) -> Candidate | None:
    if candidate_id is None:
        return None
    try:
        return review.candidates.select_related("offer").get(pk=candidate_id)
    except Candidate.DoesNotExist as exc:
        raise Http404("Not found") from exc


def _thread_response(request, review, candidate, form=None, *, status=200) -> HttpResponse:
    can_comment = membership_for(request, review.team_id) is not None
    if wants_fragment(request):
        thread = selectors.inline_thread(review, candidate, request.user)
        thread.form = form or CommentForm(prefix=thread.key)
        context = {"thread": thread, "review": review, "can_comment": can_comment}
        return vary(render(request, f"{PARTS}#thread", context, status=status))
    thread = selectors.thread_page(review, candidate, request.user, request.GET.get("page"))
    thread.form = form or CommentForm(prefix=thread.key)
    context = {"thread": thread, "review": review, "can_comment": can_comment}
    return vary(render(request, PAGE, context, status=status))


@login_required
@require_http_methods(["GET", "POST"])
def thread(request: HttpRequest, pk: int, candidate_id: int | None = None) -> HttpResponse:
    review = get_review_for_user(request, pk)
    candidate = _candidate(review, candidate_id)
    if request.method == "GET":
        return _thread_response(request, review, candidate)
    require_role(request, review.team)
    form = CommentForm(request.POST, prefix=selectors.thread_key(candidate))
    if form.is_valid():
        try:
            comment = services.comment_post(
                review=review, actor=request.user, text=form.cleaned_data["text"],
                candidate=candidate,
            )  # fmt: skip
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            if wants_fragment(request):
                return _thread_response(request, review, candidate)
            messages.success(request, _("Your comment is posted."))
            return go(request, services.comment_url(comment))
    return _thread_response(
        request, review, candidate, form, status=200 if wants_fragment(request) else 400
    )


def _comment(request: HttpRequest, comment_id: int) -> Comment:
    """The comment if its review is one of the user's teams' (else 404), written by the user
    (else 403)."""
    comment = get_scoped_or_404(
        Comment.objects.select_related("review__team", "author", "candidate__offer"),
        request.user,
        pk=comment_id,
    )
    require_role(request, comment.review.team)
    if comment.author_id != request.user.pk:
        raise PermissionDenied(_("Only its author edits or deletes a comment."))
    return comment


def _shown(request, comment: Comment) -> selectors.Shown:
    return selectors.shown(comment, request.user)


@login_required
@require_http_methods(["GET", "POST"])
def comment_edit(request: HttpRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    prefix = f"comment-{comment.pk}"
    context = {"item": _shown(request, comment), "review": comment.review}
    if request.method == "GET":
        if wants_fragment(request) and request.GET.get("cancel"):
            return vary(render(request, f"{PARTS}#comment", context))
        form = CommentForm(prefix=prefix, initial={"text": comment.text})
    else:
        form = CommentForm(request.POST, prefix=prefix)
        if form.is_valid():
            try:
                comment = services.comment_edit(
                    comment=comment, actor=request.user, text=form.cleaned_data["text"]
                )
            except ValidationError as exc:
                attach_errors(form, exc)
            else:
                if wants_fragment(request):
                    context["item"] = _shown(request, comment)
                    return vary(render(request, f"{PARTS}#comment", context))
                messages.success(request, _("Your comment is saved."))
                return go(request, services.comment_url(comment))
    context["edit_form"] = form
    status = 400 if request.method == "POST" and not wants_fragment(request) else 200
    if wants_fragment(request):
        return vary(render(request, f"{PARTS}#comment-edit", context, status=status))
    return vary(render(request, PAGE, {**context, "editing": True}, status=status))


@login_required
@require_POST
def comment_delete(request: HttpRequest, comment_id: int) -> HttpResponse:
    comment = _comment(request, comment_id)
    review, candidate = comment.review, comment.candidate
    services.comment_delete(comment=comment, actor=request.user)
    if wants_fragment(request):
        return _thread_response(request, review, candidate)
    messages.success(request, _("Your comment is deleted."))
    return go(request, services.review_url(review) + f"#thread-{selectors.thread_key(candidate)}")
