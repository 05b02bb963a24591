"""Response helpers shared by the review and checklist views: the two shapes of one URL, and
the answers to a conflict or a refusal (a message and a fresh page, never a 500)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers

from apps.scoring.templatetags.scoring import finding_message


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx swap wants a fragment; a history restore (back button) wants the page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def render_shape(
    request: HttpRequest, page: str, fragment: str, context: dict, *, status: int = 200
) -> HttpResponse:
    template = f"{page}#{fragment}" if wants_fragment(request) else page
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def go(request: HttpRequest, url: str, *, status: int = 200) -> HttpResponse:
    """Navigate to `url`: a redirect, or for htmx an HX-Redirect (honoured whatever the status,
    so a 409 still brings the user to the fresh page)."""
    if wants_fragment(request):
        response = HttpResponse(status=status)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def conflict(request: HttpRequest, message: str, url: str) -> HttpResponse:
    """A lost race or a state that refuses the action: flash the reason, show the fresh page
    (409 for htmx, a redirect for a full page)."""
    messages.error(request, message)
    return go(request, url, status=409)


def reason_texts(reasons: list[dict]) -> list[str]:
    """Refusal reasons in the user's language (the engine ships English and Chinese)."""
    return [finding_message(r) for r in reasons]


def attach_errors(form: BaseForm, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: on the field when the form has it."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.error_dict.items():
        form.add_error(field if field in form.fields else None, errors)
