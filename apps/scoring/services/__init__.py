"""Writes of the scoring app: `quarterly_review`, the quarterly cost review table.

This package is their public face: `from apps.scoring.services import quarterly_refresh` is the
same function as `apps.scoring.services.quarterly_review.quarterly_refresh`. The snapshot workflow
is the reviews app's (apps/reviews/snapshots/).
"""

from .quarterly_review import RefreshRequest, quarterly_refresh, quarterly_refresh_request

__all__ = ["RefreshRequest", "quarterly_refresh", "quarterly_refresh_request"]
