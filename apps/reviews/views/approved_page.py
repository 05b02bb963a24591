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
from apps.reviews.checklists.selectors import checklist_cards
from apps.reviews.comments.selectors import from_thread_inputs, review_threads, thread_inputs
from apps.reviews.models import Decision, Review
from apps.reviews.selectors import review_signoffs, review_timeline, timeline_entries
from apps.web.fragments import cached_fragments, exact_fragments
from apps.web.htmx import render_shared

PAGE = "reviews/detail.html"
# The plan against actual is the actuals app's section (a floor above): drawn by its template tag,
# as the page of a review that is not approved draws it.
PLAN = engines["django"].from_string("{% load actuals %}{% plan_vs_actual review %}")


def approved_page(
    request: HttpRequest,
    review: Review,
    read_review: Callable[[], Review],
    detail_context: Callable[[Review, list], dict],
) -> HttpResponse:
    """`review`: only the frame's fields (views.common.FRAME_FIELDS: what the page shows around
    its parts, and the discussion). `read_review()` reads the whole review, only when the head,
    body or plan must be drawn; `detail_context(review, signoffs)`, the review page's whole
    context, only when a signed part must be drawn too: else the body reads only what can change
    after the sign-off (`live_context`)."""
    membership = membership_for(request, review.team_id)
    can_write = bool(membership and membership.role in (Role.MEMBER, Role.OWNER))
    whole = cache(read_review)
    signoffs = cache(lambda: review_signoffs(whole()))
    full = cache(lambda: detail_context(whole(), signoffs()))
    live = cache(lambda: live_context(whole(), signoffs()))

    def drawn() -> dict:
        """The body's context: the whole page's when it was read (a signed part drawn now)."""
        return full() if full.cache_info().currsize else live()

    def body() -> str:
        kept = signed(request, whole(), signed_snapshot_id(signoffs()), full)
        # No signed snapshot to key the signed parts by (seeded data): all drawn from the whole.
        context = {**drawn(), **kept} if kept else full()
        return render_shared(request, PAGE, "review-body", context)

    def inputs() -> str:
        """The discussion's inputs: from the review and cards of the body when it was drawn now
        (read with its `comment_count`), else read."""
        if not whole.cache_info().currsize:
            return thread_inputs(review)
        return thread_inputs(whole(), [card.candidate for card in drawn()["answer_cards"]])

    html = cached_fragments(
        PAGE,
        team_ids=[review.team_id],
        parts=(review.pk, can_write, engine.ENGINE_VERSION),
        fragments={
            "head": lambda: render_shared(request, PAGE, "review-head", {"review": whole()}),
            "body": body,
            "plan": lambda: PLAN.render({"review": whole()}, request),
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


def live_context(review: Review, signoffs: list) -> dict:
    """What the body of an approved review shows besides its signed parts: its checklist answers,
    sign-offs and timeline."""
    return {
        "review": review,
        "answer_cards": checklist_cards(review),
        "signoffs": signoffs,
        "timeline": timeline_entries(review_timeline(review)),
    }


def signed_snapshot_id(signoffs: list) -> int | None:
    """The snapshot the review was signed on: its last approving sign-off's, as
    snapshots.services.signed_snapshot finds it (None: approved without one, seeded data)."""
    approving = [s for s in signoffs if s.decision == Decision.APPROVE]
    return approving[-1].snapshot_id if approving else None


def signed(
    request: HttpRequest, review: Review, snapshot_id: int | None, full: Callable[[], dict]
) -> dict:
    """The body's parts drawn from what was signed alone, kept under the signed snapshot's exact
    key: a write of the team (a comment, an actual cost) redraws the body around them, not them.
    The decision at the top (and the approval's notice) and the evaluation with its tables and
    charts come from the snapshot; the task profile, the candidates and the reserved channels
    from the review's frozen input (the candidates' ids and machines are rows the database
    refuses to change once the review is signed: reviews/migrations/0005). `full()`: the page's
    whole context, to draw them. Empty when there is no signed snapshot to key them by."""
    if snapshot_id is None or review.frozen_input is None:
        return {}

    def part(name: str, reserved: bool = False) -> Callable[[], str]:
        def draw() -> str:
            drawn = full()
            if reserved:
                drawn = {**drawn, "reserved_links": frozen_reserved_links(review.frozen_input)}
            return render_shared(request, PAGE, f"review-signed-{name}", drawn)

        return draw

    return exact_fragments(
        "signed-review",
        parts=(review.pk, snapshot_id, review.team.currency, engine.ENGINE_VERSION),
        fragments={
            "signed_top": part("top"),
            "signed_grid": part("grid", reserved=True),
            "signed_evaluation": part("evaluation"),
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
