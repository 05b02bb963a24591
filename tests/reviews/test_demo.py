"""The demo data: reviews in every state, idempotent (runs after the catalog and profiles).

Other demo modules add reviews of their own (history, calibration); these tests look at the
reviews of apps.reviews.demo by their titles.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from apps.accounts.models import Membership
from apps.reviews.demo import REVIEWS
from apps.reviews.models import AuditEvent, Review, SignOff
from apps.reviews.selectors import approvals_queue
from apps.scoring.services import current_snapshot

pytestmark = pytest.mark.django_db


def demo_reviews() -> dict[str, Review]:
    titles = {spec["title"]: spec["outcome"] for spec in REVIEWS}
    found = Review.objects.filter(title__in=titles).select_related("team", "author")
    return {titles[r.title] + ("@" + r.team.slug): r for r in found}


class DemoTests:
    def test_it_builds_reviews_in_every_state_once(self, django_user_model):
        call_command("load_demo", stdout=io.StringIO())
        counts = (Review.objects.count(), SignOff.objects.count(), AuditEvent.objects.count())
        reviews = demo_reviews()
        assert set(reviews) == {
            "draft@aurora",
            "submitted@aurora",
            "approved@aurora",
            "changes_requested@aurora",
            "rejected@aurora",
            "submitted@borealis",
        }
        assert all(key.split("@")[0] == r.state for key, r in reviews.items())
        approved = reviews["approved@aurora"]
        assert approved.approvals_required == 2
        assert sorted(approved.signoffs.values_list("reviewer__username", flat=True)) == [
            "bob",
            "erin",
        ]
        assert approved.frozen_input is not None
        draft = reviews["draft@aurora"]
        answered = sum(c.answers.filter(status="answered").count() for c in draft.candidates.all())
        assert 0 < answered < 6 * draft.candidates.count()
        assert reviews["submitted@aurora"].author.username == "alice"
        assert reviews["submitted@borealis"].author.username == "carol"
        users = {u.username: u for u in django_user_model.objects.all()}
        assert Membership.objects.get(user=users["erin"], team__slug="aurora").role == "reviewer"
        assert reviews["submitted@aurora"] in approvals_queue(users["bob"])
        assert reviews["submitted@borealis"] in approvals_queue(users["dave"])
        assert reviews["changes_requested@aurora"].signoffs.get().comment
        for review in reviews.values():
            assert current_snapshot(review) is not None, review.title

        call_command("load_demo", stdout=io.StringIO())
        after = (Review.objects.count(), SignOff.objects.count(), AuditEvent.objects.count())
        assert after == counts
