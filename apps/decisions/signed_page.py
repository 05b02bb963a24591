"""The page of an approved review, drawn once and kept.

An approved review is immutable (services, admin and a PostgreSQL trigger refuse changes), so the
head, actions and body of its page are the same for every member of its team: drawn once per
language and engine version and kept in the shared cache (`keep_parts`; the body compares the
signed snapshot's engine with the current one). Around them each process also keeps the whole
page as last drawn for the same header (apps/web/header.header_key: viewer, memberships, counts,
language), plan against actual, footer currency and path (`signed_page`): a view of a page so
kept renders no template. The viewer's CSRF token is a placeholder in both, put in per view.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from functools import cache as memoized

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import engines
from django.template.loader import render_to_string
from django.utils.crypto import salted_hmac
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

import engine
from apps.accounts.access import membership_for
from apps.accounts.pagecache import read_many
from apps.actuals.templatetags.actuals import plan_vs_actual
from apps.reviews.models import Review, ReviewState
from apps.web.header import header_key

PARTS_SECONDS = 7 * 24 * 3600

# What the page shows of the review around the kept parts: not the signed input (a whole engine
# document), nor the task and its sites, which only the kept body shows. An approved review can
# be neither changed nor deleted, so these fields are kept with the parts, and a kept view reads
# no review row: the viewer's memberships (read for every request) decide whether they may see it.
FIELDS = ("id", "state", "version", "title", "team_id", "task_id")

# The viewer's CSRF token in a page kept by this process: unguessable, so no review text (its
# title is on the page) can be made to receive the token.
_TOKEN = f"csrf{secrets.token_hex(12)}"
_BUDGET = 32 * 2**20  # characters of pages kept per process; the oldest is dropped first
_lock = threading.Lock()
_pages: OrderedDict[tuple, str] = OrderedDict()
_kept = [0]  # characters in _pages


def _parts_key(pk: int) -> str:
    return f"review-page:v7:{pk}:{engine.ENGINE_VERSION}:{get_language()}"


@memoized
def _csrf_placeholder() -> str:
    """Stands for the viewer's CSRF token in the kept actions (the clone form). Kept in the shared
    cache, so the same in every process, and derived from the secret key, so no text of a review
    can be made to look like it."""
    return "csrf" + salted_hmac("signed-review-page", "csrf-placeholder").hexdigest()[:32]


def cached_parts(request: HttpRequest, pk: int) -> tuple[Review, dict] | None:
    """The review (its few fields) and the kept head, actions and body of its page, when it is an
    approved review whose parts are kept, for a member of its team; no query."""
    key = _parts_key(pk)
    try:
        # With the page's other reads when the process answered this viewer's view before.
        parts = read_many([key]).get(key)
    except Exception:  # noqa: BLE001 - no cache: the page is rendered in full
        return None
    if not isinstance(parts, dict) or "review" not in parts:
        return None
    fields = parts["review"]
    membership = membership_for(request, fields["team_id"])
    if membership is None or fields["state"] != ReviewState.APPROVED:
        return None  # the full path answers (404 for a non-member)
    # from_db takes the values in the model's field order, whatever the order of the names.
    names = [f.attname for f in Review._meta.concrete_fields if f.attname in fields]
    review = Review.from_db("default", names, [fields[name] for name in names])
    review.team = membership.team
    return review, parts


def keep_parts(request: HttpRequest, context: dict) -> dict[str, str]:
    """Draw and keep the parts every member of the team sees alike: the head, the actions (no
    edit, a clone form for any member; its CSRF token a placeholder) and the body."""
    review = context["review"]
    parts = {
        part: render_to_string(f"reviews/detail.html#review-{part}", context, request=request)
        for part in ("head", "body")
    }
    actions = {"review": review, "can_clone": True, "csrf_token": _csrf_placeholder()}
    parts["actions"] = render_to_string("reviews/detail.html#review-actions", actions)
    parts["drawn"] = uuid.uuid4().hex  # tells the pages kept around them apart
    fields = {name: getattr(review, name) for name in FIELDS}
    cache.set(_parts_key(review.pk), {**parts, "review": fields}, PARTS_SECONDS)
    return parts


def _draw(request: HttpRequest, review: Review, parts: dict, token: str) -> str:
    context = {
        "review": review,
        "csrf_token": token,
        # Our own rendered and escaped templates (keep_parts).
        "cached_head": mark_safe(parts["head"]),  # noqa: S308
        "cached_actions": mark_safe(parts["actions"].replace(_csrf_placeholder(), token)),  # noqa: S308
        "cached_body": mark_safe(parts["body"]),  # noqa: S308
    }
    return render(request, "reviews/detail.html", context).content.decode()


def _page_key(request: HttpRequest, review: Review, parts: dict) -> tuple:
    """All the page shows besides the kept parts and the token: the header (with the output of
    every context processor, as the template sees it), the plan against actual, the footer's
    currency (the current team's) and the path (the header's forms come back to it)."""
    context = {}
    for processor in engines["django"].engine.template_context_processors:
        context.update(processor(request))
    team = getattr(request, "team", None)
    return (
        review.pk,
        parts.get("drawn"),
        header_key(context),
        str(plan_vs_actual(context, review)),
        getattr(team, "currency", None),
        request.get_full_path(),
    )


def signed_page(request: HttpRequest, review: Review, parts: dict) -> HttpResponse:
    """The page around the kept parts: as this process last drew it for the same header, plan
    against actual and path, else drawn now (and kept). A page with messages to show is drawn
    and not kept."""
    token = escape(get_token(request))
    if len(get_messages(request)):
        return HttpResponse(_draw(request, review, parts, token))
    key = _page_key(request, review, parts)
    with _lock:
        html = _pages.get(key)
        if html is not None:
            _pages.move_to_end(key)
    if html is None:
        html = _draw(request, review, parts, _TOKEN)
        with _lock:
            _kept[0] += len(html) - len(_pages.pop(key, ""))
            _pages[key] = html
            while _kept[0] > _BUDGET and len(_pages) > 1:
                _kept[0] -= len(_pages.popitem(last=False)[1])
    return HttpResponse(html.replace(_TOKEN, token))
