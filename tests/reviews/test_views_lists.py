"""The review lists (apps/reviews/views/lists.py): the team's reviews, filtered and paginated, and
the reviewer's approval queue; each as a full page and as its htmx fragment."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.models import Review
from apps.reviews.selectors import approvals_waiting_count
from tests.factories import make_membership, make_offer, make_profile, make_review, make_user
from tests.reviews.helpers import (
    approve,
    ready_review,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


class ReviewListTests:
    def test_it_lists_the_team_reviews_with_state_badges(self, client, team, other_team, owner):
        mine = ready_review(team, owner, title="Fine-tune in Q3")
        make_review(other_team, make_user("x"), title="Not ours")
        client.force_login(owner)
        response = client.get(reverse("reviews:list"))
        assert response.status_code == 200
        body = response.content.decode()
        assert "Fine-tune in Q3" in body and "Not ours" not in body
        assert f'id="review-{mine.pk}"' in body
        assert "badge badge--draft" in body

    def test_it_filters_and_serves_the_results_fragment_to_htmx(self, client, team, owner):
        draft = ready_review(team, owner, title="Alpha plan")
        other = submitted_review(team, owner, title="Beta plan")
        client.force_login(owner)
        response = client.get(reverse("reviews:list"), {"state": "submitted"}, **HX)
        body = response.content.decode()
        assert body.lstrip().startswith('<section id="review-results"')
        assert "<html" not in body
        assert "Beta plan" in body and "Alpha plan" not in body
        response = client.get(reverse("reviews:list"), {"q": "alpha"})
        assert [r.pk for r in response.context["reviews"]] == [draft.pk]
        response = client.get(reverse("reviews:list"), {"task": other.task_id})
        assert [r.pk for r in response.context["reviews"]] == [other.pk]
        response = client.get(reverse("reviews:list"), {"author": owner.pk, "state": "approved"})
        assert "No review matches these filters" in response.content.decode()
        # An unknown choice is ignored rather than failing the page.
        response = client.get(reverse("reviews:list"), {"author": make_user("nobody").pk})
        assert len(response.context["reviews"]) == 2

    def test_it_shows_an_empty_state_with_new_review(self, client, team, owner):
        client.force_login(owner)
        body = client.get(reverse("reviews:list")).content.decode()
        assert "No reviews yet" in body
        assert reverse("reviews:create") in body

    def test_it_paginates_by_25(self, client, team, owner):
        task = make_profile(team)
        for i in range(30):
            make_review(team, owner, task=task, title=f"R{i}")
        client.force_login(owner)
        first = client.get(reverse("reviews:list"))
        assert len(first.context["reviews"]) == 25
        second = client.get(reverse("reviews:list"), {"page": 2})
        assert len(second.context["reviews"]) == 5

    def test_its_query_count_does_not_grow_with_reviews(self, client, team, owner):
        client.force_login(owner)

        def count(n: int) -> int:
            Review.objects.all().delete()
            task = make_profile(team)
            offer = make_offer(team)
            for i in range(n):
                make_review(team, owner, task=task, offers=[offer], title=f"R{i}")
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(reverse("reviews:list")).status_code == 200
            return len(ctx.captured_queries)

        assert count(5) == count(60)


class ApprovalsTests:
    def test_the_queue_holds_what_waits_for_this_reviewer(
        self, client, team, other_team, owner, reviewer
    ):
        waiting = submitted_review(team, owner, title="Waiting for you")
        ready_review(team, owner, title="Still a draft")
        decided = submitted_review(team, owner, title="Already decided")
        team.approvals_required = 2
        team.save()
        Review.objects.filter(pk=decided.pk).update(approvals_required=2)
        approve(decided, reviewer)
        own = submitted_review(team, reviewer, title="Written by you")
        stranger = make_membership(make_user("x"), other_team, "owner").user
        submitted_review(other_team, stranger, title="Another team")
        client.force_login(reviewer)
        response = client.get(reverse("reviews:approvals"))
        assert [r.pk for r in response.context["reviews"]] == [waiting.pk]
        assert response.context["waiting"] == 1
        assert approvals_waiting_count(reviewer) == 1
        assert own.pk not in [r.pk for r in response.context["reviews"]]

    def test_the_navigation_count_is_one_query(self, team, owner, reviewer):
        for _ in range(3):
            submitted_review(team, owner)
        with CaptureQueriesContext(connection) as ctx:
            assert approvals_waiting_count(reviewer) == 3
        assert len(ctx.captured_queries) == 1
        assert approvals_waiting_count(owner) == 0  # the author of all three

    def test_a_member_sees_that_they_do_not_sign_off(self, client, team, owner, member):
        submitted_review(team, owner)
        client.force_login(member)
        response = client.get(reverse("reviews:approvals"))
        assert list(response.context["reviews"]) == []
        assert "You do not sign off reviews" in response.content.decode()
        assert approvals_waiting_count(member) == 0

    def test_its_query_count_does_not_grow_with_reviews(self, client, team, owner, reviewer):
        client.force_login(reviewer)
        task = make_profile(team)
        offer = make_offer(team)

        def count(n: int) -> int:
            Review.objects.all().delete()
            for i in range(n):
                make_review(
                    team, owner, task=task, offers=[offer], title=f"R{i}", state="submitted"
                )
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(reverse("reviews:approvals"))
            assert response.context["waiting"] == n
            return len(ctx.captured_queries)

        assert count(5) == count(60)
