"""The review lists: the team's reviews (filtered, paginated, cached per team) and the reviewer's
approval queue.

htmx: the list answers a GET with htmx with its results fragment (`review-results`).
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from apps.accounts.access import require_current_team
from apps.reviews import selectors
from apps.reviews.forms import ReviewFilterForm
from apps.reviews.rows import list_rows, queue_rows
from apps.web.fragments import cached_fragments, page_etag
from apps.web.htmx import render_shape, render_shared
from apps.web.paging import page_by_ids
from apps.web.typeahead import options_response

from .common import PAGE_SIZE


def _filters(request: HttpRequest, team) -> tuple[ReviewFilterForm, dict]:
    """The filter form as submitted and its valid filters: the task and the author as named in
    their type-ahead boxes (apps.web.typeahead), read only when given."""
    form = ReviewFilterForm(request.GET)
    form.is_valid()  # an invalid filter is dropped; the valid ones still apply
    data = form.cleaned_data
    filters = {"state": data.get("state") or None, "q": (data.get("q") or "").strip() or None}
    for name, typeahead in selectors.review_filter_typeaheads(team).items():
        found = typeahead.resolve(data.get(name))
        typeahead.apply(form, name, found)
        filters[f"{name}_ids"] = found.ids
    return form, filters


@login_required
@require_GET
@condition(etag_func=lambda request: page_etag(request))
def review_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    common = {"filtered": bool(kept), "querystring_base": urlencode(kept) + "&" if kept else ""}
    page = "reviews/list.html"
    filtered = cache(lambda: _filters(request, team))

    def filters() -> str:
        form = filtered()[0]
        return render_shared(request, page, "review-filters", {**common, "form": form})

    def results() -> str:
        reviews = selectors.review_list(team=team, **(filtered()[1] if kept else {}))
        rows = page_by_ids(reviews, request.GET.get("page"), PAGE_SIZE, rows=selectors.review_rows)
        context = {
            **common,
            "page_obj": rows,
            "reviews": rows.object_list,
            "rows_html": list_rows(rows.object_list),
        }
        return render_shared(request, page, "review-results", context)

    # The same for every member until the team's data changes.
    html = cached_fragments(
        page,
        team_ids=[team.pk],
        parts=(sorted(request.GET.lists()),),
        fragments={"filters": filters, "results": results},
    )
    context = {"filters_html": html["filters"], "results_html": html["results"]}
    return render_shape(request, page, "review-results", context)


@login_required
@require_GET
def filter_options(request: HttpRequest) -> HttpResponse:
    """The options of the list's type-ahead box being typed in (?task=… or ?author=…): at most
    twenty names of the current team's tasks or authors containing the text."""
    team = require_current_team(request)
    typeaheads = selectors.review_filter_typeaheads(team)
    name = next((n for n in typeaheads if n in request.GET), None)
    if name is None:
        return HttpResponse(
            _("Give task or author."), status=422, content_type="text/plain; charset=utf-8"
        )
    return options_response(typeaheads[name].options(request.GET.get(name)))


@login_required
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    memberships = getattr(request, "memberships", [])
    # "Submitted 5 minutes ago" is told to the minute: the queue is drawn at most once a minute
    # for its reviewer, and again at once when one of their teams' data changes.
    minute = timezone.now().replace(second=0, microsecond=0)

    def queue() -> str:
        queue = selectors.approvals_queue(request.user)
        rows = page_by_ids(queue, request.GET.get("page"), PAGE_SIZE, rows=selectors.review_rows)
        context = {
            "page_obj": rows,
            "reviews": rows.object_list,
            "waiting": rows.paginator.count,
            "can_review_somewhere": any(m.can_review for m in memberships),
            "querystring_base": "",
            "now": minute,
            "rows_html": queue_rows(rows.object_list, minute),
        }
        return render_shared(request, "reviews/approvals.html", "approval-queue", context)

    html = cached_fragments(
        "reviews/approvals.html",
        team_ids=[m.team_id for m in memberships],
        parts=(sorted(request.GET.lists()), request.user.pk, minute.isoformat()),
        fragments={"queue": queue},
    )
    return render(request, "reviews/approvals.html", {"queue_html": html["queue"]})
