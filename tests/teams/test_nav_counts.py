"""The navigation's counts (apps/teams/nav_counts.py): one query built from the selectors' own
rules, counting for whoever asks (their key: tests/teams/test_nav_count_key.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.notifications.models import Notification
from apps.notifications.selectors import unread_count
from apps.reviews.models import Review
from apps.reviews.selectors import approvals_waiting_count
from apps.teams.context_processors import nav_counts_of
from tests.factories import make_membership, make_user
from tests.reviews.helpers import approve, second_reviewer, submitted_review

pytestmark = pytest.mark.django_db


def _note(user, team, n: int, read: bool = False) -> None:
    Notification.objects.create(
        recipient=user,
        team=team,
        kind="review_submitted",
        event_key=f"e{n}",
        read_at=timezone.now() if read else None,
    )


def _memberships(user):
    return list(user.memberships.select_related("team"))


class NavCountsTests:
    def test_it_counts_what_the_selectors_count_for_each_viewer(
        self, team, other_team, owner, reviewer
    ):
        team.approvals_required = 2
        team.save()
        waiting = submitted_review(team, owner, title="Waiting")  # 1 for the reviewer
        decided = submitted_review(team, owner, title="Decided")
        Review.objects.filter(pk=decided.pk).update(approvals_required=2)
        approve(decided, reviewer)  # the reviewer decided this round: not counted for them
        submitted_review(team, reviewer, title="Their own")  # 1 for the owner, 0 for its author
        stranger = make_membership(make_user("stranger"), other_team, "owner").user
        submitted_review(other_team, stranger)  # another team: nobody here counts it
        Notification.objects.all().delete()  # the submissions' own; these tests plant theirs
        _note(reviewer, team, 1)
        _note(reviewer, team, 2)
        _note(reviewer, team, 3, read=True)
        _note(reviewer, other_team, 4)  # a team they are not in: not theirs to read
        # Reviewer: "Waiting" only; 2 unread in their team. Owner: "Waiting" is theirs, "Decided"
        # is theirs, "Their own" is the reviewer's: 1 waiting; no notification.
        assert nav_counts_of(reviewer, _memberships(reviewer)) == (1, 2)
        assert nav_counts_of(owner, _memberships(owner)) == (1, 0)
        for user in (reviewer, owner, stranger):
            expected = (approvals_waiting_count(user), unread_count(user=user))
            assert nav_counts_of(user, _memberships(user)) == expected
        assert waiting.state == "submitted"

    def test_a_member_who_does_not_decide_counts_no_approvals(self, team, owner, member):
        submitted_review(team, owner)
        Notification.objects.all().delete()
        _note(member, team, 1)
        assert nav_counts_of(member, _memberships(member)) == (0, 1)
        second = second_reviewer(team)
        assert nav_counts_of(second, _memberships(second)) == (1, 0)
