"""The snapshots of a review: what the engine made of its inputs, computed once and never changed.

- `models`: the snapshot and the job that computes it off the request path;
- `services`: the engine input of a review, the snapshot computed on it (exactly once), and the
  current / latest / signed snapshot of a review;
- `jobs`: request, claim, fail and sweep the jobs (their Celery tasks: apps/reviews/tasks.py);
- `recompute`: the recomputation of open reviews after an engine upgrade;
- `tables`, `charts`: the comparison table and the charts a snapshot stores.

The figures drawn from stored snapshots (history, exports, quarterly review, launch) are the
scoring app's, above this one.
"""
