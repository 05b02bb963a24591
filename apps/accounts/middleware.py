"""Attach the user's memberships and current team to each request (one query)."""

from __future__ import annotations

from .models import Membership

SESSION_TEAM_KEY = "current_team_id"


class CurrentTeamMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.memberships = []
        request.team = None
        request.membership = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            memberships = list(
                Membership.objects.filter(user=user).select_related("team").order_by("team__name")
            )
            request.memberships = memberships
            user._team_ids_cache = [m.team_id for m in memberships]
            wanted = request.session.get(SESSION_TEAM_KEY)
            chosen = next((m for m in memberships if m.team_id == wanted), None)
            chosen = chosen or (memberships[0] if memberships else None)
            if chosen is not None:
                request.membership = chosen
                request.team = chosen.team
        return self.get_response(request)
