"""The task's latest preprocessing run (a benchmark record of kind `preprocess`, SPEC 6.4) and
the profile fields it fills in one click. Read through the profile's `benchmarks` relation, so
profiles does not import the benchmarks app that sits above it."""

from __future__ import annotations

from django import forms
from django.db.models import QuerySet

import engine
from apps.accounts.fields import MAX_PK
from apps.web.concurrency import VersionField

from .models import TaskProfile

PREPROCESS_KIND = "preprocess"
# Profile field ← the record's figure: the one home of what one click fills.
FILLED_FROM = {
    "processed_gb": "output_gb",
    "preprocess_hours": "preprocess_hours",
    "preprocess_cost_per_hour": "preprocess_cost_per_hour",
}


def preprocess_records(profile: TaskProfile) -> QuerySet:
    """The profile's preprocessing runs recorded by its own team, newest first."""
    return (
        profile.benchmarks.filter(team_id=profile.team_id, kind=PREPROCESS_KIND)
        .select_related("site")
        .order_by("-recorded_at", "-id")
    )


def fill_values(record) -> dict[str, float]:
    """The profile fields `record` fills, with their values."""
    return {name: getattr(record, figure) for name, figure in FILLED_FROM.items()}


def preprocess_latest(*, profile: TaskProfile) -> dict:
    """The latest preprocessing run of the task and whether the profile already carries its
    figures, for the profile page's fill card."""
    record = preprocess_records(profile).first()
    if record is None:
        return {"preprocess_record": None, "preprocess_filled": False}
    filled = all(getattr(profile, name) == value for name, value in fill_values(record).items())
    return {"preprocess_record": record, "preprocess_filled": filled}


class PreprocessFillForm(forms.Form):
    """The fill button: which run the page showed, and the profile version it showed."""

    record = forms.IntegerField(min_value=1, max_value=MAX_PK)
    version = VersionField()


def staged_effect(engine_input: dict, evaluation: dict) -> dict | None:
    """SPEC 6.4 for the live panel: what a staged plan ships per run against the raw input, with
    the engine's own figures (`engine.staged_shipment`, which D3 reads too), and whether the
    chosen option is staged. None when the task has no processed version."""
    if (engine_input.get("task") or {}).get("processed_gb") is None:
        return None
    chosen = evaluation.get("chosen") or {}
    staged = chosen.get("plan") == "staged"
    task = engine.parse_input(engine_input).task
    shipment = engine.staged_shipment(task, chosen.get("input_mode") if staged else None)
    return {**shipment, "chosen_staged": staged, "site": chosen.get("site")}
