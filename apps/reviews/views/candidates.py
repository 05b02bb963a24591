"""The candidates of a review: list, add, change the machine count, remove.

htmx: GET/POST with htmx → the candidates fragment (`candidates`), errors in place (200).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.accounts.access import require_role
from apps.reviews.forms import CandidateAddForm, CandidateChangeForm
from apps.reviews.models import Review
from apps.reviews.services.candidates import candidate_add, candidate_remove, candidate_update
from apps.reviews.workflow import ReviewConflict
from apps.web.forms import attach_errors
from apps.web.htmx import conflict, go, render_shape, wants_fragment

from .common import get_review_for_user


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
    review = get_review_for_user(request, pk)
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
                candidate_add(
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
                    candidate_remove(
                        candidate=candidate, actor=request.user, version=version
                    )
                    messages.success(request, _("Candidate removed."))
                elif form.cleaned_data["machines"]:
                    candidate_update(
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
