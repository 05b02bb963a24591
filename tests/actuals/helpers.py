"""Builders for the actual-cost tests: an approved review whose signed plan is worked by hand."""

from __future__ import annotations

import datetime as dt
from unittest import mock

from tests.teams.helpers import approve, moving_review

# tests.teams.helpers.moving_review at 4.0 per GB, one run: compute 8 GPUs × 10 h × 2.5 = 200,
# transfer (10 GB image + 5 GB results) × 4.0 = 60, total 260.
PLAN_COMPUTE, PLAN_TRANSFER = 200.0, 60.0

# The tests record costs of January to May 2026: an actual is dated from the month its plan was
# approved to today (apps.actuals.validation.period_refusal), so their reviews were approved in
# January 2026, not at the moment the test runs.
APPROVED_AT = dt.datetime(2026, 1, 15, 9, 0, tzinfo=dt.UTC)
# The public bill samples (tests/data/bills) charge January 2025 onwards: their plans were
# approved before that, as an actual cost is dated no earlier than its plan's approval month.
BILLS_APPROVED_AT = dt.datetime(2024, 12, 2, 9, 0, tzinfo=dt.UTC)


def approved_review(team, author, reviewer, *, approved_at: dt.datetime = APPROVED_AT, **kw):
    """An approved review of the team whose chosen option moves the job to the data, approved
    (through the reviews services) at `approved_at`."""
    review = moving_review(team, author, ready=True, **kw)
    with mock.patch("django.utils.timezone.now", return_value=approved_at):
        return approve(review, reviewer)
