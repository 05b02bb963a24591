"""Reads for the accounts app."""

from __future__ import annotations

from django.apps import apps

from .models import Team


def home_summary(*, user, team: Team | None) -> dict:
    """Counts for the home page of the current team: a handful of queries, whatever the sizes."""
    if team is None:
        return {"summary": None}
    counts = {}
    for key, label in (
        ("sites", "catalog.Site"),
        ("offers", "catalog.Offer"),
        ("profiles", "profiles.TaskProfile"),
        ("benchmarks", "benchmarks.BenchmarkRecord"),
        ("reviews", "reviews.Review"),
    ):
        counts[key] = apps.get_model(label).objects.for_team(team).count()
    return {"summary": counts}
