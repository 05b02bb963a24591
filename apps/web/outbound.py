"""Requests the site makes to addresses its users typed (webhooks, MLflow tracking servers), under
one address rule so that such a URL cannot probe the internal network (issue 40).

- Only http and https URLs with a host name.
- The name is resolved at send time (`RESOLVER`), and every address it resolves to is checked:
  loopback, private, link-local, shared (100.64/10), multicast, reserved and unspecified addresses
  are refused unless `OUTBOUND_ALLOW_PRIVATE` is on or the address is in one of
  `OUTBOUND_ALLOWED_NETWORKS`; cloud metadata addresses are refused always.
  An IPv4 address mapped or embedded in IPv6 (::ffff:10.0.0.1, 6to4, NAT64) is judged as itself.
- The connection goes to the address that was checked (the Host header and the TLS name stay
  the URL's), so a second, different answer of the DNS (rebinding) is never used.
- Redirects are followed by hand, at most `MAX_REDIRECTS`, each target checked the same way.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

MAX_REDIRECTS = 3
MAX_BODY = 1024 * 1024  # bytes of an answer read at most
TIMEOUT = 10.0
REDIRECTS = {301, 302, 303, 307, 308}
# Instance metadata services (AWS/GCP/Azure/OpenStack, AWS IPv6, Alibaba, Azure wire server).
METADATA = {
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("fd00:ec2::254"),
    ipaddress.ip_address("100.100.100.200"),
    ipaddress.ip_address("168.63.129.16"),
}
SHARED = ipaddress.ip_network("100.64.0.0/10")
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class OutboundRefused(Exception):
    """The URL or an address it leads to is not one the site may call; `message` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


# host, port -> the addresses to consider. Tests point it at a fixed address (a real connection
# is still made to it); nothing else replaces it.
RESOLVER: Callable[[str, int], list[str]] = _system_resolver


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_refusal(address: str, *, allow_private: bool | None = None) -> str | None:
    """Why the site may not connect to `address` (None: it may)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return _("%(ip)s is not an IP address") % {"ip": address}
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            ip = embedded
    if ip in METADATA:
        return _("%(ip)s is a cloud metadata address") % {"ip": ip}
    if allow_private is None:
        allow_private = settings.OUTBOUND_ALLOW_PRIVATE
    if allow_private or any(
        ip in ipaddress.ip_network(n, strict=False) for n in settings.OUTBOUND_ALLOWED_NETWORKS
    ):
        return None
    if ip.is_loopback:
        return _("%(ip)s is a loopback address") % {"ip": ip}
    if ip.is_link_local:
        return _("%(ip)s is a link-local address") % {"ip": ip}
    if ip.is_private or ip in SHARED:
        return _("%(ip)s is a private address") % {"ip": ip}
    if ip.is_multicast or ip.is_reserved or ip.is_unspecified or not ip.is_global:
        return _("%(ip)s is not a public address") % {"ip": ip}
    return None


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query


def parse_url(url: str) -> Target:
    """The URL's parts; OutboundRefused unless it is http(s) with a host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise OutboundRefused(_("Not a valid URL.")) from exc
    if parts.scheme not in ("http", "https"):
        raise OutboundRefused(_("only http and https URLs are allowed"))
    if not parts.hostname:
        raise OutboundRefused(_("the URL has no host"))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    default = 443 if parts.scheme == "https" else 80
    return Target(parts.scheme, parts.hostname, port or default, path)


def checked_address(target: Target, *, allow_private: bool | None = None) -> str:
    """The address to connect to: the first the name resolves to, when none is refused.
    `allow_private` overrides the setting (an operator's command line, never a page)."""
    try:
        ipaddress.ip_address(target.host)
        addresses = [target.host]
    except ValueError:
        try:
            addresses = RESOLVER(target.host, target.port)
        except OSError as exc:
            raise OutboundRefused(_("%(host)s does not resolve") % {"host": target.host}) from exc
    if not addresses:
        raise OutboundRefused(_("%(host)s does not resolve") % {"host": target.host})
    for address in addresses:
        reason = address_refusal(address, allow_private=allow_private)
        if reason is not None:
            raise OutboundRefused(f"{target.host}: {reason}")
    return addresses[0]


def check_url(url: str, *, allow_private: bool | None = None) -> None:
    """What a form checks when a URL is typed (the send checks again, at send time)."""
    checked_address(parse_url(url), allow_private=allow_private)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        # The certificate is checked against the URL's name, on the address that was checked.
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


@dataclass
class Response:
    status: int
    body: bytes
    url: str
    headers: dict[str, str] = field(default_factory=dict)


def request(
    method: str,
    url: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = TIMEOUT,
    allow_private: bool | None = None,
) -> Response:
    """One request under the address rule, following redirects; OutboundRefused or OSError."""
    headers = dict(headers or {})
    for _hop in range(MAX_REDIRECTS + 1):
        target = parse_url(url)
        address = checked_address(target, allow_private=allow_private)
        kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
        connection = kind(target.host, target.port, address, timeout)
        try:
            connection.request(method, target.path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read(MAX_BODY)
            location = answer.getheader("Location")
            status = answer.status
            answer_headers = {k.lower(): v for k, v in answer.getheaders()}
        except http.client.HTTPException as exc:
            raise OSError(f"bad HTTP answer: {exc}") from exc
        finally:
            connection.close()
        if status not in REDIRECTS or not location:
            return Response(status, data, url, answer_headers)
        url = urljoin(url, location)
        if status == 303 or (status in (301, 302) and method == "POST"):
            method, body = "GET", None
            headers.pop("Content-Type", None)
    raise OutboundRefused(_("more than %(n)s redirects") % {"n": MAX_REDIRECTS})
