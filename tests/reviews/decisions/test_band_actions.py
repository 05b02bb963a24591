"""The decision band's actions (issue 35): the figures' fragment redraws the band out of band
and has it fetch its actions from the review page's view, which draws them only for a viewer who
may decide."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.reviews.helpers import submitted_review

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


class BandActionsTests:
    def test_the_redrawn_band_fetches_the_actions_a_reviewer_then_gets(
        self, client, team, member, reviewer
    ):
        review = submitted_review(team, member)
        client.force_login(reviewer)
        figures = client.get(reverse("scoring:review_evaluation", args=[review.pk]), **HX)
        url = reverse("reviews:band_actions", args=[review.pk])
        assert f'hx-get="{url}" hx-trigger="load"' in figures.content.decode()
        actions = client.get(url, **HX).content.decode()
        assert 'form="decision-form" name="decision" value="approve"' in actions
        assert 'data-confirm="Approve ' in actions

    def test_the_author_gets_no_action(self, client, team, member):
        review = submitted_review(team, member)
        client.force_login(member)
        response = client.get(reverse("reviews:band_actions", args=[review.pk]), **HX)
        assert response.status_code == 200
        assert response.content.decode().strip() == ""

    def test_another_team_gets_404(self, client, team, member, outsider):
        review = submitted_review(team, member)
        client.force_login(outsider)
        response = client.get(reverse("reviews:band_actions", args=[review.pk]), **HX)
        assert response.status_code == 404
