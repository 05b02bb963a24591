"""A signed snapshot's display (its tables, charts and summary) is kept as data under the
snapshot's id, the release and the language (docs/architecture.md, "Caching")."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.reviews.snapshots import selectors
from apps.reviews.snapshots.services import signed_snapshot
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db


def test_it_is_worked_out_once_per_language_and_release(team, member, reviewer, monkeypatch):
    snapshot = signed_snapshot(approved_review(team, member, reviewer))
    worked = []
    display = selectors.snapshot_display

    def counting(snap):
        worked.append(translation.get_language())
        return display(snap)

    monkeypatch.setattr(selectors, "snapshot_display", counting)
    first = selectors.signed_display(snapshot)
    again = selectors.signed_display(snapshot)
    assert worked == ["en"]
    assert again["rows"] == first["rows"] and again["snapshot"] is snapshot
    with translation.override("zh-hans"):
        selectors.signed_display(snapshot)
    assert worked == ["en", "zh-hans"]
    monkeypatch.setattr(selectors, "release", lambda: "a-new-release")
    selectors.signed_display(snapshot)
    assert worked == ["en", "zh-hans", "en"]
