"""The approval queue is cached per reviewer (reviews.views.approvals): a submission, a decision
or a change of role shows on the next request, and "submitted … ago" is told to the minute."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.reviews.models import Review
from tests.factories import make_membership, make_user
from tests.reviews.helpers import approve, submitted_review

pytestmark = pytest.mark.django_db


def _queue(client) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("reviews:approvals"))
    assert response.status_code == 200
    html = response.content.decode()
    return html.split('<main id="main"')[1], len(ctx.captured_queries)


class ApprovalQueueCacheTests:
    def test_a_submission_and_a_decision_show_at_once(self, client, team, owner, reviewer):
        first = submitted_review(team, owner, title="First plan")
        client.force_login(reviewer)
        page, misses = _queue(client)
        again, hits = _queue(client)
        assert "First plan" in page and again == page and hits < misses
        submitted_review(team, owner, title="Second plan")
        assert "Second plan" in _queue(client)[0]
        approve(first, reviewer)
        decided, _ = _queue(client)
        assert "First plan" not in decided and "Second plan" in decided

    def test_each_reviewer_has_their_own_queue(self, client, team, owner, reviewer):
        submitted_review(team, reviewer, title="Written by the reviewer")
        client.force_login(reviewer)
        assert "Written by the reviewer" not in _queue(client)[0]  # nobody decides on their own
        client.force_login(owner)
        assert "Written by the reviewer" in _queue(client)[0]

    def test_a_lost_role_shows_at_once(self, client, team, owner):
        submitted_review(team, owner, title="Plan")
        demoted = make_membership(make_user("demoted"), team, "reviewer")
        client.force_login(demoted.user)
        assert "Plan" in _queue(client)[0]
        demoted.role = "member"
        demoted.save()
        page, _ = _queue(client)
        assert "Plan" not in page and "You do not sign off reviews" in page

    def test_the_waiting_time_is_told_to_the_minute(self, client, team, owner, reviewer):
        review = submitted_review(team, owner, title="Plan")
        minute = timezone.now().replace(second=0, microsecond=0)
        Review.objects.filter(pk=review.pk).update(
            submitted_at=minute - timedelta(hours=3, minutes=5)
        )
        review.refresh_from_db()
        review.save()  # the update above sends no signal: save once to change the generation
        client.force_login(reviewer)
        page = _queue(client)[0]
        # Counted from the start of the minute (the next one, if the clock just turned).
        assert "3\xa0hours, 5\xa0minutes ago" in page or "3\xa0hours, 6\xa0minutes ago" in page
