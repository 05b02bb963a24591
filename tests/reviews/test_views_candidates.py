"""The candidates page of a review (apps/reviews/views/candidates.py): add, change, remove, as a
full page and as its htmx fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_offer
from tests.reviews.helpers import (
    ready_review,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


class CandidatesViewTests:
    def test_full_page_and_fragment(self, client, team, owner):
        review = ready_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        page = client.get(url)
        assert page.status_code == 200 and "<html" in page.content.decode()
        fragment = client.get(url, **HX).content.decode()
        assert fragment.lstrip().startswith('<section id="candidates"')

    def test_add_update_remove_through_htmx(self, client, team, owner):
        review = ready_review(team, owner)
        offer = make_offer(team, site=review.task.home_site)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        added = client.post(
            url,
            {"action": "add", "offer": offer.pk, "machines": 2, "version": review.version},
            **HX,
        )
        assert added.status_code == 200
        candidate = review.candidates.get(offer=offer)
        assert f'id="candidate-{candidate.pk}"' in added.content.decode()
        review.refresh_from_db()
        updated = client.post(
            url,
            {
                "action": "update",
                "candidate": candidate.pk,
                "machines": 3,
                "version": review.version,
            },
            **HX,
        )
        assert updated.status_code == 200
        candidate.refresh_from_db()
        assert candidate.machines == 3
        review.refresh_from_db()
        removed = client.post(
            url, {"action": "remove", "candidate": candidate.pk, "version": review.version}, **HX
        )
        assert removed.status_code == 200
        assert not review.candidates.filter(pk=candidate.pk).exists()

    def test_errors_are_shown_in_place(self, client, team, owner):
        review = ready_review(team, owner)
        existing = review.candidates.get()
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        response = client.post(
            url, {"action": "update", "candidate": existing.pk, "machines": 0}, **HX
        )
        assert response.status_code == 200
        assert "form-error" in response.content.decode()
        full = client.post(url, {"action": "add", "offer": "", "machines": 1})
        assert full.status_code == 400
        assert "offer" in full.context["add_form"].errors

    def test_a_submitted_review_is_read_only(self, client, team, owner):
        review = submitted_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        body = client.get(url).content.decode()
        assert 'name="action" value="add"' not in body
        response = client.post(
            url, {"action": "update", "candidate": review.candidates.get().pk, "machines": 5}, **HX
        )
        assert response.status_code == 409
        assert response["HX-Redirect"] == url
        assert review.candidates.get().machines == 1
