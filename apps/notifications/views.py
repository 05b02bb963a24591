"""The inbox, following a notification, read marks and preferences.

Every notification is its recipient's alone: another person's (a teammate's too) is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.middleware import SESSION_TEAM_KEY
from apps.web.forms import attach_errors
from apps.web.htmx import go, render_shape

from . import selectors, services
from .forms import PreferencesForm
from .models import Notification

PAGE_SIZE = 20


def _own(request: HttpRequest, pk: int) -> Notification:
    try:
        return selectors.notification_for(user=request.user, pk=pk)
    except Notification.DoesNotExist as exc:
        raise Http404("Not found") from exc


def _inbox_context(request: HttpRequest) -> dict:
    page_obj = Paginator(selectors.inbox(user=request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return {"page_obj": page_obj, "querystring_base": ""}


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    return render_shape(
        request, "notifications/inbox.html", "notification-list", _inbox_context(request)
    )


@login_required
@require_GET
def open_notification(request: HttpRequest, pk: int) -> HttpResponse:
    """Follow a notification to its page, marking it read (idempotent, the reader's own row)."""
    notification = services.notification_mark_read(notification=_own(request, pk))
    # Its page is read as its team's (a person in several teams lands in the right one).
    request.session[SESSION_TEAM_KEY] = notification.team_id
    target = notification.url
    if not target or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("notifications:inbox")
    return redirect(target)


@login_required
@require_POST
def mark_read(request: HttpRequest, pk: int) -> HttpResponse:
    notification = services.notification_mark_read(notification=_own(request, pk))
    if request.htmx:
        # The item in place, and the bell's count out of band.
        return render(request, "notifications/inbox.html#notification-read", {"n": notification})
    return redirect("notifications:inbox")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    count = services.notifications_mark_all_read(user=request.user)
    if not request.htmx:
        messages.success(request, _("%(n)s notifications marked read.") % {"n": count})
    return go(request, reverse("notifications:inbox"))


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(
        request.POST if request.method == "POST" else None,
        initial_rows=selectors.preferences(user=request.user),
        language=selectors.email_language(user=request.user),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.preferences_set(
                user=request.user,
                choices=form.choices(),
                language=form.cleaned_data["language"],
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, _("Notification preferences saved."))
            return redirect("notifications:preferences")
    return render(request, "notifications/preferences.html", {"form": form})
