"""The demo data: reviews in every state, idempotent (runs after the catalog and profiles).

Other demo modules add reviews of their own (history, calibration); these tests look at the
reviews of apps.reviews.demo by their titles.
"""

from __future__ import annotations

import pytest

from apps.accounts.models import Membership
from apps.catalog.models import Offer
from apps.reviews.demo import REVIEWS, V2_REVIEWS, V21_REVIEWS
from apps.reviews.models import Review
from apps.reviews.selectors import approvals_queue
from apps.reviews.services.submission import review_submit
from apps.reviews.snapshots.services import current_snapshot
from apps.reviews.workflow import ReviewRefused

pytestmark = pytest.mark.django_db


def demo_reviews() -> dict[str, Review]:
    titles = {spec["title"]: spec["outcome"] for spec in REVIEWS}
    found = Review.objects.filter(title__in=titles).select_related("team", "author")
    return {titles[r.title] + ("@" + r.team.slug): r for r in found}


class DemoTests:
    def test_it_builds_reviews_in_every_state_once(self, django_user_model, demo_world):
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
        # A second load adds no review, sign-off or event: tests/teams/test_demo_world.py.

    def test_the_self_hosted_candidate_is_blocked_and_migration_has_its_own_line(self, demo_world):
        """SPEC 6.1 R1e/J4 and T on the Whisper draft of V2_REVIEWS (profile whisper-ft)."""
        review = Review.objects.get(team__slug="aurora", title=V2_REVIEWS[0]["title"])
        assert review.state == "draft"
        offers = {o.kind: str(o.pk) for o in Offer.objects.filter(team__slug="aurora")}
        ray, managed = offers["distributed"], offers["managed"]
        output = current_snapshot(review).output
        assert (output["platform"], output["delivery"]) == ("both", "managed")
        rules = {(f["rule"], f["severity"], f.get("offer")) for f in output["findings"]}
        assert ("R1e", "info", None) in rules
        assert ("J4", "block", ray) in rules
        assert not any(rule == "J4" and offer == managed for rule, _, offer in rules)
        # Team Aurora prices an engineer hour at 100 USD; whisper-ft runs 3 times a quarter, so
        # the effort is spread over 3 × 4 = 12 runs: 24 h × 100 ÷ 12 = 200 USD on the managed
        # platform (its Q5), 4 h × 100 ÷ 12 = 33.33 USD on the Ray pool (the default Q5).
        bill = {row["offer"]: row for row in output["bill"]}
        assert bill[managed]["migration_effort_hours"] == 24
        assert bill[managed]["migration_cost"] == pytest.approx(200)
        assert bill[ray]["migration_effort_hours"] == 4
        assert bill[ray]["migration_cost"] == pytest.approx(400 / 12, abs=1e-4)
        alice = review.author
        with pytest.raises(ReviewRefused) as refused:
            review_submit(review=review, actor=alice)
        # The one block that keeps it a draft: self-hosting the Ray layer.
        assert [(r["rule"], r["offer"]) for r in refused.value.reasons] == [("J4", ray)]

    def test_the_spot_review_chooses_spot_with_its_preemption_cost(self, client, demo_world):
        """SPEC 6.3 on the draft of V21_REVIEWS (profile lora-8b-spot)."""
        review = Review.objects.get(team__slug="aurora", title=V21_REVIEWS[0]["title"])
        assert review.state == "draft"
        spot = Offer.objects.get(team__slug="aurora", preemptible=True)
        on_demand = Offer.objects.get(team__slug="aurora", name="8× H100 SXM 80GB on demand")
        output = current_snapshot(review).output
        assert output["chosen"]["offer"] == str(spot.pk)
        bill = {row["offer"]: row for row in output["bill"]}
        # 1.5 preemptions a day × 6 h / 24 = 0.375, each losing half the 0.5 h checkpoint
        # interval at 8 GPUs × 2.49 = 19.92 an hour: 0.375 × 0.25 × 19.92 = 1.8675.
        assert bill[str(spot.pk)]["preemption_cost"] == pytest.approx(1.8675)
        assert bill[str(on_demand.pk)]["preemption_cost"] == 0
        # Both fit the 8 h compute budget with 48 GPU-hours / 8 h = 6 GPUs (one machine: no
        # scaling loss), which the candidates table says beside the planned machine.
        client.force_login(review.author)
        html = client.get(f"/reviews/{review.pk}/").content.decode()
        assert html.count('data-testid="gpus-for-budget"') == 2
        assert "budget: 6 GPUs · default scaling" in html
