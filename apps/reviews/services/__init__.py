"""Writes of reviews, one module per topic:

- `lifecycle`: create, edit the title;
- `candidates`: add, change and remove candidates, reserve network links;
- `readiness`: confirm the task's readiness (H2) from the review;
- `submission`: submit for decisions (the checklist gate and a current snapshot), clone a decided
  review;
- `signoff`: a reviewer's decision on the snapshot they saw.

The checklist answers' writes are `checklists/services.py`; the snapshots' are `snapshots/`.

Each service is keyword-only, runs in one transaction, locks the review row first
(`workflow.lock_review`), checks the version the caller saw when it passes one, refuses a review
whose state does not allow the action, and writes an AuditEvent (who, what, old → new).

This package is their public face: `from apps.reviews.services import review_create` is the same
function as `apps.reviews.services.lifecycle.review_create`. Views and tests import the module
they need; a test that patches a name patches it in that module.
"""

from apps.reviews.workflow import ReviewConflict, ReviewRefused

from .candidates import candidate_add, candidate_remove, candidate_update, review_reserve_links
from .lifecycle import review_create, review_update

__all__ = [
    "ReviewConflict",
    "ReviewRefused",
    "candidate_add",
    "candidate_remove",
    "candidate_update",
    "review_create",
    "review_reserve_links",
    "review_update",
]
