"""Fixes of block findings taken from the review page itself (issue 15: every block has its fix
in place). Each answers like the other review actions: a redirect back to the review (an
HX-Redirect for htmx), a 409 on a stale version, the reason in place on a refused input.
"""

from __future__ import annotations

from collections.abc import Callable

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


def _refused(request: HttpRequest, url: str, errors) -> HttpResponse:
    for error in errors:
        messages.error(request, error)
    return go(request, url, status=422)


def _apply(
    request: HttpRequest, url: str, form, write: Callable[[dict], object], done: str,
    *, prefix_errors_of: str | None = None,
) -> HttpResponse:
    """The shape of every fix: the form's refusals flashed (422), then the write; a lost race is
    a 409, the service's refusal a 422, else the `done` message; always back to the review.
    `prefix_errors_of`: a field whose errors are prefixed with its label."""
    if not form.is_valid():
        errors = [
            f"{form.fields[name].label}: {error}" if name == prefix_errors_of else error
            for name, field_errors in form.errors.items()
            for error in field_errors
        ]
        return _refused(request, url, errors)
    try:
        write(form.cleaned_data)
    except ReviewConflict as exc:
        return conflict(request, exc.message, url)
    except ValidationError as exc:
        return _refused(request, url, exc.messages)
    messages.success(request, done)
    return go(request, url)


@login_required
@require_POST
def reserve_plan(request: HttpRequest, pk: int) -> HttpResponse:
    """SPEC H2: reserve the channels of the chosen plan's legs, named by the finding's button."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    return _apply(
        request,
        detail_url(review),
        PlanChannelsForm(request.POST),
        lambda data: review_reserve_plan(
            review=review, actor=request.user, pairs=data["pairs"], version=data["version"]
        ),
        _("Channels reserved. The evaluation is recomputed with them."),
    )


@login_required
@require_POST
def confirm_readiness(request: HttpRequest, pk: int) -> HttpResponse:
    """SPEC H2: confirm resume verified and environments aligned (on the task profile)."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    return _apply(
        request,
        detail_url(review),
        ReadinessForm(request.POST),
        lambda data: review_confirm_readiness(
            review=review,
            actor=request.user,
            fields=data["fields"],
            version=data["version"],
            profile_version=data["profile_version"],
        ),
        _("Readiness confirmed. The evaluation is recomputed with it."),
    )


@login_required
@require_POST
def fix_profile_field(request: HttpRequest, pk: int) -> HttpResponse:
    """P3, R1a, J4: set the task profile field the block finding asks for, from the review."""
    review = get_review_for_user(request, pk)
    require_role(request, review.team)
    return _apply(
        request,
        detail_url(review),
        ProfileFieldForm(request.POST, team=review.team),
        lambda data: review_fix_profile_field(
            review=review,
            actor=request.user,
            field=data["field"],
            value=data["value"],
            version=data["version"],
            profile_version=data["profile_version"],
        ),
        _("Task profile updated. The evaluation is recomputed with it."),
        prefix_errors_of="value",
    )
