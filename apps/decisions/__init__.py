"""Decisions on reviews: the review page, submitting a review for decisions, a reviewer's
sign-off, cloning a decided review, and the demo reviews that go through them.

These read the review domain (apps.reviews, its checklists too) and its evaluation
(apps.scoring), so they sit above both (docs/architecture.md). A package of modules, not a
Django app: it has no models; its URLs keep the `reviews` namespace.
"""
