"""The page does not move (issue 35): the review page of a draft whose figures are still being
computed keeps their space, so when the evaluation arrives by htmx (and the decision band with
it) the cumulative layout shift stays under 0.1, on a desktop and on a phone.

The figures are computed by the real task, run by the test while the page polls: a worker that
takes the job a moment after the page opened.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.pages import sign_in, use_language

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

DRAFT = "Nightly 7B evaluation: H100 or A100 pool"
CLS_LIMIT = 0.1  # Lighthouse's "good"
VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}

# Every layout shift not caused by input, summed (an upper bound of the CLS of any window).
MEASURE_CLS = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) { if (!entry.hadRecentInput) window.__cls += entry.value; }
}).observe({type: 'layout-shift', buffered: true});
"""


def _figures_pending(review) -> int:
    """Change an input (one more machine for a candidate), and leave the job of the new inputs
    queued, as a worker that has not come yet leaves it. Returns the job's id."""
    from apps.reviews.snapshots.models import JobStatus, SnapshotJob
    from apps.reviews.snapshots.services import current_fingerprint

    candidate = review.candidates.order_by("pk").first()
    candidate.machines += 1
    candidate.save(update_fields=["machines"])
    job = SnapshotJob.objects.create(
        team_id=review.team_id,
        review=review,
        fingerprint=current_fingerprint(review),
        status=JobStatus.QUEUED,
    )
    return job.pk


def test_the_evaluation_arrives_without_moving_the_page(live_server, browser):

    from apps.reviews.models import Review
    from apps.reviews.tasks import compute_snapshot_task

    call_command("load_demo", verbosity=0)
    review = Review.objects.get(title=DRAFT)
    base = live_server.url
    url = base + reverse("reviews:detail", args=[review.pk])
    shifts: dict[str, float] = {}
    try:
        for name, viewport in VIEWPORTS.items():
            phone = name == "phone"
            context = browser.new_context(
                viewport=viewport, is_mobile=phone, has_touch=phone, locale="en-US"
            )
            use_language(context, base, "en")
            page = context.new_page()
            page.set_default_timeout(20_000)
            sign_in(page, base, "alice")
            job_id = _figures_pending(review)
            page.add_init_script(MEASURE_CLS)
            page.goto(url)
            page.wait_for_selector("#review-evaluation.evaluation--pending")
            page.wait_for_selector("#decision-summary.decision-summary--pending")
            compute_snapshot_task.apply(args=[job_id])  # the worker comes
            page.wait_for_selector("#review-evaluation[data-snapshot]")
            page.wait_for_selector("#decision-summary [data-glance=total]")
            page.wait_for_function(  # htmx has settled the swap
                "() => !document.querySelector('.htmx-settling, .htmx-swapping, .htmx-added')"
            )
            shifts[name] = page.evaluate("window.__cls")
            context.close()
    finally:
        for context in browser.contexts:
            context.close()
    assert all(value < CLS_LIMIT for value in shifts.values()), shifts
