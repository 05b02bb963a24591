"""The review page (its figures, checklists and decision panel) and a reviewer's decision on it.

htmx:
- detail: GET with htmx → the decision panel (`decision-panel`), polled while figures compute.
- decide: POST with htmx → the decision panel with errors or refusal reasons in place (200); on
  success, a stale snapshot or a conflict → HX-Redirect to the fresh page (409 for the last two).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET, require_POST

import engine
from apps.accounts.access import membership_for, require_role
from apps.accounts.models import Role
from apps.reviews.forms import DecisionForm
from apps.reviews.models import Decision, Review, ReviewState
from apps.reviews.services import submission
from apps.reviews.services.signoff import signoff_create
from apps.reviews.snapshots import selectors as snapshot_selectors
from apps.reviews.views.common import (
    detail_url,
    get_review_for_user,
    get_review_frame_for_user,
    posted_version,
)
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from apps.web.forms import attach_errors
from apps.web.fragments import page_etag
from apps.web.htmx import conflict, go, render_shape, vary, wants_fragment

from . import page
from .approved_page import approved_page, discussion
from .responses import reason_texts


def _detail_context(
    request: HttpRequest, review: Review, *, form=None, refusal=None, signoffs=None
) -> dict:
    membership = membership_for(request, review.team_id)
    cards, reserved, review_input = snapshot_selectors.review_with_input(review)
    evaluation = snapshot_selectors.review_evaluation(review, review_input=review_input)
    snapshot = evaluation["snapshot"]
    context = {
        **evaluation,
        **page.review_page(
            review,
            user=request.user,
            membership=membership,
            snapshot=snapshot,
            review_input=review_input,
            cards=cards,
            reserved_links=reserved,
            signoffs=signoffs,
        ),
        "currency": review.team.currency,
        "decisions": Decision,
    }
    context["decision_form"] = form or DecisionForm(
        initial={"snapshot": snapshot.pk if snapshot else None, "version": review.version}
    )
    context["refusal"] = refusal
    context["refusal_reasons"] = reason_texts(refusal.reasons) if refusal else []
    return context


def _frame(request: HttpRequest, pk: int) -> Review:
    """The review's frame fields (common.FRAME_FIELDS), read once per request: its ETag and an
    approved page both need them, and an approved page whose parts are cached needs no more."""
    review = getattr(request, "review_frame", None)
    if review is None or review.pk != pk:
        review = request.review_frame = get_review_frame_for_user(request, pk)
    return review


def _approved_etag(request: HttpRequest, pk: int) -> str | None:
    """An approved page's ETag (apps/web/fragments.page_etag); other pages answer in full."""
    if wants_fragment(request) or _frame(request, pk).state != ReviewState.APPROVED:
        return None
    return page_etag(request, engine.ENGINE_VERSION)


@login_required
@require_GET
@condition(etag_func=_approved_etag)
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not wants_fragment(request) and _frame(request, pk).state == ReviewState.APPROVED:
        # An approved review is final: the whole review is read only when a part must be drawn.
        return approved_page(
            request,
            _frame(request, pk),
            lambda: get_review_for_user(request, pk, comments=True),
            lambda review, signoffs: _detail_context(request, review, signoffs=signoffs),
        )
    review = get_review_for_user(request, pk, comments=True)
    context = _detail_context(request, review)
    if not wants_fragment(request):
        context.update(discussion(request, review, context["answer_cards"]))
    return render_shape(request, "reviews/detail.html", "decision-panel", context)


@login_required
@require_GET
def review_band_actions(request: HttpRequest, pk: int) -> HttpResponse:
    """The decision band's actions for this viewer (issue 35): the band the figures' fragment
    redraws out of band (apps.scoring.views.review_evaluation) fetches them from here, since only
    this page's context tells who may decide. Empty for anyone else."""
    review = get_review_for_user(request, pk)
    context = _detail_context(request, review)
    return vary(render(request, "reviews/_decision_summary.html#band-actions", context))


@login_required
@require_POST
def review_decide(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_review_for_user(request, pk)
    require_role(request, review.team, Role.REVIEWER)
    form = DecisionForm(request.POST)
    refusal = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            signoff_create(
                review=review,
                reviewer=request.user,
                decision=data["decision"],
                comment=data["comment"],
                snapshot_id=data["snapshot"],
                version=data["version"],
            )
        except ReviewConflict as exc:
            return conflict(request, exc.message, detail_url(review))
        except ReviewRefused as exc:
            if "stale_snapshot" in exc.codes:
                return conflict(
                    request,
                    _(
                        "The figures changed since you opened this page; here are the fresh "
                        "ones. Look at them again before deciding."
                    ),
                    detail_url(review),
                )
            refusal = exc
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            done = {
                Decision.APPROVE: _("Your approval is recorded."),
                Decision.REQUEST_CHANGES: _(
                    "Changes requested: the review is back with its author."
                ),
                Decision.REJECT: _("The review is rejected."),
            }
            messages.success(request, done[data["decision"]])
            return go(request, detail_url(review))
    review.refresh_from_db()
    context = _detail_context(request, review, form=form, refusal=refusal)
    if not wants_fragment(request):
        context.update(discussion(request, review, context["answer_cards"]))
    status = 200 if wants_fragment(request) else (409 if refusal else 400)
    return render_shape(request, "reviews/detail.html", "decision-panel", context, status=status)


@login_required
@require_POST
def review_submit(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    try:
        submission.review_submit(review=review, actor=request.user, version=posted_version(request))
    except ReviewConflict as exc:
        return conflict(request, exc.message, detail_url(review))
    except ReviewRefused as exc:
        messages.error(request, exc.message)
        for text in reason_texts(exc.reasons):
            messages.error(request, text)
        return go(request, detail_url(review), status=409)
    messages.success(
        request, _("Submitted. The team's reviewers can now decide; the figures are below.")
    )
    return go(request, detail_url(review))


@login_required
@require_POST
def review_clone(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    try:
        clone = submission.review_clone(review=review, actor=request.user)
    except ReviewConflict as exc:
        return conflict(request, exc.message, detail_url(review))
    messages.success(request, _("A new draft was cloned from this review."))
    return go(request, detail_url(clone))
