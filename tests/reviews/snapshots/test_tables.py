"""The comparison rows (SPEC 5, T, J3) and the chart figures built from them."""

from __future__ import annotations

import pytest
from django.utils import translation

import engine
from apps.catalog.models import NetworkLink
from apps.reviews.snapshots import chart_labels, charts
from apps.reviews.snapshots.services import build_review_input
from apps.reviews.snapshots.tables import COLUMN_KEYS, comparison_rows
from tests.scoring.helpers import make_world

pytestmark = pytest.mark.django_db


def _rows(world):
    data = build_review_input(world.review)
    output = engine.evaluate(data)
    return data, output, comparison_rows(data, output)


class ComparisonRowsTests:
    def test_it_has_every_column_and_totals_that_add_up(self, team, owner):
        world = make_world(team, owner)
        _, _, rows = _rows(world)
        for row in rows:
            assert set(COLUMN_KEYS) <= set(row)
        local = next(r for r in rows if r["placement"] == "wait_local")
        # SPEC 7.2: the runs hold 1 × 8 × 20 + 2 × 8 × 12 = 352 GPU-hours, short of the 1,000
        # that make their failures a rate, and the team states none: rerun cost 0 (2.2: the
        # records' 1 rerun × 1 h × 8 × 2.0 = 16); total = compute + scheduling + transfer.
        assert local["rerun_cost"] == 0.0
        assert local["total_cost"] == pytest.approx(320 + 0 + 5)
        assert local["placement_cost"] == pytest.approx(325.0)
        assert local["unit_price"] == 2.0 and local["configuration"] == "1 × 8 GPU"
        assert local["offer_label"] == "Acme Cloud · Local H100"

    def test_it_marks_the_chosen_row_and_ranks(self, team, owner):
        world = make_world(team, owner)
        _, _, rows = _rows(world)
        chosen = [r for r in rows if r["chosen"]]
        assert len(chosen) == 1 and chosen[0]["offer"] == str(world.remote.pk)
        assert (chosen[0]["rank_unit"], chosen[0]["rank_total"]) == (1, 1)
        assert all(r["j3"] == "" for r in rows)

    def test_it_marks_both_sides_of_j3(self, team, owner):
        world = make_world(team, owner)
        # Moving 500 GB to the far site now costs 250: cheapest per GPU-hour, not in total.
        NetworkLink.objects.filter(from_site=world.data, to_site=world.far).update(
            price_per_gb=0.5
        )
        _, output, rows = _rows(world)
        assert any(f["rule"] == "J3" for f in output["findings"])
        marks = {r["offer"]: r["j3"] for r in rows if r["row_type"] == "option"}
        assert marks[str(world.remote.pk)] == "unit"
        assert marks[str(world.near_data.pk)] == "total"
        remote = next(r for r in rows if r["offer"] == str(world.remote.pk))
        assert (remote["rank_unit"], remote["rank_total"]) == (1, 3)

    def test_it_adds_benchmark_rows_with_speedup_and_verdict(self, team, owner):
        world = make_world(team, owner)
        _, _, rows = _rows(world)
        single, multi = [r for r in rows if r["row_type"] == "benchmark"]
        assert (single["placement"], single["verdict"], single["speedup"]) == (
            "single", "baseline", 1.0
        )
        assert (multi["placement"], multi["verdict"]) == ("multi", "net_gain")
        assert multi["speedup"] == pytest.approx(20 / 12, rel=1e-5)
        assert multi["configuration"] == "2 × 8 GPU" and multi["failure_reruns"] == 1
        assert single["pair"] is True and multi["pair"] is True
        # what the multi run's reruns cost it: 1 × 1 h × 16 GPUs × 2.0
        assert multi["rerun_cost"] == pytest.approx(32.0)

    def test_it_mutes_infeasible_options_with_their_reason(self, team, owner):
        world = make_world(team, owner)
        NetworkLink.objects.filter(from_site=world.data, to_site=world.far).delete()
        _, _, rows = _rows(world)
        remote = next(r for r in rows if r["offer"] == str(world.remote.pk))
        assert remote["feasible"] is False
        assert remote["verdict"] == "infeasible" and remote["reason"] == "no_link"


class ChartTests:
    def test_it_builds_the_four_snapshot_figures(self, team, owner):
        world = make_world(team, owner)
        data, output, rows = _rows(world)
        figures = charts.build_charts(rows, output, data)
        assert list(figures) == ["hours", "cost", "objective", "scaling", "indicators"]
        hours = figures["hours"]
        assert [t["name"] for t in hours["data"]] == ["@transfer", "@queue", "@compute"]
        assert hours["layout"]["barmode"] == "stack"
        assert hours["layout"]["legend"]["orientation"] == "h"
        cost = figures["cost"]
        assert [t["name"] for t in cost["data"]] == ["@compute", "@scheduling", "@transfer",
                                                     "@rerun"]
        # SPEC 7.2: 320 + 0 + 5 + rerun cost 0 (2.2: + 16 from the records)
        assert sum(t["y"][0] for t in cost["data"]) == pytest.approx(325.0)
        scaling = figures["scaling"]
        assert scaling["data"][0]["x"] == [8, 16] and scaling["data"][0]["y"] == [1.0, 2.0]

    def test_it_shows_indicators_as_shares_of_their_thresholds(self, team, owner):
        world = make_world(team, owner)
        data, output, rows = _rows(world)
        bars = charts.indicators(output, data)["data"][0]
        values = dict(zip(bars["x"], bars["y"], strict=True))
        # M1: 500 GB / 20 h = 25 GB/h against 100; M4: 10.45 / 202.45 against 0.20.
        assert values["@M1"] == pytest.approx(0.25)
        assert values["@M4"] == pytest.approx(10.45 / 202.45 / 0.2, rel=1e-4)
        assert "@M3" not in values  # no latency budget recorded

    def test_it_translates_labels_at_render_time(self, team, owner):
        world = make_world(team, owner)
        data, output, rows = _rows(world)
        figure = charts.hours_by_segment(rows)
        with translation.override("zh-hans"):
            zh = chart_labels.localize_figure(figure)
        with translation.override("en"):
            en = chart_labels.localize_figure(figure)
        assert en["data"][0]["name"] == "Transfer"
        assert zh["data"][0]["name"] == "传输"
        assert en["data"][0]["x"][0] == "Wait locally<br>Local H100"
        assert zh["data"][0]["x"][2] == "数据迁移 ✓<br>Far L40S"
        assert zh["title"] == "各方案分段耗时"

    def test_it_plots_the_task_history_oldest_first(self, team, owner):
        from datetime import UTC, datetime

        points = [
            (datetime(2026, 1, 1, tzinfo=UTC), 300.0, 30.0),
            (datetime(2026, 2, 1, tzinfo=UTC), None, None),  # nothing chosen: left out
            (datetime(2026, 3, 1, tzinfo=UTC), 200.0, 20.0),
        ]
        figure = charts.task_history(points)
        assert figure["data"][0]["y"] == [300.0, 200.0]
        assert figure["data"][1]["yaxis"] == "y2"
        assert charts.task_history([]) is None

    def test_the_task_history_draws_cost_and_hours_in_two_panels(self, team, owner):
        """Issue 39: two scales over one plot read as one line; two panels on one time axis."""
        from datetime import UTC, datetime

        figure = charts.task_history([(datetime(2026, 1, 1, tzinfo=UTC), 300.0, 30.0)])
        cost, hours = figure["layout"]["yaxis"], figure["layout"]["yaxis2"]
        assert "overlaying" not in hours
        # Cost above hours, the panels apart.
        assert cost["domain"][0] > hours["domain"][1]
        assert figure["data"][1]["xaxis"] == "x2"
        assert figure["layout"]["xaxis"]["matches"] == "x2"


class StagedPlanRowTests:
    """SPEC 6.4 (engine 2.2) in the table and the charts: a staged plan's preprocessing."""

    def test_a_staged_plan_shows_its_preprocessing_and_adds_up(self, team, owner):
        world = make_world(team, owner)
        data = build_review_input(world.review)
        # 50 GB of features instead of 500 GB of raw input, preprocessed in 1 h at 4 per hour.
        data["task"].update(processed_gb=50, preprocess_hours=1, preprocess_cost_per_hour=4)
        output = engine.evaluate(data)
        rows = comparison_rows(data, output)
        far = next(r for r in rows if r["row_type"] == "option" and r["placement"] == "move_data")
        # Raw at far: 192 compute + 10 input + 0.3 image + 0.15 results = 202.45. Staged: the input
        # leg carries 50 × 0.02 = 1.0 instead of 10, plus 1 h × 4 = 4 of preprocessing:
        # 192 + 1.0 + 0.3 + 0.15 + 4 = 197.45 < 202.45, so staged (and still chosen).
        assert far["plan"] == "staged" and far["chosen"]
        assert far["preprocess_cost"] == pytest.approx(4.0)
        assert far["preprocess_hours"] == pytest.approx(1.0)
        assert far["transfer_cost"] == pytest.approx(1.45)
        parts = ("compute_cost", "scheduling_cost", "transfer_cost", "preemption_cost",
                 "preprocess_cost", "rerun_cost")
        assert sum(far[k] or 0 for k in parts) == pytest.approx(far["total_cost"])
        assert far["total_cost"] == pytest.approx(197.45)
        # The charts draw the preprocessing as its own segment and cost part.
        hours = charts.hours_by_segment(rows)
        assert [t["name"] for t in hours["data"]][0] == "@preprocess"
        cost = charts.cost_by_component(rows)
        assert "@preprocess" in [t["name"] for t in cost["data"]]
        # The CSV keys keep their positions: the staged columns come last.
        # Appended after 2.1's columns (3.1's follow them).
        assert COLUMN_KEYS[-5:-2] == ["plan", "preprocess_hours", "preprocess_cost"]
