"""The XLSX export never answers 500 for text an older row carries (issue 34: a control
character in a form field made the export of an approved review fail for ever)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from apps.reviews.snapshots.services import snapshot_compute

pytestmark = pytest.mark.django_db


def test_control_characters_in_saved_names_are_stripped_from_the_xlsx(client, owner, world):
    from openpyxl import load_workbook

    offers = type(world.local).objects
    offers.filter(pk=world.local.pk).update(provider="", name="Bell\x07 and\x1b escape")
    type(world.review).objects.filter(pk=world.review.pk).update(title="Plan\x01 A")
    snapshot = snapshot_compute(review_id=world.review.pk)
    client.force_login(owner)
    response = client.get(reverse("scoring:snapshot_xlsx", args=[snapshot.pk]))
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    labels = {cell.value for row in book["Comparison"].iter_rows() for cell in row}
    assert "Bell and escape" in labels
    assert "Plan A" in str(book["Snapshot"]["B1"].value)
