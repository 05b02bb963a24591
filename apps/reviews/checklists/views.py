"""The checklist page of a review: one card per candidate, six questions each, saved as you go.

htmx shapes (every form also posts normally without JavaScript and comes back to the page):
- GET checklists:review with htmx → the progress panel (`checklist-progress`): unanswered counts
  per candidate and the gate; it refreshes itself on the `checklistChanged` event.
- POST checklists:answer with htmx → the question's save state (`answer-state` of
  checklists/_question.html: "Saved" or the error, in place, status 200) plus the candidate's
  counter (out of band), and the `HX-Trigger: checklistChanged` header when something was saved.
- GET checklists:open_questions (htmx only, a link to the page otherwise) → the forms of one
  candidate's unanswered questions, for a C finding on the review page (issue 15: its fix in place).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.access import get_scoped_or_404, require_role
from apps.reviews.models import Candidate, Review
from apps.reviews.workflow import ReviewConflict
from apps.web.forms import attach_errors
from apps.web.htmx import go, render_fragment, render_shape, vary, wants_fragment

from . import selectors, services
from .forms import answer_form_class, answer_prefix
from .guidance import GUIDE_BY_CODE
from .selectors import QuestionItem


def _get_review_for_user(request: HttpRequest, review_id: int) -> Review:
    return get_scoped_or_404(
        Review.objects.select_related("team", "task", "author"), request.user, pk=review_id
    )


def _page_context(
    request: HttpRequest, review: Review, *, bound: QuestionItem | None = None, forms: bool = True
):
    cards = selectors.checklist_cards(review)
    benchmarks = selectors.evidence_records(review) if forms else []
    for card in cards if forms else []:
        for item in card.items:
            if bound is not None and (item.candidate.pk, item.guide.code) == (
                bound.candidate.pk,
                bound.guide.code,
            ):
                item.form, item.error = bound.form, bound.error
                continue
            item.form = answer_form_class(item.guide.code).for_answer(
                item.answer,
                services.answer_token(item.answer),
                candidate=item.candidate,
                benchmarks=benchmarks,
                prefix=answer_prefix(item.candidate.pk, item.guide.code),
            )
    return {
        "review": review,
        "cards": cards,
        "gate": selectors.gate(cards),
        "can_edit": review.is_editable,
    }


@login_required
@require_GET
def checklist_review(request: HttpRequest, review_id: int) -> HttpResponse:
    review = _get_review_for_user(request, review_id)
    # The fragment is the progress panel: it needs the counts, not the 6 forms per candidate.
    context = _page_context(request, review, forms=not wants_fragment(request))
    return render_shape(request, "checklists/review.html", "checklist-progress", context)


@login_required
@require_POST
def checklist_answer(request: HttpRequest, candidate_id: int, question: str) -> HttpResponse:
    candidate = get_scoped_or_404(
        Candidate.objects.select_related("review__team", "review__task", "offer__site"),
        request.user,
        pk=candidate_id,
    )
    guide = GUIDE_BY_CODE.get(question)
    if guide is None:
        raise Http404("Unknown question")
    review = candidate.review
    require_role(request, review.team)
    prefix = answer_prefix(candidate.pk, question)
    benchmarks = selectors.evidence_records(review)
    form_class = answer_form_class(question)
    form = form_class(request.POST, benchmarks=benchmarks, prefix=prefix)
    item = QuestionItem(candidate, guide, None, form=form)

    def form_for(answer):  # the form of a saved answer, which the next save builds on
        return form_class.for_answer(
            answer, services.answer_token(answer), candidate=candidate, benchmarks=benchmarks,
            prefix=prefix,
        )

    if form.is_valid():
        data = form.cleaned_data
        extra = {}
        if "migration_effort_hours" in data:
            extra["migration_effort_hours"] = data["migration_effort_hours"]
        try:
            answer = services.checklist_answer_save(
                candidate=candidate,
                question=question,
                actor=request.user,
                status=data["status"],
                text=data["text"],
                evidence_benchmark=data["evidence_benchmark"],
                evidence_url=data["evidence_url"],
                seen=data["seen"] if f"{prefix}-seen" in request.POST else None,
                **extra,
            )
        except services.AnswerConflict as exc:
            # Theirs is now the version this form builds on; saving again overwrites it.
            if extra:
                candidate.refresh_from_db(fields=["migration_effort_hours"])
            item.answer, item.error = exc.current, exc.message
            item.form = form_for(exc.current)
        except ReviewConflict as exc:
            item.error = exc.message
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            if extra:
                candidate.refresh_from_db(fields=["migration_effort_hours"])
            item.answer, item.saved = answer, True
            item.form = form_for(answer)
    if not wants_fragment(request):
        return _full_page_answer(request, review, item)
    return _fragment_answer(request, item)


def _fragment_answer(request: HttpRequest, item: QuestionItem) -> HttpResponse:
    """With htmx: the answer's state, and the candidate's counter out of band."""
    card = selectors.candidate_card(item.candidate)
    html = render_fragment(request, "checklists/_question.html", "answer-state", {"item": item})
    html += render_fragment(
        request, "checklists/review.html", "candidate-counter", {"card": card, "oob": True}
    )
    response = vary(HttpResponse(html))
    if item.saved:
        response["HX-Trigger"] = "checklistChanged"
    return response


def _full_page_answer(request: HttpRequest, review: Review, item: QuestionItem) -> HttpResponse:
    """Without JavaScript: back to the page at the question, or the page with the error."""
    anchor = f"#q-{item.candidate.pk}-{item.guide.code}"
    url = reverse("checklists:review", args=[review.pk]) + anchor
    if item.saved:
        messages.success(request, _("Saved."))
        return go(request, url)
    review.refresh_from_db()
    context = _page_context(request, review, bound=item)
    return render(request, "checklists/review.html", context, status=400)


@login_required
@require_GET
def open_questions(request: HttpRequest, review_id: int, offer_id: int) -> HttpResponse:
    """The forms of the candidate's unanswered questions (rule C), in a finding of the review page;
    each saves like on the checklist page. Without htmx: the checklist page at the candidate."""
    review = _get_review_for_user(request, review_id)
    page = reverse("checklists:review", args=[review.pk]) + f"#offer-{offer_id}"
    if not wants_fragment(request):
        return go(request, page)
    candidate = get_scoped_or_404(
        Candidate.objects.select_related("offer__site"), request.user,
        review=review, offer_id=offer_id,
    )
    card = selectors.candidate_card(candidate)
    benchmarks = selectors.evidence_records(review)
    items = [item for item in card.items if not item.answered]
    for item in items:
        item.form = answer_form_class(item.guide.code).for_answer(
            item.answer,
            services.answer_token(item.answer),
            candidate=candidate,
            benchmarks=benchmarks,
            prefix=answer_prefix(candidate.pk, item.guide.code),
        )
    context = {
        "review": review, "card": card, "items": items, "can_edit": review.is_editable,
        "page": page,
    }
    return vary(render(request, "checklists/_open_questions.html", context))
