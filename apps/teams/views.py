"""The team's own pages: the dashboard, settings (members, approvals, tiers, thresholds) and
calibration. Everyone in a team reads them; owners change settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from apps.accounts.access import require_current_team, require_role
from apps.accounts.models import Membership, Role, Team
from apps.web.concurrency import StaleVersion, stale_form
from apps.web.forms import attach_errors
from apps.web.htmx import render_shape, wants_fragment

from . import dashboard, selectors, services, thresholds, tiers
from .calibration import history as calibration_history
from .forms import MemberAddForm, MemberRoleForm, TeamGeneralForm, ThresholdForm, TierForm


@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The dashboard: what waits for me, my drafts, what is new for me (the notifications), the
    team."""
    context = dashboard.home_dashboard(
        user=request.user, team=request.team, memberships=request.memberships
    )
    return render(request, "teams/home.html", context)


# Team settings: everyone in the team reads; owners change. All actions work on request.team.

SETTINGS_PAGE = "teams/settings.html"
CALIBRATION_PAGE = "teams/calibration.html"
# The thresholds the calibration page can suggest (SPEC M1, M2 via G3, M4).
CALIBRATED_KEYS = ("data_compute_high", "interruption_cost_hours", "network_cost_share")


def _owner_team(request: HttpRequest) -> Team:
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    return team


def _messages(exc: ValidationError) -> list[str]:
    return [str(m) for m in exc.messages]


def _settings_url(anchor: str = "") -> str:
    return reverse("teams:settings") + (f"#{anchor}" if anchor else "")


def _general_form(team: Team, data=None) -> TeamGeneralForm:
    """The approvals-and-currency form of the settings as stored (bound to `data` when given)."""
    if data is not None:
        return TeamGeneralForm(data)
    names = ("approvals_required", "approvals_from_two_roles", "sso_only", "currency", "version")
    initial = {name: getattr(team, name) for name in names}
    return TeamGeneralForm(initial=initial)


def _render_settings(request: HttpRequest, team: Team, *, status: int = 200, **extra):
    context = selectors.settings_overview(team=team)
    context.update(
        {
            "team": team,
            "add_form": MemberAddForm(),
            "general_form": _general_form(team),
            "role_choices": Role.choices,
        }
    )
    member_errors = extra.pop("member_errors", {})
    for m in context["members"]:
        m.errors = member_errors.get(m.pk, [])
    tier_errors = extra.pop("tier_errors", {})
    for t in context["tiers"]:
        t["errors"] = tier_errors.get(t["tier"], [])
    threshold_error = extra.pop("threshold_error", None)
    if threshold_error:
        for row in context["threshold_rows"]:
            if row["key"] == threshold_error["key"]:
                row.update(threshold_error)
    context.update(extra)
    return render(request, SETTINGS_PAGE, context, status=status)


@login_required
@require_safe
def team_settings(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    return _render_settings(request, team)


@login_required
@require_POST
def member_add(request: HttpRequest) -> HttpResponse:
    team = _owner_team(request)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            services.team_member_invite(
                team=team, actor=request.user, base_url=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(
                request,
                _(
                    "%(who)s is invited as %(role)s: they join the team once they accept the "
                    "invitation sent to their address."
                )
                % {"who": form.cleaned_data["username_or_email"].strip(),
                   "role": Role(form.cleaned_data["role"]).label.lower()},
            )
            return redirect(_settings_url("members"))
    return _render_settings(request, team, add_form=form)


def _team_membership(team: Team, pk: int) -> Membership:
    # Only memberships of the current team: another team's pk is simply not found.
    return get_object_or_404(Membership.objects.select_related("user"), pk=pk, team=team)


@login_required
@require_POST
def member_role(request: HttpRequest, pk: int) -> HttpResponse:
    team = _owner_team(request)
    membership = _team_membership(team, pk)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        errors = [e for errs in form.errors.values() for e in errs]
        return _render_settings(request, team, status=400, member_errors={membership.pk: errors})
    try:
        services.team_member_set_role(
            team=team, actor=request.user, membership=membership, role=form.cleaned_data["role"]
        )
    except ValidationError as exc:
        return _render_settings(
            request, team, status=409, member_errors={membership.pk: _messages(exc)}
        )
    membership.refresh_from_db()
    messages.success(
        request,
        _("%(user)s is now %(role)s.")
        % {"user": membership.user.get_username(), "role": membership.get_role_display()},
    )
    if membership.user_id == request.user.pk and membership.role != Role.OWNER:
        return redirect("teams:settings")  # no longer an owner: the page is read-only now
    return redirect(_settings_url("members"))


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int) -> HttpResponse:
    team = _owner_team(request)
    membership = _team_membership(team, pk)
    try:
        services.team_member_remove(team=team, actor=request.user, membership=membership)
    except ValidationError as exc:
        return _render_settings(
            request, team, status=409, member_errors={membership.pk: _messages(exc)}
        )
    messages.success(
        request, _("%(user)s was removed from the team.") % {"user": membership.user.get_username()}
    )
    if membership.user_id == request.user.pk:
        return redirect("home")  # they left the team
    return redirect(_settings_url("members"))


@login_required
@require_POST
def settings_general(request: HttpRequest) -> HttpResponse:
    team = _owner_team(request)
    form = TeamGeneralForm(request.POST)
    status = 200
    if form.is_valid():
        try:
            services.team_settings_update(team=team, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        except StaleVersion:
            # Another owner saved first: their settings stay; these come back to re-apply.
            def factory(data):
                return _general_form(Team.objects.get(pk=team.pk), data)

            form, status = stale_form(form, factory), 409
        else:
            messages.success(request, _("Approvals and currency saved."))
            return redirect(_settings_url("general"))
    return _render_settings(request, team, status=status, general_form=form)


@login_required
@require_POST
def tier_toggle(request: HttpRequest) -> HttpResponse:
    """Validate a tier, or withdraw its validation (`action`; without it the state flips)."""
    team = _owner_team(request)
    form = TierForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Unknown rollout tier."))
    tier = form.cleaned_data["tier"]
    validated = tier in set(team.validated_tiers or [])
    action = request.POST.get("action") or ("unvalidate" if validated else "validate")
    try:
        if action == "validate":
            services.team_tier_validate(team=team, actor=request.user, tier=tier)
            messages.success(request, _("The tier is validated."))
        elif action == "unvalidate":
            before = tiers.validated_set(team)
            services.team_tier_unvalidate(team=team, actor=request.user, tier=tier)
            also = [
                tiers.tier_label(t)
                for t in tiers.tiers_wider_than(tier)
                if t in before and t not in tiers.validated_set(team)
            ]
            if also:
                messages.success(
                    request,
                    _("The tier is no longer validated, nor are the wider tiers that rest on it: "
                      "%(wider)s.") % {"wider": ", ".join(also)},
                )
            else:
                messages.success(request, _("The tier is no longer validated."))
        else:
            return HttpResponseBadRequest(_("Unknown action."))
    except ValidationError as exc:
        return _render_settings(request, team, status=409, tier_errors={tier: _messages(exc)})
    return redirect(_settings_url("tiers"))


def _threshold_response(request, team, key, *, errors=(), value_text=None, saved=False):
    """The threshold's table row (htmx) or the settings page with that row marked."""
    row = selectors.one_threshold_row(team=team, key=key)
    row["errors"] = list(errors)
    row["saved"] = saved
    if value_text is not None:
        row["input_value"] = value_text
    if wants_fragment(request):
        context = {"row": row, "is_owner": True, "current_team": team}
        return render_shape(request, SETTINGS_PAGE, "threshold_row", context)
    if errors:
        extra = {"key": key, "errors": row["errors"], "input_value": row.get("input_value")}
        return _render_settings(request, team, threshold_error=extra)
    messages.success(request, _("Threshold saved. Open reviews re-evaluate on their next view."))
    return redirect(_settings_url(f"threshold-{key}"))


@login_required
@require_POST
def threshold_set(request: HttpRequest) -> HttpResponse:
    team = _owner_team(request)
    form = ThresholdForm(request.POST)
    key = request.POST.get("key", "")
    if "key" in form.fields and not form.fields["key"].valid_value(key):
        return HttpResponseBadRequest(_("Unknown threshold."))
    if form.is_valid():
        try:
            services.team_threshold_set(
                team=team, actor=request.user, key=key, value=form.cleaned_data["value"]
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            return _threshold_response(request, team, key, saved=True)
    errors = [e for errs in form.errors.values() for e in errs]
    return _threshold_response(
        request, team, key, errors=errors, value_text=request.POST.get("value", "")
    )


@login_required
@require_POST
def threshold_reset(request: HttpRequest) -> HttpResponse:
    team = _owner_team(request)
    key = request.POST.get("key", "")
    try:
        services.team_threshold_reset(team=team, actor=request.user, key=key)
    except ValidationError:
        return HttpResponseBadRequest(_("Unknown threshold."))
    return _threshold_response(request, team, key, saved=True)


# Calibration


def _render_calibration(request: HttpRequest, team: Team, *, status: int = 200, **extra):
    context = calibration_history.calibration_overview(team=team)
    context.update({"team": team, "adopt_errors": []})
    context.update(extra)
    return render(request, CALIBRATION_PAGE, context, status=status)


@login_required
@require_safe
def calibration(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    return _render_calibration(request, team)


@login_required
@require_POST
def calibration_adopt(request: HttpRequest) -> HttpResponse:
    """Adopt a suggested threshold in one click (audited as adopted from calibration)."""
    team = _owner_team(request)
    if request.POST.get("key") not in CALIBRATED_KEYS:
        return HttpResponseBadRequest(_("This threshold is not calibrated here."))
    form = ThresholdForm(request.POST, keys=CALIBRATED_KEYS)
    if not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs]
        return _render_calibration(
            request, team, status=400, adopt_errors=errors
        )
    key = form.cleaned_data["key"]
    try:
        services.team_threshold_set(
            team=team,
            actor=request.user,
            key=key,
            value=form.cleaned_data["value"],
            action="team.threshold_adopted_from_calibration",
        )
    except ValidationError as exc:
        return _render_calibration(
            request, team, status=409, adopt_errors=_messages(exc)
        )
    messages.success(
        request,
        _("Adopted %(value)s for %(threshold)s. Open reviews re-evaluate on their next view.")
        % {"value": thresholds.show(form.cleaned_data["value"]),
           "threshold": thresholds.SPECS[key].label},
    )
    return redirect("teams:calibration")
