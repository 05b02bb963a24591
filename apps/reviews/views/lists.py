"""The review lists: the team's reviews (filtered, paginated, cached per team) and the reviewer's
approval queue.

htmx: the list answers a GET with htmx with its results fragment (`review-results`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import condition, require_GET

from apps.accounts.access import require_current_team
from apps.reviews import selectors
from apps.reviews.forms import ReviewFilterForm
from apps.web.forms import submitted_ids
from apps.web.fragments import cached_fragments, page_etag
from apps.web.htmx import render_shape, render_shared
from apps.web.paging import page_by_ids

from .common import PAGE_SIZE


def _filter_form(request: HttpRequest, tasks, authors) -> ReviewFilterForm:
    form = ReviewFilterForm(request.GET, tasks=tasks, authors=authors)
    form.is_valid()  # an invalid filter is dropped; the valid ones still apply
    return form


def _checked_filters(request: HttpRequest, team) -> dict:
    """The list's valid filters, the task and the author checked against the submitted ones
    alone (reading every choice to check one cost ~10 ms a cold page)."""
    tasks = selectors.review_filter_tasks(team, submitted_ids(request.GET, "task"))
    authors = selectors.review_filter_authors(team, submitted_ids(request.GET, "author"))
    return _filter_form(request, tasks, authors).cleaned_data


@login_required
@require_GET
@condition(etag_func=lambda request: page_etag(request))
def review_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    common = {"filtered": bool(kept), "querystring_base": urlencode(kept) + "&" if kept else ""}
    page = "reviews/list.html"

    def filters() -> str:  # every task and author: read only to draw the form
        tasks, authors = selectors.review_filter_tasks(team), selectors.review_filter_authors(team)
        form = _filter_form(request, tasks, authors)
        return render_shared(request, page, "review-filters", {**common, "form": form})

    def results() -> str:
        filters = _checked_filters(request, team) if kept else {}
        reviews = selectors.review_list(
            team=team,
            state=filters.get("state") or None,
            task_id=filters.get("task"),
            author_id=filters.get("author"),
            q=(filters.get("q") or "").strip() or None,
        )
        rows = page_by_ids(reviews, request.GET.get("page"), PAGE_SIZE, rows=selectors.review_rows)
        context = {**common, "page_obj": rows, "reviews": rows.object_list}
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
        }
        return render_shared(request, "reviews/approvals.html", "approval-queue", context)

    html = cached_fragments(
        "reviews/approvals.html",
        team_ids=[m.team_id for m in memberships],
        parts=(sorted(request.GET.lists()), request.user.pk, minute.isoformat()),
        fragments={"queue": queue},
    )
    return render(request, "reviews/approvals.html", {"queue_html": html["queue"]})
