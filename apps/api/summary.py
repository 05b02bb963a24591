"""GET /api/v1/reviews/{id}/summary: a review's decision for a pull request or a chat, in
Markdown (the default, `text/markdown`) or JSON (`Accept: application/json` or `?format=json`),
from apps/scoring/pr_summary.py.

A team token reads its team's reviews, a signed-in member those of their teams; another team's
review is a 404, as a missing one.
"""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Router, Status

from apps.reviews.models import Review
from apps.scoring import pr_summary
from apps.web.api_auth import session_auth, token_auth
from apps.web.body import ErrorsOut

router = Router(tags=["summary"], auth=[token_auth, session_auth])
FORMATS = ("markdown", "json")
MARKDOWN = "text/markdown; charset=utf-8"


def wanted_format(request, *, default: str = "markdown") -> str | None:
    """The format asked: "markdown" or "json" from ?format= (first) or the Accept header
    naming one of them alone, else `default`; None when ?format= names something else."""
    asked = request.GET.get("format")
    if asked is not None:
        return asked if asked in FORMATS else None
    accept = request.headers.get("Accept", "")
    json_asked, markdown_asked = "application/json" in accept, "text/markdown" in accept
    if json_asked != markdown_asked:
        return "json" if json_asked else "markdown"
    return default


def format_error():
    message = f"format must be one of: {', '.join(FORMATS)}"
    return Status(422, {"errors": [{"field": "format", "message": message}]})


def markdown_response(summary: dict) -> HttpResponse:
    return HttpResponse(pr_summary.summary_markdown(summary), content_type=MARKDOWN)


@router.get(
    "/{int:review_id}/summary",
    response={200: dict, 404: ErrorsOut, 422: ErrorsOut},
    summary="A review's decision in Markdown (default) or JSON, for a pull request or a chat",
)
def review_summary(request, review_id: int):
    fmt = wanted_format(request)
    if fmt is None:
        return format_error()
    review = (
        Review.objects.filter(team_id__in=request.auth.team_ids, pk=review_id)
        .select_related("team")
        .first()
    )
    if review is None:
        return Status(404, {"errors": [{"field": "review_id", "message": "No such review."}]})
    summary = pr_summary.review_summary(review)
    if fmt == "markdown":
        return markdown_response(summary)
    return Status(200, summary)
