"""Who may open which review page (apps/reviews/views/common.py, the access helper every review
view starts with): anonymous users, outsiders and members of another team."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_membership, make_user
from tests.reviews.helpers import (
    current_snapshot_id,
    ready_review,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def review_urls(review) -> list[tuple[str, str]]:
    """(method, url) of every page of one review, including its checklist."""
    candidate = review.candidates.first()
    urls = [
        ("get", reverse("reviews:detail", args=[review.pk])),
        ("get", reverse("reviews:edit", args=[review.pk])),
        ("get", reverse("reviews:candidates", args=[review.pk])),
        ("post", reverse("reviews:submit", args=[review.pk])),
        ("post", reverse("reviews:decide", args=[review.pk])),
        ("post", reverse("reviews:clone", args=[review.pk])),
        ("get", reverse("checklists:review", args=[review.pk])),
    ]
    if candidate is not None:
        urls.append(("post", reverse("checklists:answer", args=[candidate.pk, "q1"])))
    return urls


class AccessTests:
    def test_anonymous_users_are_sent_to_login(self, client, team, owner):
        review = ready_review(team, owner)
        pages = [
            ("get", reverse("reviews:list")),
            ("get", reverse("reviews:create")),
            ("get", reverse("reviews:approvals")),
            *review_urls(review),
        ]
        for method, url in pages:
            response = getattr(client, method)(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("accounts:login")), url

    def test_an_outsider_gets_404_on_every_review_and_checklist_url(
        self, client, team, owner, outsider
    ):
        review = submitted_review(team, owner)
        client.force_login(outsider)
        for method, url in review_urls(review):
            assert getattr(client, method)(url).status_code == 404, url
            assert getattr(client, method)(url, **HX).status_code == 404, url
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_a_member_who_is_not_a_reviewer_gets_403_on_decide(self, client, team, owner, member):
        review = submitted_review(team, owner)
        client.force_login(member)
        assert client.get(reverse("reviews:detail", args=[review.pk])).status_code == 200
        response = client.post(
            reverse("reviews:decide", args=[review.pk]),
            {"decision": "approve", "snapshot": current_snapshot_id(review)},
        )
        assert response.status_code == 403
        assert not review.signoffs.exists()


class MembershipOfOtherTeamTests:
    def test_a_user_in_two_teams_reaches_both(self, client, team, other_team, owner):
        both = make_user("both")
        make_membership(both, team, "member")
        make_membership(both, other_team, "member")
        review = ready_review(other_team, make_membership(make_user("x"), other_team).user)
        client.force_login(both)
        assert client.get(reverse("reviews:detail", args=[review.pk])).status_code == 200
