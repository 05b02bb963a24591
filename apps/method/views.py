"""The method guide: one page with every entry and the glossary, and one page per entry.

Any signed-in user reads it; the formulas show the current team's thresholds (the engine's
defaults for someone without a team)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.web.search import MAX_QUERY

from . import guide
from .entries import ENTRY_BY_ID, GROUPS


@login_required
@require_safe
def index(request: HttpRequest) -> HttpResponse:
    context = guide.guide(request.team, request.GET.get("q", "").strip()[:MAX_QUERY])
    context["team"] = request.team
    return render(request, "method/index.html", context)


@login_required
@require_safe
def entry(request: HttpRequest, entry_id: str) -> HttpResponse:
    found = ENTRY_BY_ID.get(entry_id)
    if found is None:
        raise Http404("No such entry in the method guide.")
    team = request.team
    currency = team.currency if team is not None else ""
    context = {
        "e": guide.entry_view(found, guide.team_values(team), currency),
        "group_title": GROUPS[found.group],
        "team": team,
    }
    return render(request, "method/entry.html", context)
