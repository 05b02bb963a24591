"""Who is calling the API: a signed-in user (session) or a team API token (Bearer)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.middleware.csrf import CsrfViewMiddleware
from ninja.errors import HttpError
from ninja.security import HttpBearer
from ninja.security.session import SessionAuth

from apps.accounts.models import ApiToken, Team, team_ids_for
from apps.accounts.tokens import api_token_authenticate


@dataclass
class Principal:
    """The caller: a user with their teams, or one team through its token."""

    user: object | None = None
    token: ApiToken | None = None
    team_ids: list[int] = field(default_factory=list)
    current_team_id: int | None = None

    def team_for_write(self, team_id: int | None = None) -> Team | None:
        """The team a write goes to: the token's team, or a team of the user (unnamed: the team
        the session is working in, as for the pages, so a member of two teams who switched
        writes into the team switched to; without one, their first team)."""
        if self.token is not None:
            return self.token.team if team_id in (None, self.token.team_id) else None
        wanted = team_id if team_id is not None else self.current_team_id
        if wanted is None and self.team_ids:
            wanted = self.team_ids[0]
        if wanted not in self.team_ids:
            return None
        return Team.objects.filter(pk=wanted).first()


class TeamTokenAuth(HttpBearer):
    def authenticate(self, request, token: str) -> Principal | None:
        api_token = api_token_authenticate(token)
        if api_token is None:
            return None
        return Principal(token=api_token, team_ids=[api_token.team_id])


class UserSessionAuth(SessionAuth):
    """Session auth for browser calls; CSRF is enforced as for any other POST of the site."""

    def authenticate(self, request, key) -> Principal | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        reason = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if reason is not None:
            # A signed-in browser call without its CSRF token: refused, not anonymous.
            raise HttpError(403, "CSRF check failed: send the X-CSRFToken header")
        # The teams the session may see (apps.accounts.middleware): a team that signs in with
        # single sign-on only is left out after a password sign-in.
        team = getattr(request, "team", None)
        return Principal(
            user=user, team_ids=list(team_ids_for(user)), current_team_id=getattr(team, "pk", None)
        )


token_auth = TeamTokenAuth()
# csrf=False: ninja would check CSRF before knowing whether a session exists at all, answering
# 403 to token-less anonymous calls; the check is done in authenticate() instead.
session_auth = UserSessionAuth(csrf=False)
