"""Pages and actions of a review's life: create, edit (title and reserved links), submit, clone.

Every action is a plain form POST that redirects (HX-Redirect with htmx); a conflict with a
concurrent change answers 409 with the fresh page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.accounts.access import require_current_team, require_role
from apps.reviews.forms import ReservedLinksForm, ReviewCreateForm, ReviewTitleForm
from apps.reviews.services import lifecycle as review_lifecycle
from apps.reviews.services.candidates import review_reserve_links
from apps.reviews.workflow import ReviewConflict
from apps.web.forms import attach_errors
from apps.web.htmx import conflict, go

from .common import detail_url, get_review_for_user


@login_required
@require_http_methods(["GET", "POST"])
def review_create(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    initial = {"task": request.GET.get("task")} if request.GET.get("task") else None
    form = ReviewCreateForm(request.POST or None, team=team, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            review = review_lifecycle.review_create(
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


@login_required
@require_http_methods(["GET", "POST"])
def review_edit(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_review_for_user(request, pk)
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
                    review_reserve_links(
                        review=review,
                        actor=request.user,
                        links=links_form.cleaned_data["links"],
                        version=links_form.cleaned_data["version"],
                    )
                    messages.success(request, _("Reserved channels saved."))
                    return go(request, detail_url(review))
            else:
                title_form = ReviewTitleForm(request.POST)
                if title_form.is_valid():
                    review_lifecycle.review_update(
                        review=review,
                        actor=request.user,
                        title=title_form.cleaned_data["title"],
                        version=title_form.cleaned_data["version"],
                    )
                    messages.success(request, _("Review saved."))
                    return go(request, detail_url(review))
        except ReviewConflict as exc:
            return conflict(request, exc.message, detail_url(review))
        except ValidationError as exc:
            attach_errors(links_form if which == "links" else title_form, exc)
    context = {"review": review, "title_form": title_form, "links_form": links_form}
    return render(request, "reviews/edit.html", context, status=400 if request.POST else 200)
