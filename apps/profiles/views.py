"""Task profile pages: list, form with the live engine panel, profile page, sizing page.

Any member of the team (member, reviewer, owner) reads, creates, edits and deletes profiles;
deletion is refused while a review, a benchmark or a snapshot uses the profile.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    condition,
    require_GET,
    require_http_methods,
    require_POST,
)

from apps.accounts.access import (
    get_scoped_or_404,
    membership_for,
    require_current_team,
    require_role,
)
from apps.accounts.models import Role
from apps.catalog.services import InUseError
from apps.web.concurrency import StaleVersion, stale_form
from apps.web.forms import attach_errors
from apps.web.fragments import cached_fragments, page_etag
from apps.web.htmx import render_shape, render_shared, vary, wants_fragment

from . import selectors, services
from .config_fill import FILL, ModelConfigForm, filled, unjudged
from .forms import ProfileFilterForm, TaskProfileForm, filter_sites
from .models import TaskProfile
from .preprocess import PreprocessFillForm, preprocess_latest
from .rows import profile_rows
from .sections import profile_sections
from .sizing_form import SizingForm, sizing_data

PAGE_SIZE = 25


@login_required
@require_GET
@condition(etag_func=lambda request: page_etag(request))
def profile_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    sites = cache(lambda: filter_sites(team))
    filters_form = cache(lambda: ProfileFilterForm(request.GET, sites=sites()))
    filters = cache(lambda: filters_form().filters())
    page = "profiles/list.html"

    def form() -> str:
        context = {"filters_form": filters_form(), "filtered": bool(filters())}
        return render_shared(request, page, "profile-filters", context)

    def results() -> str:
        query = filters()
        rows = selectors.profile_list(team=team, **query)
        page_obj = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
        context = {
            "filtered": bool(query),
            "page_obj": page_obj,
            "rows_html": profile_rows(page_obj),
            "querystring_base": urlencode(query) + "&" if query else "",
        }
        return render_shared(request, page, "profile-results", context)

    # The same for every member until the team's data changes.
    html = cached_fragments(
        page,
        team_ids=[team.pk],
        parts=(sorted(request.GET.lists()),),
        fragments={"filters": form, "results": results},
    )
    context = {"filters_html": html["filters"], "results_html": html["results"]}
    return render_shape(request, page, "profile-results", context)


@login_required
@require_http_methods(["GET", "POST"])
def profile_create(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    data, config = _posted(request)
    form = TaskProfileForm(data, instance=TaskProfile(team=team), team=team)
    if config.is_bound:
        unjudged(form)
    elif form.is_bound and form.is_valid():
        try:
            profile = services.profile_create(
                team=team, created_by=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, _("Profile %(name)s saved.") % {"name": profile.name})
            return redirect("profiles:detail", pk=profile.pk)
    panel = selectors.live_panel(team=team, data=data)
    context = {"form": form, "profile": None, "team": team, "config_form": config, **panel}
    return render(request, "profiles/form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request: HttpRequest, pk: int) -> HttpResponse:
    profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    require_role(request, profile.team)
    data, config = _posted(request)
    form = TaskProfileForm(data, instance=profile, team=profile.team)
    status = 200
    if config.is_bound:
        unjudged(form)
    elif form.is_bound and form.is_valid():
        try:
            profile = services.profile_update(
                profile=profile, actor=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        except StaleVersion:
            # Someone saved first: their profile stays; this one comes back to re-apply.
            form, status = stale_form(form, lambda data: _edit_form(request, pk, data)), 409
        else:
            messages.success(request, _("Profile %(name)s saved.") % {"name": profile.name})
            back = _back_to(request)
            return redirect(back) if back else redirect("profiles:detail", pk=profile.pk)
    if form.is_bound:
        profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    panel = selectors.live_panel(team=profile.team, data=data, profile=profile)
    context = {
        "form": form,
        "profile": profile,
        "team": profile.team,
        "config_form": config,
        "next": _back_to(request),
        **panel,
    }
    return render(request, "profiles/form.html", context, status=status)


def _posted(request: HttpRequest):
    """(the profile's data, the config.json form): the POST (None on GET), with the shape fields
    filled from a config.json when its button was pressed (the config form then bound)."""
    if request.method != "POST":
        return None, ModelConfigForm()
    if FILL in request.POST:
        return filled(request)
    return request.POST, ModelConfigForm()


def _back_to(request: HttpRequest) -> str:
    """Where a save returns to when the edit was opened from another page (a review's fix of a
    block finding, issue 15): a path of this site only, else nothing."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, {request.get_host()}, request.is_secure()
    ):
        return ""
    return target


def _edit_form(request: HttpRequest, pk: int, data=None) -> TaskProfileForm:
    """The edit form of the profile as stored now (bound to `data` when given)."""
    profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    return TaskProfileForm(data, instance=profile, team=profile.team)


@login_required
@require_GET
def profile_detail(request: HttpRequest, pk: int) -> HttpResponse:
    profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    require_role(request, profile.team)
    context = {
        "profile": profile,
        "team": profile.team,
        "currency": profile.team.currency,
        "sections": profile_sections(profile, profile.team.currency),
        "can_record_runs": _can_record_runs(request, profile),
        **preprocess_latest(profile=profile),
        **selectors.profile_evaluation(profile=profile),
    }
    return render(request, "profiles/detail.html", context)


@login_required
@require_POST
def profile_fill_preprocess(request: HttpRequest, pk: int) -> HttpResponse:
    """One click (SPEC 6.4): the staged-plan fields from the task's preprocessing run `record`,
    on the profile version the page showed. htmx: the fill card in place; else back to the page."""
    profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    require_role(request, profile.team)
    form = PreprocessFillForm(request.POST)
    status, note = 200, ""
    try:
        if not form.is_valid():
            raise services.NothingToFill(services.NOTHING_TO_FILL)
        profile = services.profile_fill_from_preprocess(
            profile=profile,
            record_id=form.cleaned_data["record"],
            actor=request.user,
            version=form.cleaned_data.get("version"),
        )
    except services.NothingToFill as exc:
        # Another task's or team's record, or none: nothing written, nothing of theirs shown.
        status, note = 409, str(exc)
    except StaleVersion:
        status = 409
        note = _(
            "The profile changed since this page was loaded: check its figures, then fill again."
        )
        profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    except ValidationError as exc:
        # The profile refuses the figures as they stand (409: the card shows why, in place).
        status = 409
        note = " ".join(m for messages_ in exc.message_dict.values() for m in messages_)
    else:
        note = _("Filled from preprocessing run #%(id)s.") % {"id": form.cleaned_data["record"]}
    if not wants_fragment(request):
        (messages.success if status == 200 else messages.error)(request, note)
        return vary(redirect("profiles:detail", pk=pk))
    return _fill_card(request, profile, note, status)


def _can_record_runs(request: HttpRequest, profile: TaskProfile) -> bool:
    """Members and owners record benchmark runs; reviewers judge them (apps.benchmarks)."""
    membership = membership_for(request, profile.team)
    return bool(membership) and membership.role in (Role.MEMBER, Role.OWNER)


def _fill_card(request: HttpRequest, profile: TaskProfile, note: str, status: int) -> HttpResponse:
    """The fill card in place; after a fill, the page's staged-plan section too (out of band)."""
    context = {
        "profile": profile,
        "fill_note": note,
        "fill_status": status,
        "can_record_runs": _can_record_runs(request, profile),
        **preprocess_latest(profile=profile),
    }
    if status == 200:
        sections = profile_sections(profile, profile.team.currency)
        context["staged_section"] = next(s for s in sections if s[0] == "staged")
        # The verdict and the evaluation with the new figures, swapped in out of band.
        context["currency"] = profile.team.currency
        context.update(selectors.profile_evaluation(profile=profile))
    return render_shape(request, "profiles/detail.html", "preprocess-fill", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile_delete(request: HttpRequest, pk: int) -> HttpResponse:
    profile = get_scoped_or_404(selectors.profiles_for_page(), request.user, pk=pk)
    require_role(request, profile.team)
    context = {"profile": profile, "error": None}
    if request.method == "POST":
        name = profile.name
        try:
            services.profile_delete(profile=profile)
        except InUseError as exc:
            context["error"] = exc.message
            return render(request, "profiles/delete.html", context, status=409)
        messages.success(request, _("Profile %(name)s deleted.") % {"name": name})
        return redirect("profiles:list")
    return render(request, "profiles/delete.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def profile_panel(request: HttpRequest) -> HttpResponse:
    """The live sizing and cross-domain panel for the form data as it stands (never saves)."""
    team = require_current_team(request)
    profile = None
    if request.GET.get("profile"):
        profile = get_scoped_or_404(
            selectors.profiles_for_page(), request.user, pk=request.GET["profile"]
        )
        team = profile.team
    require_role(request, team)
    data = request.POST if request.method == "POST" else request.GET
    context = {
        "team": team,
        "profile": profile,
        **selectors.live_panel(team=team, data=data, profile=profile),
    }
    return render_shape(request, "profiles/panel.html", "profile-panel", context)


@login_required
@require_GET
def sizing(request: HttpRequest) -> HttpResponse:
    """How many GPUs does my model need: memory and the fit on each of the team's offers."""
    team = require_current_team(request)
    require_role(request, team)
    data = request.GET or None
    if request.GET.get("profile") and len(request.GET) == 1:
        # Filled from a profile of the team (its page's "Size it"): nothing typed twice.
        profile = get_scoped_or_404(
            TaskProfile.objects.for_team(team), request.user, pk=request.GET["profile"]
        )
        data = sizing_data(profile)
    form = SizingForm(data)
    result = None
    if form.is_bound and form.is_valid():
        result = selectors.sizing_estimate(team=team, **form.engine_fields())
    context = {"form": form, "result": result, "team": team}
    return render_shape(request, "profiles/sizing.html", "sizing-result", context)
