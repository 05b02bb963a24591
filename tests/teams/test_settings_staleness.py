"""A threshold or tier change re-evaluates open reviews; approved ones keep what was signed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.selectors import review_evaluation
from apps.reviews.snapshots.services import current_snapshot
from apps.teams import services
from tests.factories import make_benchmark
from tests.teams.helpers import approve, moving_review, submit

pytestmark = pytest.mark.django_db


def rules(snapshot) -> set[str]:
    return {f["rule"] for f in snapshot.output["findings"]}


@pytest.fixture
def evaluate(django_capture_on_commit_callbacks):
    """What the review's page shows now: the job runs on commit (eager Celery in tests)."""

    def run(review):
        review.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            review_evaluation(review)
        return review_evaluation(review, request_if_missing=False)["snapshot"]

    return run


class ThresholdStalenessTests:
    def test_a_draft_re_evaluates_with_the_new_share_while_an_approved_review_keeps_its_figures(
        self, client, team, owner, reviewer, evaluate
    ):
        draft = moving_review(team, owner)  # network cost share 60 / 260 ≈ 0.231
        cheap = moving_review(team, owner, price_per_gb=2.0)  # 30 / 230 ≈ 0.130
        signed = approve(moving_review(team, owner, ready=True), reviewer)
        before_draft = evaluate(draft)
        before_cheap = evaluate(cheap)
        signed_snapshot = evaluate(signed)
        assert before_draft.output["metrics"]["network_cost_share"] == pytest.approx(0.230769)
        assert "M4" in rules(before_draft)
        assert "M4" not in rules(before_cheap)
        assert "M4" in rules(signed_snapshot)
        signed_figures = (
            signed_snapshot.pk, signed_snapshot.chosen_total_cost, signed_snapshot.output
        )

        # The owner raises the M4 threshold on the settings page.
        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"), {"key": "network_cost_share", "value": "0.25"}
        )
        assert response.status_code == 302

        # The draft's snapshot no longer matches its inputs: its next view recomputes.
        draft.refresh_from_db()
        assert current_snapshot(draft) is None
        after = evaluate(draft)
        assert after.pk != before_draft.pk
        assert after.input["thresholds"] == {"network_cost_share": 0.25}
        assert after.settings_generation == 2
        assert "M4" not in rules(after)  # 0.231 is under 0.25 now

        # The approved review: same snapshot, same figures, nothing recomputed.
        count = EvaluationSnapshot.objects.filter(review=signed).count()
        again = evaluate(signed)
        assert (again.pk, again.chosen_total_cost, again.output) == signed_figures
        assert "M4" in rules(again)
        assert "thresholds" not in again.input
        assert EvaluationSnapshot.objects.filter(review=signed).count() == count

        # Lowering it under 0.13 makes the cheaper draft warn in turn.
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.1)
        assert "M4" in rules(evaluate(cheap))
        assert "M4" in rules(evaluate(draft))
        assert evaluate(signed).pk == signed_snapshot.pk

    def test_a_submitted_review_goes_stale_too(self, team, owner, evaluate):
        review = submit(moving_review(team, owner, ready=True))
        assert review.state == "submitted"
        first = evaluate(review)
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.5)
        review.refresh_from_db()
        assert current_snapshot(review) is None
        assert evaluate(review).pk != first.pk


class TierStalenessTests:
    def test_validating_a_tier_clears_h1_on_drafts_but_not_on_signed_reviews(
        self, team, owner, reviewer, evaluate
    ):
        draft = moving_review(team, owner)  # chosen option crosses hubs
        signed = approve(moving_review(team, owner, ready=True), reviewer)
        assert "H1" in rules(evaluate(draft))
        signed_snapshot = evaluate(signed)
        assert "H1" in rules(signed_snapshot)
        # Rollout order (SPEC 6.1): every tier below cross hub first, each after two pilots.
        for tier in ("same_datacenter", "same_city", "cross_hub"):
            for _ in range(2):
                make_benchmark(team, draft.task, kind="pilot_migration", tier=tier,
                               succeeded=True, e2e_hours=0, compute_hours=0)
            services.team_tier_validate(team=team, actor=owner, tier=tier)
        after = evaluate(draft)
        assert "cross_hub" in after.input["task"]["team"]["validated_tiers"]
        assert "H1" not in rules(after)
        assert evaluate(signed).pk == signed_snapshot.pk
