"""The team's webhooks (owners only): the list with the form to add one, an endpoint's delivery
log, "send test", resume and delete. Another team's endpoint is a 404, a lower role a 403.
Adding, resuming and deleting are settings changes, audited as the others are (`services`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.access import require_current_team, require_role
from apps.accounts.models import Role
from apps.notifications.forms import WebhookForm
from apps.notifications.models import WebhookAttempt, WebhookEndpoint
from apps.notifications.webhooks import webhook_send_test
from apps.web.forms import attach_errors

from .services import team_webhook_add, team_webhook_delete, team_webhook_resume

LOG_SIZE = 50


def _endpoint(request: HttpRequest, pk: int) -> WebhookEndpoint:
    team = require_current_team(request)
    endpoint = WebhookEndpoint.objects.filter(team=team, pk=pk).select_related("team").first()
    if endpoint is None:
        raise Http404("Not found")
    require_role(request, team, Role.OWNER)
    return endpoint


@login_required
@require_http_methods(["GET", "POST"])
def webhook_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    form = WebhookForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound and form.is_valid():
        try:
            endpoint = team_webhook_add(team=team, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            # The secret is shown on this answer only; it is never shown again.
            return render(request, "notifications/webhook_created.html", {"endpoint": endpoint})
    if form.is_bound:
        status = 422
    endpoints = WebhookEndpoint.objects.filter(team=team)
    context = {"form": form, "endpoints": endpoints, "team": team}
    return render(request, "notifications/webhooks.html", context, status=status)


@login_required
@require_GET
def webhook_detail(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = _endpoint(request, pk)
    attempts = (
        WebhookAttempt.objects.filter(delivery__endpoint=endpoint)
        .select_related("delivery")
        .order_by("-at", "-id")[:LOG_SIZE]
    )
    context = {"endpoint": endpoint, "attempts": attempts}
    return render(request, "notifications/webhook_detail.html", context)


@login_required
@require_POST
def webhook_test(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = _endpoint(request, pk)
    if not endpoint.active:
        messages.error(request, _("The webhook is paused: resume it first."))
    else:
        webhook_send_test(endpoint=endpoint)
        messages.success(request, _("A test delivery is on its way; its answer shows below."))
    return redirect("teams:webhook_detail", pk=endpoint.pk)


@login_required
@require_POST
def webhook_resume(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = _endpoint(request, pk)
    team_webhook_resume(team=endpoint.team, actor=request.user, endpoint=endpoint)
    messages.success(request, _("The webhook is active again."))
    return redirect("teams:webhook_detail", pk=endpoint.pk)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, pk: int) -> HttpResponse:
    endpoint = _endpoint(request, pk)
    team_webhook_delete(team=endpoint.team, actor=request.user, endpoint=endpoint)
    messages.success(request, _("The webhook is deleted."))
    return redirect("teams:webhooks")
