"""Builders for the actual-cost tests: an approved review whose signed plan is worked by hand."""

from __future__ import annotations

from tests.teams.helpers import approve, moving_review

# tests.teams.helpers.moving_review at 4.0 per GB, one run: compute 8 GPUs × 10 h × 2.5 = 200,
# transfer (10 GB image + 5 GB results) × 4.0 = 60, total 260.
PLAN_COMPUTE, PLAN_TRANSFER = 200.0, 60.0


def approved_review(team, author, reviewer, **kw):
    """An approved review of the team whose chosen option moves the job to the data."""
    return approve(moving_review(team, author, ready=True, **kw), reviewer)
