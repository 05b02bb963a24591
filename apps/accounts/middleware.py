"""Attach the user's memberships and current team to each request (one query).

- The current team is the one the person chose (the team switcher, or accepting an invitation),
  kept in the session. Without a choice it is the team they joined first (never the first by
  name): a membership made later (an invitation accepted elsewhere, a team created) never
  changes which team someone is working in.
- "Single sign-on only" (Team.sso_only) holds per team: a person who signed in with a password
  keeps their other teams, but the teams that ask for single sign-on are left out of
  `request.memberships` and of every team-scoped query, and while such a team is the current one
  its pages answer with a page asking for single sign-on (SSO_REQUIRED_TEMPLATE), nothing else.
- Every answer to a signed-in person is `Cache-Control: private, no-store` unless its view said
  otherwise.
"""

from __future__ import annotations

from allauth.account.authentication import get_authentication_records
from django.shortcuts import render
from django.utils.cache import patch_cache_control

from .models import Membership

SESSION_TEAM_KEY = "current_team_id"
SSO_REQUIRED_TEMPLATE = "accounts/sso_required.html"
# Paths that stay reachable while the current team asks for single sign-on: signing in (and out),
# choosing another team, invitations, static files, the language switch and the health check.
SSO_EXEMPT_PREFIXES = ("/accounts/", "/static/", "/i18n/", "/ping", "/admin/", "/api/")


def signed_in_with_sso(request) -> bool:
    """Whether this session's sign-in went through the identity provider (allauth's record)."""
    try:
        records = get_authentication_records(request, request.user)
    except Exception:  # noqa: BLE001 - no session (a bare request): not signed in with it
        return False
    return any(record.get("method") == "socialaccount" for record in records or [])


def _pick(memberships: list[Membership], wanted) -> Membership | None:
    chosen = next((m for m in memberships if m.team_id == wanted), None)
    if chosen is None and memberships:
        chosen = min(memberships, key=lambda m: (m.created_at, m.pk))  # joined first
    return chosen


class CurrentTeamMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.memberships = []
        request.sso_memberships = []
        request.team = None
        request.membership = None
        request.sso_required_team = None
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        blocked = self._attach(request, user)
        if blocked is not None and not request.path_info.startswith(SSO_EXEMPT_PREFIXES):
            context = {"sso_team": blocked, "memberships": request.memberships}
            response = render(request, SSO_REQUIRED_TEMPLATE, context, status=403)
        else:
            response = self.get_response(request)
        if response is not None and "Cache-Control" not in response:
            # A signed-in page is the person's own: no shared cache or browser disk keeps it.
            patch_cache_control(response, private=True, no_store=True)
        return response

    def _attach(self, request, user):
        """Set the request's memberships and team; the team that asks for single sign-on first,
        when it is the current one (else None)."""
        memberships = list(
            Membership.objects.filter(user=user).select_related("team").order_by("team__name")
        )
        sso = signed_in_with_sso(request)
        request.memberships = [m for m in memberships if sso or not m.team.sso_only]
        request.sso_memberships = [m for m in memberships if not sso and m.team.sso_only]
        user._team_ids_cache = [m.team_id for m in request.memberships]
        wanted = request.session.get(SESSION_TEAM_KEY)
        asking = next((m for m in request.sso_memberships if m.team_id == wanted), None)
        if asking is not None:
            request.sso_required_team = asking.team
            return asking.team
        chosen = _pick(request.memberships, wanted)
        if chosen is None and request.sso_memberships:
            request.sso_required_team = request.sso_memberships[0].team
            return request.sso_required_team
        if chosen is not None:
            request.membership = chosen
            request.team = chosen.team
        return None
