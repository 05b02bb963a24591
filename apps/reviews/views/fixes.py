"""Fixes of block findings taken from the review page itself (issue 15: every block has its fix
in place). Each answers like the other review actions: a redirect back to the review (an
HX-Redirect for htmx), a 409 on a stale version, the reason in place on a refused input.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts.access import require_role
from apps.reviews.forms import PlanChannelsForm, ProfileFieldForm, ReadinessForm
from apps.reviews.services.candidates import review_reserve_plan
from apps.reviews.services.profile_fixes import review_fix_profile_field
from apps.reviews.services.readiness import review_confirm_readiness
from apps.reviews.workflow import ReviewConflict
from apps.web.htmx import conflict, go

from .common import detail_url, get_review_for_user


@login_required
@require_POST
def reserve_plan(request: HttpRequest, pk: int) -> HttpResponse:
    """SPEC H2: reserve the channels of the chosen plan's legs, named by the finding's button."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    url = detail_url(review)
    form = PlanChannelsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return go(request, url, status=422)
    try:
        review_reserve_plan(
            review=review,
            actor=request.user,
            pairs=form.cleaned_data["pairs"],
            version=form.cleaned_data["version"],
        )
    except ReviewConflict as exc:
        return conflict(request, exc.message, url)
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
        return go(request, url, status=422)
    messages.success(
        request, _("Channels reserved. The evaluation is recomputed with them.")
    )
    return go(request, url)


@login_required
@require_POST
def confirm_readiness(request: HttpRequest, pk: int) -> HttpResponse:
    """SPEC H2: confirm resume verified and environments aligned (on the task profile)."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    url = detail_url(review)
    form = ReadinessForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return go(request, url, status=422)
    try:
        review_confirm_readiness(
            review=review,
            actor=request.user,
            fields=form.cleaned_data["fields"],
            version=form.cleaned_data["version"],
            profile_version=form.cleaned_data["profile_version"],
        )
    except ReviewConflict as exc:
        return conflict(request, exc.message, url)
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
        return go(request, url, status=422)
    messages.success(request, _("Readiness confirmed. The evaluation is recomputed with it."))
    return go(request, url)


@login_required
@require_POST
def fix_profile_field(request: HttpRequest, pk: int) -> HttpResponse:
    """P3, R1a, J4: set the task profile field the block finding asks for, from the review."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    url = detail_url(review)
    form = ProfileFieldForm(request.POST, team=review.team)
    if not form.is_valid():
        label = form.fields["value"].label if "value" in form.fields else ""
        for name, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{label}: {error}" if name == "value" else error)
        return go(request, url, status=422)
    data = form.cleaned_data
    try:
        review_fix_profile_field(
            review=review,
            actor=request.user,
            field=data["field"],
            value=data["value"],
            version=data["version"],
            profile_version=data["profile_version"],
        )
    except ReviewConflict as exc:
        return conflict(request, exc.message, url)
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
        return go(request, url, status=422)
    messages.success(request, _("Task profile updated. The evaluation is recomputed with it."))
    return go(request, url)
