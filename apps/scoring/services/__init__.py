"""Writes of the scoring app, one module per topic:

- `snapshots`: the engine input of a review, the snapshot computed on it (exactly once), and the
  current / latest / signed snapshot of a review;
- `jobs`: the jobs that compute snapshots off the request path (request, claim, fail, sweep);
- `recompute`: the recomputation of open reviews after an engine upgrade;
- `quarterly_review`: the quarterly cost review table.

This package is their public face: `from apps.scoring.services import snapshot_compute` is the
same function as `apps.scoring.services.snapshots.snapshot_compute`. Code inside the scoring app
imports the module it needs; a test that patches a name patches it in that module.
"""

from .jobs import (
    ACTIVE_JOB_STATES,
    MAX_JOB_ATTEMPTS,
    snapshot_job_claim,
    snapshot_job_fail,
    snapshot_request,
    snapshot_sweep,
)
from .quarterly_review import RefreshRequest, quarterly_refresh, quarterly_refresh_request
from .recompute import RECOMPUTE_COUNTS, snapshot_recompute_batch, snapshot_recompute_outdated
from .snapshots import (
    build_review_input,
    current_fingerprint,
    current_snapshot,
    latest_snapshot,
    review_checklists,
    signed_snapshot,
    snapshot_compute,
)

__all__ = [
    "ACTIVE_JOB_STATES",
    "MAX_JOB_ATTEMPTS",
    "RECOMPUTE_COUNTS",
    "RefreshRequest",
    "build_review_input",
    "current_fingerprint",
    "current_snapshot",
    "latest_snapshot",
    "quarterly_refresh",
    "quarterly_refresh_request",
    "review_checklists",
    "signed_snapshot",
    "snapshot_compute",
    "snapshot_job_claim",
    "snapshot_job_fail",
    "snapshot_recompute_batch",
    "snapshot_recompute_outdated",
    "snapshot_request",
    "snapshot_sweep",
]
