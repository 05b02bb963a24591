"""Catalog pages: sites, network links and offers, with inline htmx editing of table rows.

Everyone in the team reads; owners write. Sites, links and offers share one shape, described by
a `Kind`, so the three sets of views below are thin wrappers around the same five steps.

htmx shapes (each URL also serves a full page without JavaScript):
- GET create/edit → the inline form row; POST → the display row on success, or the form row with
  its errors, status 200 (htmx does not swap 4xx responses by default). An edit saved on an older
  version answers the form row with what changed, status 409 (base.html has htmx swap a 409).
- POST delete → an empty body (the row disappears) or, when something uses the object, the row
  with the reason, status 200. The full-page refusal answers 409 with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

import engine
from apps.accounts.access import get_scoped_or_404, require_current_team, require_role
from apps.accounts.models import Role, Team
from apps.web.concurrency import StaleVersion, stale_form
from apps.web.forms import attach_errors
from apps.web.htmx import render_shape, wants_fragment
from apps.web.search import MAX_QUERY, search_queryset

from . import selectors, services
from .forms import NetworkLinkForm, OfferForm, SiteForm
from .models import NetworkLink, Offer, Site
from .pricing import gpu_hour_price

PAGE_SIZE = 25


@dataclass(frozen=True)
class Kind:
    """What differs between sites, links and offers; the views do the rest."""

    key: str  # url prefix and row id prefix: "site" → catalog:site_list, <tr id="site-12">
    model: type[Model]
    form: type[ModelForm]
    template: str
    noun: Any  # lazy, e.g. "site"
    title: Any  # lazy, e.g. "Sites"
    fieldsets: tuple[tuple[Any, tuple[str, ...]], ...]
    rows: Callable[[Team], QuerySet]
    create: Callable[[Team, dict], Model]
    update: Callable[[Model, dict], Model]
    delete: Callable[[Model], None]
    columns: int  # for the colspan of the inline form row
    search: tuple[str, ...] = ()  # what the list's search box looks in (none: no box)

    def url(self, action: str, *args) -> str:
        return reverse(f"catalog:{self.key}_{action}", args=args)

    @property
    def names(self) -> dict[str, str]:
        """URL names for templates: {% url kind.names.edit obj.pk %}."""
        actions = ("list", "create", "edit", "delete", "row")
        return {action: f"catalog:{self.key}_{action}" for action in actions}


SITES = Kind(
    key="site",
    model=Site,
    form=SiteForm,
    template="catalog/sites.html",
    noun=gettext_lazy("site"),
    title=gettext_lazy("Sites"),
    fieldsets=(
        (gettext_lazy("Site"), ("code", "name", "datacenter", "city", "hub")),
        (gettext_lazy("Capacity"), ("queue_hours", "storage_tb")),
    ),
    rows=lambda team: selectors.site_list(team=team),
    create=lambda team, data: services.site_create(team=team, **data),
    update=lambda obj, data: services.site_update(site=obj, **data),
    delete=lambda obj: services.site_delete(site=obj),
    columns=8,
)
LINKS = Kind(
    key="link",
    model=NetworkLink,
    form=NetworkLinkForm,
    template="catalog/links.html",
    noun=gettext_lazy("network link"),
    title=gettext_lazy("Network links"),
    fieldsets=(
        (gettext_lazy("Direction"), ("from_site", "to_site")),
        (
            gettext_lazy("Network"),
            ("bandwidth_gbps", "rtt_ms", "price_per_gb", "buffer", "reservable"),
        ),
    ),
    rows=lambda team: selectors.link_list(team=team),
    create=lambda team, data: services.link_create(team=team, **data),
    update=lambda obj, data: services.link_update(link=obj, **data),
    delete=lambda obj: services.link_delete(link=obj),
    columns=9,
)
OFFERS = Kind(
    key="offer",
    model=Offer,
    form=OfferForm,
    template="catalog/offers.html",
    noun=gettext_lazy("offer"),
    title=gettext_lazy("Offers"),
    fieldsets=(
        (gettext_lazy("Offer"), ("provider", "name", "kind", "site", "region", "instance_type")),
        (
            gettext_lazy("Hardware"),
            (
                "gpu_model",
                "gpu_mem_gb",
                "gpus_per_machine",
                "max_machines",
                "interconnect",
                "relative_speed",
            ),
        ),
        (
            gettext_lazy("Billing"),
            (
                "billing_basis",
                "price",
                "contract_hours",
                "expected_utilization",
                "contract_paid",
                "scheduling_fee_pct",
                "preemptible",
                "preemptions_per_day",
            ),
        ),
        (
            gettext_lazy("Running and leaving"),
            ("parallelism", "checkpoint_resume", "boot_hours", "exit_path"),
        ),
    ),
    rows=lambda team: selectors.offer_list(team=team),
    create=lambda team, data: services.offer_create(team=team, **data),
    update=lambda obj, data: services.offer_update(offer=obj, **data),
    delete=lambda obj: services.offer_delete(offer=obj),
    columns=8,
    search=("name", "provider", "site__code", "site__name", "region", "gpu_model"),
)


def _fieldsets(kind: Kind, form: ModelForm) -> list[tuple[Any, list]]:
    return [(legend, [form[name] for name in names]) for legend, names in kind.fieldsets]


def _context(request: HttpRequest, kind: Kind, team: Team, **extra) -> dict:
    membership = require_role(request, team)
    return {
        "kind": kind,
        "team": team,
        "currency": team.currency,
        "can_edit": membership.role == Role.OWNER,
        "thresholds": {**engine.DEFAULT_THRESHOLDS, **(team.thresholds or {})},
        **extra,
    }


def _form_context(request, kind: Kind, team: Team, form: ModelForm, obj=None) -> dict:
    return _context(request, kind, team, form=form, obj=obj, fieldsets=_fieldsets(kind, form))


def _post_data(request: HttpRequest):
    return request.POST if request.method == "POST" else None


# The five steps, shared by the three kinds.


def _list(request: HttpRequest, kind: Kind) -> HttpResponse:
    team = require_current_team(request)
    q = request.GET.get("q", "").strip()[:MAX_QUERY] if kind.search else ""
    rows = search_queryset(kind.rows(team), q, kind.search)
    page_obj = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    kept = f"{urlencode({'q': q})}&" if q else ""
    context = _context(request, kind, team, page_obj=page_obj, querystring_base=kept, q=q)
    return render_shape(request, kind.template, "table", context)


def _row(request: HttpRequest, kind: Kind, pk: int) -> HttpResponse:
    obj = get_scoped_or_404(kind.model, request.user, pk=pk)
    if not wants_fragment(request):
        return redirect(kind.url("list"))
    return render_shape(request, kind.template, "row", _context(request, kind, obj.team, obj=obj))


def _create(request: HttpRequest, kind: Kind) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    form = kind.form(_post_data(request), instance=kind.model(team=team), team=team)
    if form.is_bound and form.is_valid():
        try:
            obj = kind.create(team, form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            if wants_fragment(request):
                context = _context(request, kind, team, obj=obj)
                return render_shape(request, kind.template, "created", context)
            messages.success(request, _("Saved %(object)s.") % {"object": obj})
            return redirect(kind.url("list"))
    context = _form_context(request, kind, team, form)
    if wants_fragment(request):
        return render_shape(request, kind.template, "rowform", context)
    return render(request, "catalog/form.html", context)


def _edit(request: HttpRequest, kind: Kind, pk: int) -> HttpResponse:
    obj = get_scoped_or_404(kind.model, request.user, pk=pk)
    require_role(request, obj.team, Role.OWNER)
    form = kind.form(_post_data(request), instance=obj, team=obj.team)
    status = 200
    if form.is_bound and form.is_valid():
        try:
            obj = kind.update(obj, form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        except StaleVersion:
            # Someone saved first: their values stay; these come back to re-apply (409, in place).
            def factory(data):
                return kind.form(data, instance=get_object_or_404(kind.model, pk=pk), team=obj.team)

            form, status = stale_form(form, factory), 409
        else:
            if wants_fragment(request):
                context = _context(request, kind, obj.team, obj=obj)
                return render_shape(request, kind.template, "row", context)
            messages.success(request, _("Saved %(object)s.") % {"object": obj})
            return redirect(kind.url("list"))
    if form.is_bound:
        obj.refresh_from_db()  # the form wrote its invalid values onto the instance
    context = _form_context(request, kind, obj.team, form, obj)
    if wants_fragment(request):
        return render_shape(request, kind.template, "rowform", context, status=status)
    return render(request, "catalog/form.html", context, status=status)


def _delete(request: HttpRequest, kind: Kind, pk: int) -> HttpResponse:
    obj = get_scoped_or_404(kind.model, request.user, pk=pk)
    require_role(request, obj.team, Role.OWNER)
    context = _context(request, kind, obj.team, obj=obj)
    if request.method == "POST":
        label = str(obj)
        try:
            kind.delete(obj)
        except services.InUseError as exc:
            context["error"] = exc.message
            if wants_fragment(request):
                return render_shape(request, kind.template, "row", context)
            return render(request, "catalog/delete.html", context, status=409)
        if wants_fragment(request):
            return HttpResponse("")
        messages.success(request, _("Deleted %(object)s.") % {"object": label})
        return redirect(kind.url("list"))
    return render(request, "catalog/delete.html", context)


# Overview and offer detail


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    context = _context(request, None, team, **selectors.catalog_overview(team=team))
    return render(request, "catalog/index.html", context)


@login_required
@require_GET
def offer_detail(request: HttpRequest, pk: int) -> HttpResponse:
    offer = get_scoped_or_404(Offer.objects.select_related("site", "team"), request.user, pk=pk)
    context = _context(
        request,
        OFFERS,
        offer.team,
        obj=offer,
        price=gpu_hour_price(offer, offer.team.currency),
        reviews=list(selectors.offer_reviews(offer=offer)[:50]),
        price_changes=list(offer.price_changes.all()[:10]),
    )
    return render(request, "catalog/offer_detail.html", context)


# Sites


@login_required
@require_GET
def site_list(request: HttpRequest) -> HttpResponse:
    return _list(request, SITES)


@login_required
@require_http_methods(["GET", "POST"])
def site_create(request: HttpRequest) -> HttpResponse:
    return _create(request, SITES)


@login_required
@require_http_methods(["GET", "POST"])
def site_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _edit(request, SITES, pk)


@login_required
@require_http_methods(["GET", "POST"])
def site_delete(request: HttpRequest, pk: int) -> HttpResponse:
    return _delete(request, SITES, pk)


@login_required
@require_GET
def site_row(request: HttpRequest, pk: int) -> HttpResponse:
    return _row(request, SITES, pk)


# Network links


@login_required
@require_GET
def link_list(request: HttpRequest) -> HttpResponse:
    return _list(request, LINKS)


@login_required
@require_http_methods(["GET", "POST"])
def link_create(request: HttpRequest) -> HttpResponse:
    return _create(request, LINKS)


@login_required
@require_http_methods(["GET", "POST"])
def link_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _edit(request, LINKS, pk)


@login_required
@require_http_methods(["GET", "POST"])
def link_delete(request: HttpRequest, pk: int) -> HttpResponse:
    return _delete(request, LINKS, pk)


@login_required
@require_GET
def link_row(request: HttpRequest, pk: int) -> HttpResponse:
    return _row(request, LINKS, pk)


# Offers


@login_required
@require_GET
def offer_list(request: HttpRequest) -> HttpResponse:
    return _list(request, OFFERS)


@login_required
@require_http_methods(["GET", "POST"])
def offer_create(request: HttpRequest) -> HttpResponse:
    return _create(request, OFFERS)


@login_required
@require_http_methods(["GET", "POST"])
def offer_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _edit(request, OFFERS, pk)


@login_required
@require_http_methods(["GET", "POST"])
def offer_delete(request: HttpRequest, pk: int) -> HttpResponse:
    return _delete(request, OFFERS, pk)


@login_required
@require_GET
def offer_row(request: HttpRequest, pk: int) -> HttpResponse:
    return _row(request, OFFERS, pk)
