"""One URL, two shapes: the page for a normal request, a fragment for an htmx swap.

Every view that answers htmx goes through these helpers, so that
- a history restore (the Back button after htmx pushed a URL, when htmx's own history cache
  misses) gets the whole page, never a bare fragment;
- every response that can differ by shape says `Vary: HX-Request`, so no cache (the browser's
  included) hands the fragment to a full-page request or the reverse;
- a navigation after a write is a redirect for a page and an `HX-Redirect` for htmx.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

VARY = ("HX-Request",)


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx swap wants a fragment; a history restore (Back button, cache miss) the page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def vary(response: HttpResponse) -> HttpResponse:
    """Mark a response whose body depends on the request's shape."""
    patch_vary_headers(response, VARY)
    return response


def render_shape(
    request: HttpRequest, page: str, fragment: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """Render `page`, or `page#fragment` for an htmx swap (Vary: HX-Request either way)."""
    template = f"{page}#{fragment}" if wants_fragment(request) else page
    return vary(render(request, template, context, status=status))


def render_fragment(request: HttpRequest, page: str, fragment: str, context: dict) -> str:
    """The HTML of one fragment of `page` (to cache it, or to send several at once)."""
    return render_to_string(f"{page}#{fragment}", context, request=request)


def render_shared(request: HttpRequest, page: str, fragment: str, context: dict) -> str:
    """render_fragment for HTML kept in a cache and served to others (apps/web/fragments.py): it
    must hold no CSRF token (a POST form belongs outside it), which this refuses to return."""
    html = render_fragment(request, page, fragment, context)
    if "csrfmiddlewaretoken" in html:
        raise ValueError(f"{page}#{fragment} holds a CSRF token: it cannot be cached for others")
    return html


def go(request: HttpRequest, url: str, *, status: int = 200) -> HttpResponse:
    """Navigate to `url`: a redirect, or for htmx an HX-Redirect (honoured whatever the status,
    so a 409 still brings the user to the fresh page)."""
    if wants_fragment(request):
        response = HttpResponse(status=status)
        response["HX-Redirect"] = url
        return vary(response)
    return vary(redirect(url))


def conflict(request: HttpRequest, message: str, url: str) -> HttpResponse:
    """A lost race or a state that refuses the action: flash the reason, show the fresh page
    (409 for htmx, a redirect for a full page)."""
    messages.error(request, message)
    return go(request, url, status=409)
