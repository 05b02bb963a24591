"""Excluded options shown, not hidden (issue 15): each infeasible option's causes by rule, what
the exclusion cost against the chosen option, and the table, summary and charts that show them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

import engine
from apps.reviews.snapshots import charts
from apps.reviews.snapshots.exclusions import (
    annotate_rows,
    excluded_options,
    option_causes,
    rule_costs,
)
from apps.reviews.snapshots.services import build_review_input, snapshot_compute
from apps.reviews.snapshots.tables import comparison_rows
from tests.scoring.helpers import make_world

G1_FINDING = {
    "rule": "G1", "severity": "warn", "data": {"missing": ["env_simple"]},
    "message": "G1 text naming the environment", "message_zh": "G1 中文",
}


def _output(**extra):
    """A hand-built engine output: a chosen wait_local option at home and two excluded ones."""
    output = {
        "options": [
            {"kind": "wait_local", "site": "home", "offer": "1", "feasible": True,
             "reason": None, "reasons": []},
            {"kind": "move_compute", "site": "data", "offer": "2", "feasible": False,
             "reason": "not_eligible", "reasons": ["not_eligible"]},
            {"kind": "move_data", "site": "far", "offer": "3", "feasible": False,
             "reason": "pool_too_small", "reasons": ["pool_too_small", "not_eligible",
                                                     "no_link"]},
        ],
        "cross_domain": {"exclusions": ["X2"], "gates": {"portability": False,
                                                          "latency_tolerance": True,
                                                          "interruption": True}},
        "findings": [G1_FINDING, {"rule": "X2", "severity": "warn", "data": {},
                                  "message": "X2 text", "message_zh": "X2 中文"}],
        "runner_up": None,
    }
    output.update(extra)
    return output


def _row(placement, site, offer, *, feasible, chosen=False, cost, hours, objective):
    return {"row_type": "option", "placement": placement, "site": site, "offer": offer,
            "feasible": feasible, "chosen": chosen, "reason": None, "total_cost": cost,
            "placement_cost": cost, "total_hours": hours, "objective": objective}


ROWS = [
    # Delay cost 10 per hour: objective = cost + 10 × hours.
    _row("wait_local", "home", "1", feasible=True, chosen=True, cost=325.0, hours=31.0,
         objective=325.0 + 10 * 31.0),  # 635
    _row("move_compute", "data", "2", feasible=False, cost=288.0, hours=21.5,
         objective=288.0 + 10 * 21.5),  # 503
    _row("move_data", "far", "3", feasible=False, cost=400.0, hours=30.0,
         objective=400.0 + 10 * 30.0),  # 700
]


class CauseTests:
    def test_not_eligible_names_each_exclusion_and_failed_gate_with_its_message(self):
        causes = option_causes(_output()["options"][1], _output(), "en")
        # X2 (an exclusion) before G1 (a gate), each said by its finding.
        assert causes == [{"rule": "X2", "text": "X2 text"},
                          {"rule": "G1", "text": "G1 text naming the environment"}]
        assert option_causes(_output()["options"][1], _output(), "zh-hans")[1]["text"] == "G1 中文"

    def test_every_reason_maps_to_its_rule_in_order(self):
        causes = option_causes(_output()["options"][2], _output(), "en")
        assert [c["rule"] for c in causes] == ["K2", "X2", "G1", "P"]

    def test_a_snapshot_without_reasons_falls_back_to_the_first_reason(self):
        option = {"reason": "compliance_site"}
        assert [c["rule"] for c in option_causes(option, {}, "en")] == ["X4"]


class CostTests:
    def test_what_each_exclusion_cost_against_the_chosen_option(self):
        excluded = excluded_options(ROWS, _output(), {"task": {}}, "en")
        # Best objective first: move_compute 503, then move_data 700.
        assert [e["row"]["offer"] for e in excluded] == ["2", "3"]
        near, far = excluded
        # Chosen 635 − 503 = 132 saved by move_compute; 635 − 700 = −65: no saving.
        assert near["saving"] == pytest.approx(132.0)
        assert far["saving"] == pytest.approx(-65.0)
        # Bill and hours against the chosen: 288 − 325 = −37; 21.5 − 31 = −9.5.
        assert near["cost_delta"] == pytest.approx(-37.0)
        assert near["hours_delta"] == pytest.approx(-9.5)

    def test_rules_that_kept_a_better_option_out_are_costed(self):
        costs = rule_costs(excluded_options(ROWS, _output(), {"task": {}}, "en"))
        # Only move_compute beat the chosen one; both its rules cost 132.
        assert [(c["rule"], c["saving"]) for c in costs] == [("X2", 132.0), ("G1", 132.0)]

    def test_an_old_row_without_objective_is_recomputed_from_the_delay_cost(self):
        rows = [dict(r, objective=None) for r in ROWS]
        excluded = excluded_options(rows, _output(), {"task": {"delay_cost_per_hour": 10}}, "en")
        assert excluded[0]["objective"] == pytest.approx(288.0 + 10 * 21.5)

    def test_nothing_chosen_gives_no_saving_but_keeps_the_list(self):
        rows = [dict(r, chosen=False, feasible=False) for r in ROWS]
        excluded = excluded_options(rows, _output(), {"task": {}}, "en")
        assert len(excluded) == 3 and all(e["saving"] is None for e in excluded)
        assert rule_costs(excluded) == []

    def test_rows_carry_causes_and_the_runner_up(self):
        output = _output(runner_up={"kind": "move_data", "site": "far", "offer": "3"})
        rows = [dict(r) for r in ROWS]
        rows[2]["feasible"] = True
        annotated = annotate_rows(rows, excluded_options(rows, output, {}, "en"), output)
        assert annotated[1]["causes"][0]["rule"] == "X2" and annotated[1]["saving"] == 132.0
        assert annotated[2].get("runner_up") is True and "causes" not in annotated[0]


@pytest.mark.django_db
class PageTests:
    def test_a_g1_exclusion_is_shown_with_its_reason_and_cost(self, client, team, owner):
        world = make_world(team, owner, env_simple=False)
        snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        response = client.get(reverse("reviews:detail", args=[world.review.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        assert 'id="excluded-options"' in html
        # Both options away from home are in the table, greyed, with the G1 rule linked.
        assert html.count('class="is-infeasible') == 2
        assert 'data-method-rule="G1"' in html
        data = build_review_input(world.review)
        output = engine.evaluate(data)
        g1 = next(f for f in output["findings"] if f["rule"] == "G1")
        assert g1["message"] in html
        # What G1 cost. Waiting locally (chosen): 8 GPUs × 20 h × 2.0 = 320 + the input's
        # 500 GB × 0.01 = 5 → 325. Compute next to the data: 8 × 20 × 1.8 = 288 + the image's
        # 10 GB × 0.01 = 0.1 + the results' 5 GB × 0.01 = 0.05 → 288.15, saving 36.85. Moving the
        # data to far: 8 × 20 × 1.2 = 192 + 500 GB × 0.02 = 10 + 10 GB × 0.03 = 0.3 + 5 GB × 0.03
        # = 0.15 → 202.45, saving 122.55. No delay cost: the objective is the placement cost.
        assert "would have saved 36.85 USD on the objective" in html
        assert "would have saved 122.55 USD on the objective" in html
        assert "kept out 2 options better than the chosen one: up to 122.55 USD" in html

    def test_the_page_is_translated(self, client, team, owner):
        world = make_world(team, owner, env_simple=False)
        snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        with translation.override("zh-hans"):
            response = client.get(reverse("reviews:detail", args=[world.review.pk]),
                                  HTTP_ACCEPT_LANGUAGE="zh-hans")
        html = response.content.decode()
        data = build_review_input(world.review)
        g1 = next(f for f in engine.evaluate(data)["findings"] if f["rule"] == "G1")
        assert g1["message_zh"] in html


@pytest.mark.django_db
class ChartTests:
    def test_excluded_options_are_drawn_greyed(self, team, owner):
        world = make_world(team, owner, env_simple=False)
        data = build_review_input(world.review)
        output = engine.evaluate(data)
        rows = comparison_rows(data, output)
        figure = charts.cost_by_component(rows)
        bars = figure["data"][0]
        # Three options drawn; the chosen one opaque, the two excluded at EXCLUDED_OPACITY.
        assert len(bars["x"]) == 3
        assert sorted(bars["marker"]["opacity"]) == [charts.EXCLUDED_OPACITY] * 2 + [1]
        assert sum(1 for x in bars["x"] if " ✗" in x) == 2
        assert bars["customdata"].count("@excluded_hover") == 2

    def test_the_objective_chart_adds_up_to_each_objective(self, team, owner):
        world = make_world(team, owner, delay_cost_per_hour=10)
        data = build_review_input(world.review)
        output = engine.evaluate(data)
        rows = comparison_rows(data, output)
        figure = charts.objective_parts(rows)
        cost, delay = figure["data"]
        options = charts._chart_options(rows)
        for i, row in enumerate(options):
            # cost part + delay part = objective; the delay part = 10 per hour × hours.
            assert cost["y"][i] + delay["y"][i] == pytest.approx(row["objective"])
            assert delay["y"][i] == pytest.approx(10 * row["total_hours"])
