"""Sign-in lockout (django-axes) that counts the right things and cannot be turned on a user.

- The client address is apps.accounts.client_ip's (the one `TRUSTED_PROXY_COUNT` setting), the
  same one allauth's rate limits and sessions list use.
- Failures are counted per address across usernames (one password tried on many accounts) and
  per username across addresses (one account guessed from many places); five of either lock for
  15 minutes, then the failures expire (no captcha, no lock for ever).
- Failures count against the account, whatever is typed: `DAVE`, ` dave ` and `dave@example.com`
  are all dave (AXES_USERNAME_CALLABLE, `account_username`); a name no account has is counted in
  lower case, so its spellings share one count too.
- A user is not locked out by strangers: from an address where that user has signed in before,
  only that address's own failures count (the username-wide count, which anyone can drive up, is
  left out), so someone guessing from elsewhere cannot keep the owner out.
"""

from __future__ import annotations

from allauth.account.utils import filter_users_by_email
from axes.models import AccessLog
from django.contrib.auth import get_user_model

from .client_ip import client_ip


def _typed(request, credentials) -> str:
    credentials = credentials or {}
    for name in ("username", "email", "login"):
        if credentials.get(name):
            return str(credentials[name])
    post = getattr(request, "POST", None)
    return str(post.get("username") or post.get("login") or "") if post is not None else ""


def account_username(request, credentials=None) -> str | None:
    """AXES_USERNAME_CALLABLE: the account's own username for what was typed (its username in any
    case, or one of its addresses), else what was typed, stripped and in lower case."""
    typed = _typed(request, credentials).strip()
    if not typed:
        return None
    if "@" in typed:
        users = filter_users_by_email(typed, is_active=True, prefer_verified=True)
        if len(users) == 1:
            return users[0].get_username()
    field = get_user_model().USERNAME_FIELD
    user = get_user_model().objects.filter(**{f"{field}__iexact": typed}).order_by("pk").first()
    return user.get_username() if user is not None else typed.lower()


def _who_and_where(request_or_attempt, credentials) -> tuple[str | None, str | None]:
    if hasattr(request_or_attempt, "META"):
        username = account_username(request_or_attempt, credentials)
        return username, client_ip(request_or_attempt)
    # An AccessAttempt (axes asks with a stored attempt when it cleans up).
    return getattr(request_or_attempt, "username", None), getattr(
        request_or_attempt, "ip_address", None
    )


def lockout_parameters(request_or_attempt, credentials=None) -> list:
    """AXES_LOCKOUT_PARAMETERS: what the failures are counted by, for this sign-in."""
    username, address = _who_and_where(request_or_attempt, credentials)
    if (
        username
        and address
        and AccessLog.objects.filter(username=username, ip_address=address).exists()
    ):
        return ["ip_address", ["username", "ip_address"]]
    return ["ip_address", "username"]
