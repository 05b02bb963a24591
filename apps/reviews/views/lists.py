"""The review lists: the team's reviews (filtered, paginated, cached per team) and the reviewer's
approval queue.

htmx: the list answers a GET with htmx with its results fragment (`review-results`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from apps.accounts.access import require_current_team
from apps.accounts.pagecache import cached_fragment
from apps.reviews import selectors
from apps.reviews.forms import ReviewFilterForm
from apps.web.htmx import render_fragment, render_shape

from .common import PAGE_SIZE


@login_required
@require_GET
def review_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    choices = selectors.review_filter_choices(team)
    form = ReviewFilterForm(request.GET, tasks=choices["tasks"], authors=choices["authors"])
    form.is_valid()  # an invalid filter is dropped; the valid ones still apply
    filters = form.cleaned_data
    reviews = selectors.review_list(
        team=team,
        state=filters.get("state") or None,
        task_id=filters.get("task"),
        author_id=filters.get("author"),
        q=(filters.get("q") or "").strip() or None,
    )
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    context = {
        "form": form,
        "filtered": bool(kept),
        "querystring_base": urlencode(kept) + "&" if kept else "",
    }

    def results() -> str:
        page = Paginator(reviews, PAGE_SIZE).get_page(request.GET.get("page"))
        fragment = {**context, "page_obj": page, "reviews": page.object_list}
        return render_fragment(request, "reviews/list.html", "review-results", fragment)

    # The rows are the same for every member of the team until the team's data changes.
    context["results_html"] = mark_safe(  # noqa: S308 - our own rendered, escaped template
        cached_fragment(
            "review-list",
            team_ids=[team.pk],
            parts=tuple(sorted(request.GET.items())),
            render=results,
        )
    )
    return render_shape(request, "reviews/list.html", "review-results", context)


@login_required
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    queue = selectors.approvals_queue(request.user)
    page = Paginator(queue, PAGE_SIZE).get_page(request.GET.get("page"))
    can_review = any(m.can_review for m in getattr(request, "memberships", []))
    context = {
        "page_obj": page,
        "reviews": page.object_list,
        "waiting": page.paginator.count,
        "can_review_somewhere": can_review,
        "querystring_base": "",
    }
    return render(request, "reviews/approvals.html", context)
