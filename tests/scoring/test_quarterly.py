"""The quarterly cost review (按季对账): figures by hand for a small team."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from apps.actuals.models import ActualCost
from apps.reviews.snapshots.services import snapshot_compute
from apps.scoring.models import QuarterlyCostReview
from apps.scoring.quarterly import quarter_of, review_figures, team_quarters
from apps.scoring.services.quarterly_review import quarterly_refresh
from apps.scoring.tasks import refresh_quarterly_task
from tests.factories import make_review
from tests.scoring.helpers import answer_all, approve, make_world

pytestmark = pytest.mark.django_db
NO_ACTUALS = {
    "compute_saved": 0.0, "transfer_fees": 0.0, "net": 0.0, "reviews_counted": 0,
    "planned_reviews": 0, "runs_counted": 0, "planned_compute": 0.0, "planned_transfer": 0.0,
    "actual_compute": 0.0, "actual_transfer": 0.0,
}

Q1 = datetime(2026, 2, 15, 12, tzinfo=UTC)
Q2 = datetime(2026, 5, 2, 9, tzinfo=UTC)


@pytest.fixture
def books(team, owner, reviewer):
    """Three approved reviews in two quarters, one draft, and another team's approved review.

    The local offer charges a 10 % scheduling fee: wait-local costs 320 compute + 32 scheduling
    and pays 5.00 to bring the 500 GB input home (0.01 per GB).
    - moved: chosen far site (192 compute, 0 scheduling, 10.45 transfer)
      → saved 352 − 192 = 160, extra fees 10.45 − 5 = 5.45, net 154.55
    - stayed: only the local offer → wait_local chosen → 0, 0
    - near (Q2): local and data-side offers → move_compute chosen (288 compute, 0.15 transfer)
      → saved 352 − 288 = 64, fees 0.15 − 5 = −4.85 (fees avoided), net 68.85
    """
    world = make_world(team, owner)
    type(world.local).objects.filter(pk=world.local.pk).update(scheduling_fee_pct=10)
    moved = snapshot_compute(review_id=world.review.pk)
    approve(world.review, reviewer, moved, Q1)

    stayed_review = make_review(team, owner, task=world.task, offers=[world.local])
    answer_all(stayed_review)
    stayed = snapshot_compute(review_id=stayed_review.pk)
    approve(stayed_review, reviewer, stayed, Q1)

    near_review = make_review(team, owner, task=world.task, offers=[world.local, world.near_data])
    answer_all(near_review)
    near = snapshot_compute(review_id=near_review.pk)
    approve(near_review, reviewer, near, Q2)

    draft = make_review(team, owner, task=world.task, offers=[world.remote, world.local])
    snapshot_compute(review_id=draft.pk)
    return {"world": world, "moved": moved, "stayed": stayed, "near": near}


class QuarterlyFiguresTests:
    def test_it_computes_each_review_by_hand(self, books):
        assert review_figures(books["moved"].output) == pytest.approx((160.0, 5.45))
        assert review_figures(books["stayed"].output) == (0.0, 0.0)
        assert review_figures(books["near"].output) == pytest.approx((64.0, -4.85))

    def test_it_sums_by_quarter_of_the_decision(self, books, team):
        quarters = team_quarters(team)
        assert list(quarters) == ["2026Q1", "2026Q2"]
        assert quarters["2026Q1"] == pytest.approx(
            {**NO_ACTUALS, "compute_saved": 160.0, "transfer_fees": 5.45, "net": 154.55,
             "reviews_counted": 2, "planned_reviews": 2}
        )
        assert quarters["2026Q2"] == pytest.approx(
            {**NO_ACTUALS, "compute_saved": 64.0, "transfer_fees": -4.85, "net": 68.85,
             "reviews_counted": 1, "planned_reviews": 1}
        )

    def test_it_counts_a_run_from_its_actuals_in_the_quarter_it_ran(self, books, team):
        # The moved review ran once in Q2, dearer than planned: compute 240 (planned 192) and
        # transfer 20 (planned 10.45). Against waiting locally (352 compute, 5 transfer):
        # saved 352 − 240 = 112, fees 20 − 5 = 15. It leaves Q1 (its plan no longer counts).
        ActualCost.objects.create(
            team=team, review=books["world"].review, period=date(2026, 5, 20), compute_cost=240,
            transfer_cost=20,
        )
        quarters = team_quarters(team)
        # Q1: only "stayed" (0, 0), from its plan.
        assert quarters["2026Q1"] == pytest.approx(
            {**NO_ACTUALS, "reviews_counted": 1, "planned_reviews": 1})
        # Q2: near (64, −4.85, planned) + the run (112, 15): 176, 10.15, net 165.85.
        assert quarters["2026Q2"] == pytest.approx({
            "compute_saved": 176.0, "transfer_fees": 10.15, "net": 165.85, "reviews_counted": 2,
            "planned_reviews": 1, "runs_counted": 1, "planned_compute": 192.0,
            "planned_transfer": 10.45, "actual_compute": 240.0, "actual_transfer": 20.0,
        })

    def test_it_uses_the_snapshot_the_review_was_approved_on(self, team, owner, reviewer):
        world = make_world(team, owner)
        signed = snapshot_compute(review_id=world.review.pk)
        world.task.compute_hours = 40  # a later snapshot with other figures
        world.task.save()
        later = snapshot_compute(review_id=world.review.pk)
        assert later.pk != signed.pk
        approve(world.review, reviewer, signed, Q1)
        assert team_quarters(team)["2026Q1"]["compute_saved"] == pytest.approx(128.0)

    def test_the_net_is_the_placement_total_saved(self, books):
        options = {o["kind"]: o for o in books["moved"].output["options"]}
        saved, fees = review_figures(books["moved"].output)
        assert saved - fees == pytest.approx(
            options["wait_local"]["total_cost"] - options["move_data"]["total_cost"]
        )

    def test_it_counts_a_move_without_a_local_option_as_fees_only(self):
        output = {
            "chosen": {"kind": "move_data", "site": "far", "offer": "3"},
            "options": [
                {"kind": "move_data", "site": "far", "offer": "3", "feasible": True,
                 "compute_cost": 100.0, "scheduling_cost": 0.0, "transfer_cost": 7.5,
                 "objective": 107.5},
            ],
        }
        assert review_figures(output) == (0.0, 7.5)
        assert review_figures({"chosen": None, "options": []}) is None

    def test_it_names_quarters(self):
        assert quarter_of(datetime(2026, 1, 1, tzinfo=UTC)) == "2026Q1"
        assert quarter_of(datetime(2026, 12, 31, 23, tzinfo=UTC)) == "2026Q4"
        assert quarter_of(datetime(2026, 7, 1, tzinfo=UTC)) == "2026Q3"


class QuarterlyRefreshTests:
    def test_it_writes_one_row_per_quarter_and_drops_empty_quarters(self, books, team, other_team):
        QuarterlyCostReview.objects.create(team=team, quarter="2025Q4", net=99)
        assert refresh_quarterly_task.apply(args=[team.pk]).get() == 2
        rows = {r.quarter: r for r in QuarterlyCostReview.objects.filter(team=team)}
        assert set(rows) == {"2026Q1", "2026Q2"}
        assert rows["2026Q1"].net == pytest.approx(154.55)
        assert rows["2026Q1"].reviews_counted == 2
        assert not QuarterlyCostReview.objects.filter(team=other_team).exists()

    def test_it_is_idempotent_and_refreshes_every_team_from_beat(self, books, team):
        quarterly_refresh()
        quarterly_refresh()
        assert QuarterlyCostReview.objects.filter(team=team).count() == 2
