"""Reads of task profiles: the list, the engine's evaluation, the sizing page and the live panel."""

from __future__ import annotations

from django.db.models import Q, QuerySet

import engine
from apps.accounts.models import Team
from apps.catalog.models import Offer, Site
from apps.profiles.engine_input import (
    build_profile_input,
    evaluate_profile,
    offer_input,
    site_input,
)

from .evaluation import present
from .forms import TaskProfileForm
from .models import SHAPE_FIELDS, TaskProfile
from .preprocess import staged_effect
from .sections import CROSS_DOMAIN_FIELDS, ENGINE_FIELDS, SIZING_FIELDS

SHAPE_NAMES = frozenset((*SHAPE_FIELDS, "kv_heads"))


# What a row of the profile list shows.
LIST_FIELDS = (
    "id",
    "name",
    "workload",
    "cadence",
    "params_b",
    "precision",
    "compute_hours",
    "updated_at",
    "data_site__code",
    "home_site__code",
)


def profile_list(
    *, team: Team, q: str = "", workload: str = "", cadence: str = "", site: int | None = None
) -> QuerySet[TaskProfile]:
    """The team's profiles, most recently updated first; `site` (an id) matches data, home or
    result site."""
    profiles = (
        TaskProfile.objects.for_team(team)
        .select_related("data_site", "home_site")
        .only(*LIST_FIELDS)  # a row's fields: the profile has some seventy
    )
    if q:
        profiles = profiles.filter(name__icontains=q)
    if workload:
        profiles = profiles.filter(workload=workload)
    if cadence:
        profiles = profiles.filter(cadence=cadence)
    if site is not None:
        profiles = profiles.filter(
            Q(data_site_id=site) | Q(home_site_id=site) | Q(result_site_id=site)
        )
    return profiles.order_by("-updated_at", "-id")


def profiles_for_page() -> QuerySet[TaskProfile]:
    """The queryset detail pages look a profile up in (then scoped to the user's teams)."""
    return TaskProfile.objects.select_related(
        "team", "data_site", "home_site", "result_site", "created_by"
    ).prefetch_related("allowed_sites")


def profile_evaluation(*, profile: TaskProfile) -> dict:
    """The engine's evaluation of the profile against all the team's offers, for the page."""
    data, output, errors = evaluate_profile(profile)
    return {
        "input": data,
        "evaluation": present(data, output) if output is not None else None,
        "engine_errors": errors,
        "offer_count": len(data["offers"]),
    }


def sizing_estimate(
    *,
    team: Team,
    workload: str,
    params_b: float,
    precision: str,
    peak_gpu_mem_gb: float | None = None,
    parallelism: list[str] | None = None,
    shape: dict[str, int] | None = None,
    activation_checkpointing: bool = False,
    attention: str = "flash",
    deadline: dict[str, float] | None = None,
) -> dict:
    """SPEC A for a model on each of the team's offers, computed by the engine: a minimal task
    at the team's first site, of whose output only the sizing is used (placement needs links).
    `shape`: the model shape's fields given (SPEC 6.3), `attention` flash or eager (7.1);
    `deadline`: gpus, compute_hours and budget_compute_hours (SPEC 6.3), or None.
    """
    offers = list(Offer.objects.for_team(team).select_related("site").order_by("id"))
    if not offers:
        return {"evaluation": None, "engine_errors": [], "offer_count": 0}
    sites = [site_input(s) for s in Site.objects.for_team(team).order_by("code")]
    here = sites[0]["code"]
    data = {
        "currency": team.currency,
        "task": {
            "name": "sizing",
            "workload": workload,
            "params_b": params_b,
            "precision": precision,
            "peak_gpu_mem_gb": peak_gpu_mem_gb,
            "gpus": None,  # no plan here: sizing says how many GPUs the memory needs
            "parallelism": sorted(parallelism or []),
            "compute_hours": 1.0,
            "home_site": here,
            "data_site": here,
            "result_site": here,
            "attention": attention,  # SPEC 7.1: eager stores the attention scores
            **(shape or {}),
        },
        "sites": sites,
        "links": [],
        "offers": [offer_input(o) for o in offers],
        "benchmarks": [],
        "checklists": {},
    }
    if activation_checkpointing:
        data["task"]["activation_checkpointing"] = True
    if deadline:
        data["task"]["gpus"] = deadline["gpus"]
        data["task"]["compute_hours"] = float(deadline["compute_hours"])
        data["task"]["latency_budget_hours"] = {"compute": float(deadline["budget_compute_hours"])}
    if team.thresholds:
        data["thresholds"] = dict(team.thresholds)
    try:
        output = engine.evaluate(data)
    except engine.EngineInputError as exc:
        return {"evaluation": None, "engine_errors": exc.errors, "offer_count": len(offers)}
    return {"evaluation": present(data, output), "engine_errors": [], "offer_count": len(offers)}


def live_panel(*, team: Team, data=None, profile: TaskProfile | None = None) -> dict:
    """The live panel of the profile form: what the engine says of the form as it stands.

    `data` is the submitted form (possibly partial or invalid); None shows the saved `profile`.
    Valid fields are used as entered; a missing or invalid field keeps the saved value or the
    model default (a missing site: the team's first site) only so that the engine can run, and
    every section that depends on such a field is withheld and the field named instead.
    Nothing is saved.
    """
    context = {
        "unbound": False,
        "missing": [],
        "show_sizing": True,
        "show_cross": True,
        "show_all": True,
        "evaluation": None,
        "engine_errors": [],
        "no_sites": False,
        "offer_count": 0,
        "staged_effect": None,
    }
    if data is None and profile is None:
        context["unbound"] = True
        return context
    allowed_sites = None  # the saved ones
    if data is None:
        probe = profile
    else:
        probe, allowed_sites = _probe_of_form(team, data, profile, context)
    first_site = Site.objects.for_team(team).order_by("code").first()
    context["no_sites"] = first_site is None
    if first_site is None or not (context["show_sizing"] or context["show_cross"]):
        return context
    for name in ("data_site", "home_site", "result_site"):
        if getattr(probe, f"{name}_id") is None:
            setattr(probe, name, first_site)
    if probe.compute_hours is None:
        probe.compute_hours = 0.0
    probe.team = team
    engine_input = build_profile_input(probe, allowed_sites=allowed_sites)
    context["offer_count"] = len(engine_input["offers"])
    try:
        output = engine.evaluate(engine_input)
    except engine.EngineInputError as exc:
        context["engine_errors"] = exc.errors
        return context
    context["evaluation"] = present(engine_input, output)
    context["staged_effect"] = staged_effect(engine_input, context["evaluation"])
    return context


def _probe_of_form(
    team: Team, data, profile: TaskProfile | None, context: dict
) -> tuple[TaskProfile, list[str] | None]:
    """The unsaved profile the live panel evaluates from a submitted form, and its allowed site
    codes (None: the saved ones). Names the engine fields the form refuses in `context` and
    withholds the sections that depend on them."""
    form = TaskProfileForm(data, instance=profile or TaskProfile(team=team), team=team)
    form.is_valid()  # copies the valid fields onto form.instance; never saves
    bad = [name for name in ENGINE_FIELDS if name in form.errors]
    context["missing"] = [(form.fields[n].label, form.errors[n][0]) for n in bad]
    context["show_sizing"] = not set(bad) & set(SIZING_FIELDS)
    context["show_cross"] = not set(bad) & set(CROSS_DOMAIN_FIELDS)
    context["show_all"] = not bad
    probe = form.instance
    if not SHAPE_NAMES.isdisjoint(form.errors):
        # A refused shape may leave a mixed one on the instance (heads not dividing the hidden
        # size passed each field's own check): size without it, name the field.
        for name in SHAPE_NAMES:
            setattr(probe, name, None)
    if "checkpoint_interval_hours" in form.errors:
        probe.checkpoint_interval_hours = None
    allowed_sites = None
    if "allowed_sites" not in form.errors:
        allowed_sites = [site.code for site in form.cleaned_data.get("allowed_sites", [])]
    return probe, allowed_sites
