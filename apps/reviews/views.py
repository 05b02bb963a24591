"""Review pages: list, create, detail (with the decision panel), edit, candidates, submit,
decide, clone, and the reviewer's approval queue.

htmx shapes (every URL also works as a plain page without JavaScript):
- list: GET with htmx → the results fragment (`review-results`).
- detail: GET with htmx → the decision panel (`decision-panel`), polled while figures compute.
- candidates: GET/POST with htmx → the candidates fragment (`candidates`), errors in place (200).
- decide: POST with htmx → the decision panel with errors or refusal reasons in place (200); on
  success, a stale snapshot or a conflict → HX-Redirect to the fresh page (409 for the last two).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.access import (
    get_scoped_or_404,
    membership_for,
    require_current_team,
    require_role,
)
from apps.accounts.models import Role
from apps.accounts.pagecache import cached_fragment
from apps.checklists.selectors import checklist_cards
from apps.scoring import engine
from apps.scoring import selectors as scoring_selectors
from apps.scoring.services import build_review_input
from apps.web.forms import attach_errors
from apps.web.htmx import conflict, go, render_fragment, render_shape, wants_fragment

from . import selectors, services
from .forms import (
    CandidateAddForm,
    CandidateChangeForm,
    DecisionForm,
    ReservedLinksForm,
    ReviewCreateForm,
    ReviewFilterForm,
    ReviewTitleForm,
    VersionForm,
)
from .models import Decision, Review, ReviewState
from .responses import reason_texts
from .workflow import ReviewConflict, ReviewRefused

PAGE_SIZE = 25


def _get_review_for_user(request: HttpRequest, pk: int) -> Review:
    """The review if it belongs to one of the user's teams; else 404."""
    return get_scoped_or_404(
        Review.objects.select_related(
            "team", "author", "task", "task__home_site", "task__data_site", "task__result_site"
        ),
        request.user,
        pk=pk,
    )


def _detail_url(review: Review) -> str:
    return reverse("reviews:detail", args=[review.pk])


def _version(request: HttpRequest) -> int | None:
    form = VersionForm(request.POST)
    return form.cleaned_data["version"] if form.is_valid() else None


# List, create ------------------------------------------------------------------------------


@login_required
@require_GET
def review_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    choices = selectors.review_filter_choices(team)
    form = ReviewFilterForm(request.GET, tasks=choices["tasks"], authors=choices["authors"])
    form.is_valid()  # an invalid filter is dropped; the valid ones still apply
    filters = form.cleaned_data
    reviews = selectors.review_list(
        team=team,
        state=filters.get("state") or None,
        task_id=filters.get("task"),
        author_id=filters.get("author"),
        q=(filters.get("q") or "").strip() or None,
    )
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    context = {
        "form": form,
        "filtered": bool(kept),
        "querystring_base": urlencode(kept) + "&" if kept else "",
    }

    def results() -> str:
        page = Paginator(reviews, PAGE_SIZE).get_page(request.GET.get("page"))
        fragment = {**context, "page_obj": page, "reviews": page.object_list}
        return render_fragment(request, "reviews/list.html", "review-results", fragment)

    # The rows are the same for every member of the team until the team's data changes.
    context["results_html"] = mark_safe(  # noqa: S308 - our own rendered, escaped template
        cached_fragment(
            "review-list",
            team_ids=[team.pk],
            parts=tuple(sorted(request.GET.items())),
            render=results,
        )
    )
    return render_shape(request, "reviews/list.html", "review-results", context)


@login_required
@require_http_methods(["GET", "POST"])
def review_create(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    initial = {"task": request.GET.get("task")} if request.GET.get("task") else None
    form = ReviewCreateForm(request.POST or None, team=team, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            review = services.review_create(
                team=team,
                author=request.user,
                task=form.cleaned_data["task"],
                title=form.cleaned_data["title"],
                candidates=form.candidates(),
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(
                request, _("Review created. Answer the six questions for each candidate.")
            )
            return go(request, reverse("checklists:review", args=[review.pk]))
    status = 400 if form.is_bound else 200
    return render(request, "reviews/create.html", {"form": form}, status=status)


# Detail, decide ----------------------------------------------------------------------------


def _detail_context(request: HttpRequest, review: Review, *, form=None, refusal=None) -> dict:
    membership = membership_for(request, review.team_id)
    # Loaded once and shared: the engine input, the checklist cards and the reserved links.
    cards = checklist_cards(review)
    reserved = list(review.reserved_links.select_related("from_site", "to_site").order_by("id"))
    review_input = build_review_input(
        review,
        candidates=[card.candidate for card in cards],
        answers=[
            (card.candidate.offer_id, item.answer.question, item.answer.status)
            for card in cards
            for item in card.items
            if item.answer is not None
        ],
        reserved_link_ids={link.pk for link in reserved},
    )
    evaluation = scoring_selectors.review_evaluation(review, review_input=review_input)
    snapshot = evaluation["snapshot"]
    context = {
        **evaluation,
        **selectors.review_page(
            review,
            user=request.user,
            membership=membership,
            snapshot=snapshot,
            review_input=review_input,
            cards=cards,
            reserved_links=reserved,
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


# An approved review is immutable (services, admin and a PostgreSQL trigger refuse changes), so
# the body of its page is the same for every member of its team: rendered once per language and
# engine version (the body compares the signed snapshot's engine with the current one).
SIGNED_PAGE_CACHE_SECONDS = 7 * 24 * 3600


def _signed_body_key(review: Review) -> str:
    return (
        f"review-page:v3:{review.pk}:{review.version}:{engine.ENGINE_VERSION}:{get_language()}"
    )


@login_required
@require_GET
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    if review.state == ReviewState.APPROVED and not wants_fragment(request):
        key = _signed_body_key(review)
        parts = cache.get(key)
        if not isinstance(parts, dict):  # a miss (or an entry of an older layout)
            context = _detail_context(request, review)
            parts = {
                part: render_to_string(
                    f"reviews/detail.html#review-{part}", context, request=request
                )
                for part in ("head", "body")
            }
            cache.set(key, parts, SIGNED_PAGE_CACHE_SECONDS)
        context = {
            "review": review,
            # Our own rendered and escaped templates, cached above.
            "cached_head": mark_safe(parts["head"]),  # noqa: S308
            "cached_body": mark_safe(parts["body"]),  # noqa: S308
            "can_clone": True,  # any member of the review's team (it was found in their scope)
        }
        return render(request, "reviews/detail.html", context)
    context = _detail_context(request, review)
    return render_shape(request, "reviews/detail.html", "decision-panel", context)


@login_required
@require_POST
def review_decide(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    require_role(request, review.team, Role.REVIEWER)
    form = DecisionForm(request.POST)
    refusal = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.signoff_create(
                review=review,
                reviewer=request.user,
                decision=data["decision"],
                comment=data["comment"],
                snapshot_id=data["snapshot"],
                version=data["version"],
            )
        except ReviewConflict as exc:
            return conflict(request, exc.message, _detail_url(review))
        except ReviewRefused as exc:
            if "stale_snapshot" in exc.codes:
                return conflict(
                    request,
                    _(
                        "The figures changed since you opened this page; here are the fresh "
                        "ones. Look at them again before deciding."
                    ),
                    _detail_url(review),
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
            return go(request, _detail_url(review))
    review.refresh_from_db()
    context = _detail_context(request, review, form=form, refusal=refusal)
    status = 200 if wants_fragment(request) else (409 if refusal else 400)
    return render_shape(request, "reviews/detail.html", "decision-panel", context, status=status)


# Edit, candidates, submit, clone -----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def review_edit(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    require_role(request, review.team)
    title_form = ReviewTitleForm(initial={"title": review.title, "version": review.version})
    links_form = ReservedLinksForm(
        team=review.team,
        initial={"links": list(review.reserved_links.all()), "version": review.version},
    )
    if request.method == "POST":
        which = request.POST.get("form")
        try:
            if which == "links":
                links_form = ReservedLinksForm(request.POST, team=review.team)
                if links_form.is_valid():
                    services.review_reserve_links(
                        review=review,
                        actor=request.user,
                        links=links_form.cleaned_data["links"],
                        version=links_form.cleaned_data["version"],
                    )
                    messages.success(request, _("Reserved channels saved."))
                    return go(request, _detail_url(review))
            else:
                title_form = ReviewTitleForm(request.POST)
                if title_form.is_valid():
                    services.review_update(
                        review=review,
                        actor=request.user,
                        title=title_form.cleaned_data["title"],
                        version=title_form.cleaned_data["version"],
                    )
                    messages.success(request, _("Review saved."))
                    return go(request, _detail_url(review))
        except ReviewConflict as exc:
            return conflict(request, exc.message, _detail_url(review))
        except ValidationError as exc:
            attach_errors(links_form if which == "links" else title_form, exc)
    context = {"review": review, "title_form": title_form, "links_form": links_form}
    return render(request, "reviews/edit.html", context, status=400 if request.POST else 200)


def _candidates_context(review: Review, **forms) -> dict:
    candidates = list(review.candidates.select_related("offer__site").order_by("position", "id"))
    return {
        "review": review,
        "candidate_rows": candidates,
        "add_form": forms.get("add_form")
        or CandidateAddForm(review=review, initial={"version": review.version, "machines": 1}),
        "change_form": forms.get("change_form"),
        "currency": review.team.currency,
    }


@login_required
@require_http_methods(["GET", "POST"])
def review_candidates(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    require_role(request, review.team)
    if request.method == "GET":
        context = _candidates_context(review)
        return render_shape(request, "reviews/candidates.html", "candidates", context)
    action = request.POST.get("action", "add")
    forms = {}
    url = reverse("reviews:candidates", args=[review.pk])
    try:
        if action == "add":
            form = forms["add_form"] = CandidateAddForm(request.POST, review=review)
            if form.is_valid():
                services.candidate_add(
                    review=review,
                    actor=request.user,
                    offer=form.cleaned_data["offer"],
                    machines=form.cleaned_data["machines"],
                    version=form.cleaned_data["version"],
                )
                messages.success(request, _("Candidate added."))
        else:
            form = forms["change_form"] = CandidateChangeForm(request.POST, review=review)
            if form.is_valid():
                candidate = form.cleaned_data["candidate"]
                version = form.cleaned_data["version"]
                if action == "remove":
                    services.candidate_remove(
                        candidate=candidate, actor=request.user, version=version
                    )
                    messages.success(request, _("Candidate removed."))
                elif form.cleaned_data["machines"]:
                    services.candidate_update(
                        candidate=candidate,
                        actor=request.user,
                        machines=form.cleaned_data["machines"],
                        version=version,
                    )
                    messages.success(request, _("Machine count saved."))
                else:
                    form.add_error("machines", _("At least one machine."))
    except ReviewConflict as exc:
        return conflict(request, exc.message, url)
    except ValidationError as exc:
        attach_errors(form, exc)
    if not form.errors:
        if not wants_fragment(request):
            return go(request, url)
        # htmx: the flash messages are not shown in a fragment; drop them.
        list(messages.get_messages(request))
    review.refresh_from_db()
    context = _candidates_context(review, **({} if not form.errors else forms))
    status = 400 if form.errors and not wants_fragment(request) else 200
    return render_shape(request, "reviews/candidates.html", "candidates", context, status=status)


@login_required
@require_POST
def review_submit(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    require_role(request, review.team)
    try:
        services.review_submit(review=review, actor=request.user, version=_version(request))
    except ReviewConflict as exc:
        return conflict(request, exc.message, _detail_url(review))
    except ReviewRefused as exc:
        messages.error(request, exc.message)
        for text in reason_texts(exc.reasons):
            messages.error(request, text)
        return go(request, _detail_url(review), status=409)
    messages.success(
        request, _("Submitted. The team's reviewers can now decide; the figures are below.")
    )
    return go(request, _detail_url(review))


@login_required
@require_POST
def review_clone(request: HttpRequest, pk: int) -> HttpResponse:
    review = _get_review_for_user(request, pk)
    require_role(request, review.team)
    try:
        clone = services.review_clone(review=review, actor=request.user)
    except ReviewConflict as exc:
        return conflict(request, exc.message, _detail_url(review))
    messages.success(request, _("A new draft was cloned from this review."))
    return go(request, _detail_url(clone))


# The reviewer's queue ----------------------------------------------------------------------


@login_required
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    queue = selectors.approvals_queue(request.user)
    page = Paginator(queue, PAGE_SIZE).get_page(request.GET.get("page"))
    can_review = any(m.can_review for m in getattr(request, "memberships", []))
    context = {
        "page_obj": page,
        "reviews": page.object_list,
        "waiting": page.paginator.count,
        "can_review_somewhere": can_review,
        "querystring_base": "",
    }
    return render(request, "reviews/approvals.html", context)
