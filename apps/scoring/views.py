from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.accounts.access import get_scoped_or_404
from apps.reviews.models import Review

from . import selectors

STOP_POLLING = 286  # htmx: stop polling


@login_required
@require_GET
def review_evaluation(request: HttpRequest, review_id: int) -> HttpResponse:
    """The evaluation block of a review: progress while computing, then table and charts."""
    review = get_scoped_or_404(Review.objects.select_related("task"), request.user, pk=review_id)
    context = selectors.review_evaluation(review)
    response = render(request, "scoring/_review_evaluation.html", context)
    if request.htmx and context["snapshot"] is not None:
        response.status_code = STOP_POLLING
    return response
