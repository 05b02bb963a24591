"""The page of an approved review, from the cache.

Its head and body are the same for every member of the team, and its plan against actual for
every member with the same right to record actuals: all three come from one read of the cache
under the team's generation (apps/web/fragments.py), so a new actual cost or anything else the
team writes shows at the next view. The actions carry the viewer's CSRF token and are drawn per
view, as is the rest of the page around them, and so is the discussion, whose forms carry the token
too: a new comment shows at the next view. What the discussion reads besides its comments (their
number, the candidates' labels) comes from the same cache read, so a warm view reads no more of
the review than its frame. The body's parts drawn from the signed snapshot alone are kept under
its exact key (`signed`), so a cold view redraws only what can change after the sign-off.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import SimpleNamespace

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import engines

import engine
from apps.accounts.access import membership_for
from apps.accounts.models import Role
from apps.reviews.comments.selectors import from_thread_inputs, review_threads, thread_inputs
from apps.reviews.models import Review
from apps.web.fragments import cached_fragments, exact_fragments
from apps.web.htmx import render_shared

PAGE = "reviews/detail.html"
# The plan against actual is the actuals app's section (a floor above): drawn by its template tag,
# as the page of a review that is not approved draws it.
PLAN = engines["django"].from_string("{% load actuals %}{% plan_vs_actual review %}")


def approved_page(
    request: HttpRequest, review: Review, detail_context: Callable[[], dict]
) -> HttpResponse:
    """`review`: only the frame's fields (views.common.FRAME_FIELDS: what the page shows around
    its parts, and the discussion); `detail_context()` reads the whole review and is called only
    when the head, body or plan must be drawn."""
    membership = membership_for(request, review.team_id)
    can_write = bool(membership and membership.role in (Role.MEMBER, Role.OWNER))
    context = cache(detail_context)

    def part(name: str) -> Callable[[], str]:
        return lambda: render_shared(request, PAGE, f"review-{name}", context())

    def body() -> str:
        drawn = context()
        return render_shared(request, PAGE, "review-body", {**drawn, **signed(request, drawn)})

    def inputs() -> str:
        """The discussion's inputs: from the review and cards of the body when it was drawn now
        (read with its `comment_count`), else read."""
        if not context.cache_info().currsize:
            return thread_inputs(review)
        drawn = context()
        return thread_inputs(drawn["review"], [card.candidate for card in drawn["answer_cards"]])

    html = cached_fragments(
        PAGE,
        team_ids=[review.team_id],
        parts=(review.pk, can_write, engine.ENGINE_VERSION),
        fragments={
            "head": part("head"),
            "body": body,
            "plan": lambda: PLAN.render({"review": context()["review"]}, request),
            # The discussion's inputs besides its comments (their number, the candidates'
            # labels), last: from the body's cards when the body was drawn now.
            "threads": inputs,
        },
    )
    page = {
        "review": review,
        "can_clone": membership is not None,
        "cached_head": html["head"],
        "cached_body": html["body"],
        "plan_html": html["plan"],
        **discussion(request, review, candidates=from_thread_inputs(review, html["threads"])),
    }
    return render(request, PAGE, page)


def signed(request: HttpRequest, context: dict) -> dict:
    """The body's parts drawn from what was signed alone, kept under the signed snapshot's exact
    key: a write of the team (a comment, an actual cost) redraws the body around them, not them.
    The decision at the top and the evaluation with its tables and charts come from the snapshot;
    the task profile, the candidates and the reserved channels from the review's frozen input
    (the candidates' ids and machines are rows the database refuses to change once the review is
    signed: reviews/migrations/0005)."""
    snapshot, review = context.get("snapshot"), context["review"]
    if snapshot is None or review.frozen_input is None:
        return {}
    grid = {**context, "reserved_links": frozen_reserved_links(review.frozen_input)}

    def part(name: str, drawn: dict) -> Callable[[], str]:
        return lambda: render_shared(request, PAGE, f"review-signed-{name}", drawn)

    return exact_fragments(
        "signed-review",
        parts=(review.pk, snapshot.pk, review.team.currency, engine.ENGINE_VERSION),
        fragments={
            "signed_top": part("top", context),
            "signed_grid": part("grid", grid),
            "signed_evaluation": part("evaluation", context),
        },
    )


def frozen_reserved_links(frozen_input: dict) -> list[SimpleNamespace]:
    """The channels the review reserved, as it was signed (the frozen input's links, with their
    sites' codes of that day), in the shape the page draws a link."""
    return [
        SimpleNamespace(
            from_site=SimpleNamespace(code=link["from"]),
            to_site=SimpleNamespace(code=link["to"]),
            bandwidth_gbps=link["bandwidth_gbps"],
            rtt_ms=link["rtt_ms"],
        )
        for link in frozen_input.get("links", [])
        if link.get("reserved")
    ]


def discussion(request: HttpRequest, review: Review, cards=None, candidates=None) -> dict:
    """The review's threads with their forms, drawn per view (never cached: the forms carry the
    viewer's CSRF token; the threads are a few indexed reads). `cards`: the page's checklist
    cards, whose candidates it reuses; or `candidates` (else read once)."""
    if cards is not None:
        candidates = [card.candidate for card in cards]
    # Each thread's form is drawn with a blank field (Thread.blank_field), not a CommentForm.
    return {
        "threads": review_threads(review, request.user, candidates=candidates),
        "can_comment": membership_for(request, review.team_id) is not None,
    }
