"""Separation of duties, configurable per team only upwards (issue 17): with
Team.approvals_from_two_roles a round is approved only by at least two approvals, from an owner
and a reviewer; the review page says which role is still needed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.models import Team
from apps.reviews.models import ReviewState
from tests.factories import make_membership, make_user
from tests.reviews.helpers import approve, second_reviewer, submitted_review

pytestmark = pytest.mark.django_db


def _strict(team) -> None:
    Team.objects.filter(pk=team.pk).update(approvals_from_two_roles=True)
    team.refresh_from_db()


class RuleTests:
    def test_two_reviewers_are_not_enough_an_owner_decides(self, team, member, reviewer):
        _strict(team)
        review = submitted_review(team, member)
        assert review.approvals_from_two_roles and review.approvals_needed == 2
        approve(review, reviewer)
        approve(review, second_reviewer(team))
        review.refresh_from_db()
        # Two approvals, one role (reviewer): still waiting.
        assert review.state == ReviewState.SUBMITTED
        owner2 = make_membership(make_user("owner-two"), team, "owner").user
        approve(review, owner2)
        review.refresh_from_db()
        assert review.state == ReviewState.APPROVED

    def test_an_owner_and_a_reviewer_approve(self, team, member, owner, reviewer):
        _strict(team)
        review = submitted_review(team, member)
        approve(review, owner)
        review.refresh_from_db()
        assert review.state == ReviewState.SUBMITTED  # one approval is never enough
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == ReviewState.APPROVED

    def test_without_the_option_one_approval_decides(self, team, member, reviewer):
        review = submitted_review(team, member)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == ReviewState.APPROVED

    def test_the_option_is_taken_when_the_round_is_submitted(self, team, member, reviewer):
        review = submitted_review(team, member)  # submitted before the option was turned on
        _strict(team)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == ReviewState.APPROVED


class PageTests:
    def test_the_review_page_says_which_role_is_missing(self, client, team, member, reviewer):
        _strict(team)
        review = submitted_review(team, member)
        approve(review, reviewer)
        client.force_login(member)
        html = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "Waiting for decisions: 1 of 2 approvals in this round." in html
        assert "Approved so far by: Reviewer." in html
        assert "Roles still needed: Owner." in html

    def test_an_owner_turns_it_on_in_the_settings(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:settings_general"),
            {"approvals_required": 1, "currency": team.currency, "version": team.version,
             "approvals_from_two_roles": "on"},
        )
        assert response.status_code == 302
        team.refresh_from_db()
        assert team.approvals_from_two_roles is True
        html = client.get(reverse("teams:settings")).content.decode()
        assert "approvals from two roles on" in html  # the settings audit says so

    def test_a_member_cannot_turn_it_on(self, client, team, member):
        client.force_login(member)
        response = client.post(
            reverse("teams:settings_general"),
            {"approvals_required": 1, "currency": team.currency, "version": team.version,
             "approvals_from_two_roles": "on"},
        )
        assert response.status_code in (403, 404)
        team.refresh_from_db()
        assert team.approvals_from_two_roles is False
