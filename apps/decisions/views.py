"""The review page (its figures, checklists and decision panel) and a reviewer's decision on it.

htmx:
- detail: GET with htmx → the decision panel (`decision-panel`), polled while figures compute.
- decide: POST with htmx → the decision panel with errors or refusal reasons in place (200); on
  success, a stale snapshot or a conflict → HX-Redirect to the fresh page (409 for the last two).
"""

from __future__ import annotations

from functools import cache as memoized

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.crypto import salted_hmac
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.access import membership_for, require_role
from apps.accounts.models import Role
from apps.accounts.pagecache import read_many
from apps.checklists.selectors import checklist_cards
from apps.reviews.forms import DecisionForm
from apps.reviews.models import Decision, Review, ReviewState
from apps.reviews.views.common import detail_url, get_review_for_user, posted_version
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from apps.scoring import engine
from apps.scoring import selectors as scoring_selectors
from apps.scoring.services.snapshots import build_review_input
from apps.web.forms import attach_errors
from apps.web.htmx import conflict, go, render_shape, wants_fragment

from . import page, submission
from .responses import reason_texts
from .signoff import signoff_create


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
        **page.review_page(
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


def _signed_body_key(pk: int) -> str:
    return f"review-page:v6:{pk}:{engine.ENGINE_VERSION}:{get_language()}"


@memoized
def _csrf_placeholder() -> str:
    """Stands for the viewer's CSRF token in the cached actions of a signed page (the clone
    form), put in on every view. Kept in a shared cache, so the same in every process, and
    derived from the secret key, so no text of a review can be made to look like it."""
    return "csrf" + salted_hmac("signed-review-page", "csrf-placeholder").hexdigest()[:32]


# What the page of an approved review shows of it around the cached parts: not the signed input
# (a whole engine document), nor the task and its sites, which only the cached body shows. An
# approved review can be neither changed nor deleted (services, admin and a PostgreSQL trigger
# refuse), so these fields are kept with the parts, and a cached view reads no review row: the
# viewer's memberships (read for every request) decide whether they may see it.
SIGNED_PAGE_FIELDS = ("id", "state", "version", "title", "team_id", "task_id")


def _cached_signed_parts(request: HttpRequest, pk: int) -> tuple[Review, dict] | None:
    """The review (its few fields) and the cached head and body of its page, when it is an
    approved review whose page is cached, for a member of its team; no query."""
    key = _signed_body_key(pk)
    try:
        # With the page's other reads when the process answered this viewer's view before.
        parts = read_many([key]).get(key)
    except Exception:  # noqa: BLE001 - no cache: the page is rendered in full
        return None
    if not isinstance(parts, dict) or "review" not in parts:
        return None
    fields = parts["review"]
    membership = membership_for(request, fields["team_id"])
    if membership is None or fields["state"] != ReviewState.APPROVED:
        return None  # the full path answers (404 for a non-member)
    # from_db takes the values in the model's field order, whatever the order of the names.
    names = [f.attname for f in Review._meta.concrete_fields if f.attname in fields]
    review = Review.from_db("default", names, [fields[name] for name in names])
    review.team = membership.team
    return review, parts


def _signed_parts(request: HttpRequest, context: dict) -> dict[str, str]:
    """The parts of a signed page every member of its team sees alike: the head, the actions
    (no edit, a clone form for any member; its CSRF token a placeholder) and the body."""
    parts = {
        part: render_to_string(f"reviews/detail.html#review-{part}", context, request=request)
        for part in ("head", "body")
    }
    actions = {"review": context["review"], "can_clone": True, "csrf_token": _csrf_placeholder()}
    parts["actions"] = render_to_string("reviews/detail.html#review-actions", actions)
    return parts


def _signed_page(request: HttpRequest, review: Review, parts: dict) -> HttpResponse:
    actions = parts["actions"].replace(_csrf_placeholder(), escape(get_token(request)))
    context = {
        "review": review,
        # Our own rendered and escaped templates, cached by review_detail.
        "cached_head": mark_safe(parts["head"]),  # noqa: S308
        "cached_actions": mark_safe(actions),  # noqa: S308
        "cached_body": mark_safe(parts["body"]),  # noqa: S308
    }
    return render(request, "reviews/detail.html", context)


@login_required
@require_GET
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not wants_fragment(request) and (cached := _cached_signed_parts(request, pk)):
        return _signed_page(request, *cached)
    review = get_review_for_user(request, pk)
    context = _detail_context(request, review)
    if review.state == ReviewState.APPROVED and not wants_fragment(request):
        parts = _signed_parts(request, context)
        fields = {name: getattr(review, name) for name in SIGNED_PAGE_FIELDS}
        cache.set(
            _signed_body_key(review.pk), {**parts, "review": fields}, SIGNED_PAGE_CACHE_SECONDS
        )
        return _signed_page(request, review, parts)
    return render_shape(request, "reviews/detail.html", "decision-panel", context)


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
