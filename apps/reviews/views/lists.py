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
from django.views.decorators.http import require_GET

from apps.accounts.access import require_current_team
from apps.accounts.pagecache import topic_generations
from apps.reviews import selectors
from apps.reviews.forms import ReviewFilterForm
from apps.web.forms import submitted_ids
from apps.web.htmx import render_shape, shared_fragment
from apps.web.paging import page_by_ids
from apps.web.rows import drawn_rows

from .common import PAGE_SIZE

# What the filter form's choices are drawn from (pagecache.bump_team_generation): the tasks'
# names, which reviews there are (their authors) and the members' names.
FILTER_TOPICS = ("profiles.TaskProfile", "reviews.Review:rows", "auth.User")


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
def review_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    common = {"filtered": bool(kept), "querystring_base": urlencode(kept) + "&" if kept else ""}

    template = "reviews/list.html"

    def inputs() -> tuple:
        """What the form is drawn from, told without a query: the generations of the team's
        tasks, of its set of reviews (their authors) and of its members' names."""
        return topic_generations([team.pk], *FILTER_TOPICS)

    def drawn_form() -> ReviewFilterForm:  # every task and author: read only to draw it
        tasks, authors = selectors.review_filter_tasks(team), selectors.review_filter_authors(team)
        return _filter_form(request, tasks, authors)

    def results() -> dict:
        filters = _checked_filters(request, team) if kept else {}
        reviews = selectors.review_list(
            team=team,
            state=filters.get("state") or None,
            task_id=filters.get("task"),
            author_id=filters.get("author"),
            q=(filters.get("q") or "").strip() or None,
        )
        page = page_by_ids(reviews, request.GET.get("page"), PAGE_SIZE, rows=selectors.review_rows)
        rows = drawn_rows(request, template, "review-row", page.object_list, name="review")
        return {**common, "page_obj": page, "reviews": page.object_list, "rows_html": rows}

    # The filters and the rows are the same for every member until the team's data changes.
    page, shared = template, {"team_ids": [team.pk]}
    context = {
        # Drawn again only when the choices change (a task or an author), not on every change.
        "filters_html": shared_fragment(
            request,
            page,
            "review-filters",
            lambda: {**common, "form": drawn_form()},
            inputs=inputs,
            **shared,
        ),
        "results_html": shared_fragment(request, page, "review-results", results, **shared),
    }
    return render_shape(request, page, "review-results", context)


@login_required
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    memberships = getattr(request, "memberships", [])
    # "Submitted 5 minutes ago" is told to the minute: the queue is rendered at most once a
    # minute for its reviewer, and again at once when one of their teams' data changes.
    minute = timezone.now().replace(second=0, microsecond=0)

    def queue() -> dict:
        queue = selectors.approvals_queue(request.user)
        page = page_by_ids(queue, request.GET.get("page"), PAGE_SIZE, rows=selectors.review_rows)
        rows = drawn_rows(
            request,
            "reviews/approvals.html",
            "approval-row",
            page.object_list,
            name="review",
            context={"now": minute},
        )
        return {
            "page_obj": page,
            "reviews": page.object_list,
            "rows_html": rows,
            "waiting": page.paginator.count,
            "can_review_somewhere": any(m.can_review for m in memberships),
            "querystring_base": "",
            "now": minute,
        }

    context = {
        "queue_html": shared_fragment(
            request,
            "reviews/approvals.html",
            "approval-queue",
            queue,
            team_ids=[m.team_id for m in memberships],
            parts=(request.user.pk, minute.isoformat()),
        )
    }
    return render(request, "reviews/approvals.html", context)
