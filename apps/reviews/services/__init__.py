"""Writes of reviews, one module per topic:

- `lifecycle`: create, edit the title, submit for decisions, clone a decided review;
- `candidates`: add, change and remove candidates, reserve network links;
- `signoff`: a reviewer's decision and the review state that follows.

Each service is keyword-only, runs in one transaction, locks the review row first
(`workflow.lock_review`), checks the version the caller saw when it passes one, refuses a review
whose state does not allow the action, and writes an AuditEvent (who, what, old → new).

This package is their public face: `from apps.reviews.services import review_submit` is the same
function as `apps.reviews.services.lifecycle.review_submit`. Views and tests import the module
they need; a test that patches a name patches it in that module.
"""

from apps.reviews.workflow import ReviewConflict, ReviewRefused

from .candidates import candidate_add, candidate_remove, candidate_update, review_reserve_links
from .lifecycle import review_clone, review_create, review_submit, review_update
from .signoff import signoff_create

__all__ = [
    "ReviewConflict",
    "ReviewRefused",
    "candidate_add",
    "candidate_remove",
    "candidate_update",
    "review_clone",
    "review_create",
    "review_reserve_links",
    "review_submit",
    "review_update",
    "signoff_create",
]
