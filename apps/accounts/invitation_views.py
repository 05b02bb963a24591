"""Invitation pages: the owner's list (invite, revoke) and the link's landing page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .access import require_current_team, require_role
from .forms import InvitationForm
from .invitations import (
    SESSION_INVITATION_KEY,
    InvitationError,
    email_matches,
    invitation_accept,
    invitation_create,
    invitation_for_token,
    invitation_problem,
    invitation_revoke,
    pending_for_team,
)
from .middleware import SESSION_TEAM_KEY
from .models import Invitation, Membership, Role

PROBLEM_STATUS = {"not_found": 404, "wrong_email": 403}


def _owner_team(request: HttpRequest):
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    return team


def _render_list(request, team, form, status=200) -> HttpResponse:
    context = {"team": team, "form": form, "invitations": pending_for_team(team)}
    return render(request, "accounts/invitations/list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_list(request: HttpRequest) -> HttpResponse:
    team = _owner_team(request)
    if request.method == "GET":
        return _render_list(request, team, InvitationForm())
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return _render_list(request, team, form, status=422)
    try:
        invitation, _token = invitation_create(
            team=team,
            email=form.cleaned_data["email"],
            role=form.cleaned_data["role"],
            invited_by=request.user,
            base_url=request.build_absolute_uri("/"),
        )
    except ValidationError as exc:
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return _render_list(request, team, form, status=422)
    messages.success(request, _("Invitation sent to %(email)s.") % {"email": invitation.email})
    return redirect("accounts:invitations")


@login_required
@require_POST
def invitation_revoke_view(request: HttpRequest, pk: int) -> HttpResponse:
    team = _owner_team(request)
    invitation = get_object_or_404(Invitation.objects.for_team(team), pk=pk)
    if invitation_revoke(invitation=invitation):
        messages.success(
            request, _("Invitation to %(email)s revoked.") % {"email": invitation.email}
        )
    else:
        messages.info(request, _("That invitation was already used or revoked."))
    return redirect("accounts:invitations")


def _has_account(email: str) -> bool:
    from allauth.account.models import EmailAddress

    return (
        get_user_model().objects.filter(email__iexact=email).exists()
        or EmailAddress.objects.filter(email__iexact=email, verified=True).exists()
    )


def _problem(request, problem: str, invitation=None) -> HttpResponse:
    return render(
        request,
        "accounts/invitations/problem.html",
        {"problem": problem, "invitation": invitation},
        status=PROBLEM_STATUS.get(problem, 410),
    )


@require_http_methods(["GET", "POST"])
def invitation_accept_view(request: HttpRequest, token: str) -> HttpResponse:
    invitation = invitation_for_token(token)
    problem = invitation_problem(invitation)
    if problem:
        return _problem(request, problem, invitation)
    user = request.user
    if not user.is_authenticated:
        if _has_account(invitation.email):
            # An existing account: sign in, then come back here to join.
            context = {"invitation": invitation, "login_next": request.path}
            return render(request, "accounts/invitations/sign_in_first.html", context)
        request.session[SESSION_INVITATION_KEY] = token
        return redirect("account_signup")
    if not email_matches(user, invitation.email):
        return _problem(request, "wrong_email", invitation)
    if Membership.objects.filter(user=user, team_id=invitation.team_id).exists():
        return render(
            request, "accounts/invitations/already_member.html", {"invitation": invitation}
        )
    if request.method == "GET":
        return render(request, "accounts/invitations/accept.html", {"invitation": invitation})
    try:
        membership, _created = invitation_accept(invitation_id=invitation.pk, user=user)
    except InvitationError as exc:
        return _problem(request, exc.code, invitation)
    request.session[SESSION_TEAM_KEY] = membership.team_id
    messages.success(request, _("Welcome to %(team)s.") % {"team": membership.team.name})
    return redirect(reverse("home"))
