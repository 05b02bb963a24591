"""Signing in and out, and choosing the current team. Sign-in is django-allauth's (by username or
email; the team's "single sign-on only" rule in apps.accounts.forms.LoginForm); invitations are in
apps.accounts.invitation_views."""

from __future__ import annotations

from allauth.account.views import LoginView as AllauthLoginView
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .access import membership_for
from .middleware import SESSION_TEAM_KEY


class LoginView(AllauthLoginView):
    """allauth's sign-in under the existing name `accounts:login` (templates/account/login.html)."""


@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    """POST signs out. GET (a typed or bookmarked address) asks first, on allauth's sign-out page
    in the site's words (templates/account/logout.html), and signs no one out."""
    if request.method == "GET":
        if not request.user.is_authenticated:
            return redirect("accounts:login")
        return render(request, "account/logout.html")
    logout(request)
    messages.info(request, _("You are signed out."))
    return redirect("accounts:login")


@login_required
def account_home(request: HttpRequest) -> HttpResponse:
    """ "Your account": the user's teams and roles, and the ways to manage sign-in."""
    from django.conf import settings
    from django.shortcuts import render

    has_sso = bool(settings.SOCIALACCOUNT_PROVIDERS.get("openid_connect", {}).get("APPS"))
    return render(request, "accounts/account.html", {"has_sso": has_sso})


@login_required
@require_POST
def team_switch(request: HttpRequest) -> HttpResponse:
    try:
        team_id = int(request.POST.get("team", ""))
    except ValueError:
        team_id = 0
    membership = membership_for(request, team_id) or next(
        (m for m in getattr(request, "sso_memberships", []) if m.team_id == team_id), None
    )  # a team that asks for single sign-on may be chosen: its pages then ask for it
    if membership is None:
        messages.error(request, _("You are not a member of that team."))
    else:
        request.session[SESSION_TEAM_KEY] = membership.team_id
        messages.success(request, _("Switched to %(team)s.") % {"team": membership.team.name})
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "/"
    return HttpResponseRedirect(target)
