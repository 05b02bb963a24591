"""One URL, two shapes: the page for a normal request, a fragment for an htmx request."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx swap wants a fragment; a history restore (back button, cache miss) the page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def render_shape(
    request: HttpRequest,
    page: str,
    fragment: str,
    context: dict,
    *,
    status: int = 200,
) -> HttpResponse:
    """Render `page`, or `page#fragment` for htmx; caches keep the two apart (Vary)."""
    template = f"{page}#{fragment}" if wants_fragment(request) else page
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def attach_errors(form: BaseForm, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: on the field when the form has it."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.error_dict.items():
        form.add_error(field if field in form.fields else None, errors)
