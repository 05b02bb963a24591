"""The client's address, from one setting every part of the site reads (`TRUSTED_PROXY_COUNT`).

- 0 (the default): the address of the TCP peer, REMOTE_ADDR. X-Forwarded-For is the client's own
  words and is ignored, so nobody picks their own address.
- N: N reverse proxies of ours stand in front, each appending the address it received the
  connection from to X-Forwarded-For. The client is the N-th address from the right: what the
  client wrote itself sits further left and is never read. A request that reached the app past
  the proxies (fewer entries than N) or an entry that is not an address falls back to REMOTE_ADDR.

Used by django-axes (AXES_CLIENT_IP_CALLABLE), django-allauth's rate limits and its sessions list
(AccountAdapter.get_client_ip), so all of them count the same client.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    trusted = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if trusted <= 0:
        return remote
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if len(hops) < trusted:
        return remote
    return _address(hops[-trusted]) or remote
