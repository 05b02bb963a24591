"""Sign-in lockout (django-axes) that counts the right things and cannot be turned on a user.

- The client address is REMOTE_ADDR, unless the deployment names the header its reverse proxy
  sets (`DJANGO_CLIENT_IP_HEADER`, e.g. X-Forwarded-For, with `DJANGO_TRUSTED_PROXIES` proxies in
  front): then the address the nearest trusted proxy saw, never a value the client wrote itself.
- Failures are counted per address across usernames (one password tried on many accounts) and
  per username across addresses (one account guessed from many places); five of either lock for
  15 minutes, then the failures expire (no captcha, no lock for ever).
- A user is not locked out by strangers: from an address where that user has signed in before,
  only that address's own failures count (the username-wide count, which anyone can drive up, is
  left out), so someone guessing from elsewhere cannot keep the owner out.
"""

from __future__ import annotations

from axes.models import AccessLog
from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address as the deployment trusts it (AXES_CLIENT_IP_CALLABLE)."""
    header = getattr(settings, "CLIENT_IP_META_KEY", "")
    if header:
        hops = [hop.strip() for hop in request.META.get(header, "").split(",") if hop.strip()]
        trusted = max(1, getattr(settings, "TRUSTED_PROXY_COUNT", 1))
        if len(hops) >= trusted:
            # Each trusted proxy appends the address it received from; the client may have sent
            # anything before that, so take the one the outermost trusted proxy appended.
            return hops[-trusted]
    return request.META.get("REMOTE_ADDR")


def _who_and_where(request_or_attempt, credentials) -> tuple[str | None, str | None]:
    if hasattr(request_or_attempt, "META"):
        username = (credentials or {}).get("username")
        return username, client_ip(request_or_attempt)
    # An AccessAttempt (axes asks with a stored attempt when it cleans up).
    return getattr(request_or_attempt, "username", None), getattr(
        request_or_attempt, "ip_address", None
    )


def lockout_parameters(request_or_attempt, credentials=None) -> list:
    """AXES_LOCKOUT_PARAMETERS: what the failures are counted by, for this sign-in."""
    username, address = _who_and_where(request_or_attempt, credentials)
    if username and address and AccessLog.objects.filter(
        username=username, ip_address=address
    ).exists():
        return ["ip_address", ["username", "ip_address"]]
    return ["ip_address", "username"]
