"""Discussion threads on a review and on each of its candidates (issue 40)."""
