"""Calibration: outcome labels, suggested thresholds worked by hand, the page and adoption."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.models import AuditEvent
from apps.reviews.services.signoff import signoff_create
from apps.reviews.snapshots.services import snapshot_compute
from apps.teams import calibration
from apps.teams.calibration import (
    BAD,
    GOOD,
    UNKNOWN,
    figures,
    nice_between,
    outcome,
    suggest,
    suggestions,
)
from apps.teams.calibration import history as calibration_history
from tests.factories import make_benchmark
from tests.teams.helpers import approve, moving_review, submit

T0 = datetime(2026, 1, 1, tzinfo=UTC)
AFTER = T0 + timedelta(days=3)
BEFORE = T0 - timedelta(days=3)


def run(kind="single", e2e=10.0, offer="7", at=AFTER, reruns=0, recovery="resume"):
    return {"kind": kind, "offer_id": int(offer), "e2e_hours": e2e, "recorded_at": at,
            "failure_reruns": reruns, "recovery": recovery, "succeeded": None}


def pilot_record(succeeded, at=AFTER):
    return {"kind": "pilot_migration", "offer_id": None, "e2e_hours": 0, "recorded_at": at,
            "failure_reruns": 0, "recovery": "resume", "succeeded": succeeded}


def label(state="approved", records=(), planned=10.0):
    return outcome(review_state=state, reference_time=T0, chosen_offer="7",
                   planned_hours=planned, records=list(records))


class OutcomeTests:
    def test_a_rejected_review_is_bad(self):
        assert label("rejected") == (BAD, ["rejected"])

    def test_a_failed_pilot_is_bad_even_when_approved(self):
        assert label(records=[pilot_record(True), pilot_record(False)]) == (BAD, ["pilot_failed"])

    def test_a_run_over_1_2_times_the_plan_is_bad(self):
        assert label(records=[run(e2e=12.5)]) == (BAD, ["slower"])
        assert label(records=[run(e2e=12.0)]) == (GOOD, ["on_plan"])

    def test_full_reruns_after_failures_are_bad(self):
        assert label(records=[run(e2e=9, reruns=2, recovery="full_rerun")])[0] == BAD
        assert label(records=[run(e2e=9, reruns=2, recovery="resume")]) == (GOOD, ["on_plan"])

    def test_a_successful_pilot_or_a_faster_multi_run_is_good_when_approved(self):
        assert label(records=[pilot_record(True)]) == (GOOD, ["pilot_succeeded"])
        records = [run("single", 20.0, at=BEFORE), run("multi", 8.0)]
        assert label(records=records, planned=None) == (GOOD, ["multi_faster"])

    def test_runs_before_the_decision_or_on_other_offers_do_not_count(self):
        assert label(records=[run(e2e=50, at=BEFORE)])[0] == UNKNOWN
        assert label(records=[run(e2e=50, offer="8")])[0] == UNKNOWN

    def test_success_without_approval_stays_unknown(self):
        assert label("submitted", records=[pilot_record(True)]) == (UNKNOWN, ["pilot_succeeded"])
        assert label("draft") == (UNKNOWN, ["no_evidence"])


class NiceValueTests:
    @pytest.mark.parametrize(
        ("lo", "hi", "expected"),
        [(0.18, 0.31, 0.25), (0.12, 0.16, 0.14), (0.25, 0.30, 0.28), (90, 200, 150),
         (0.1234, 0.1236, 0.1235), (0, 0.1, 0.05)],
    )
    def test_it_rounds_the_midpoint_to_two_digits_inside_the_gap(self, lo, hi, expected):
        value = nice_between(lo, hi)
        assert value == pytest.approx(expected)
        assert lo <= value < hi


def pairs(good, bad):
    return [(v, GOOD) for v in good] + [(v, BAD) for v in bad]


class SuggestionTests:
    def test_a_clean_split_is_suggested_at_its_rounded_midpoint(self):
        # 4 good at or below 0.12, 3 bad from 0.16; the current 0.20 misses the bad 0.16.
        s = suggest(pairs([0.05, 0.08, 0.10, 0.12], [0.16, 0.31, 0.35]), 0.20)
        assert (s.status, s.value, s.correct, s.current_correct) == ("suggest", 0.14, 7, 6)
        assert (s.lo, s.hi, s.bad_above, s.good_below) == (0.12, 0.16, 3, 4)
        text = suggestions.reasoning(s, measure="network cost share", current=0.20)
        assert text == (
            "Of 7 labelled tasks, the network cost share of all 3 bad ones was 0.16 or more; "
            "the 4 good ones had at most 0.12 → suggest 0.14 (the current 0.2 gets 6 of 7 right)."
        )

    def test_an_imperfect_split_counts_what_it_gets_right(self):
        # Sorted: 0.05b 0.10g 0.12g 0.15g 0.25g 0.30b 0.40b. A threshold in [0.25, 0.30) gets
        # 6 of 7 right (all but the bad 0.05); the current 0.5 gets only the 4 good ones.
        s = suggest(pairs([0.10, 0.12, 0.15, 0.25], [0.05, 0.30, 0.40]), 0.5)
        assert (s.status, s.value, s.correct, s.current_correct) == ("suggest", 0.28, 6, 4)
        assert (s.bad_above, s.good_below) == (2, 4)
        text = suggestions.reasoning(s, measure="network cost share", current=0.5)
        assert text == (
            "Of 7 labelled tasks, 2 of 3 bad ones lie above 0.28 and 4 of 4 good ones at or "
            "below it: 6 right, against 4 with the current 0.5 → suggest 0.28."
        )

    @pytest.mark.parametrize(("current", "expected"), [(0.9, 0.35), (0.0, 0.15)])
    def test_ties_go_to_the_gap_nearest_the_current_value(self, current, expected):
        # good 0.05 0.10 0.30, bad 0.20 0.40: [0.10, 0.20) and [0.30, 0.40) both get 4 of 5.
        s = suggest(pairs([0.05, 0.10, 0.30], [0.20, 0.40]), current)
        assert (s.status, s.value, s.correct) == ("suggest", expected, 4)

    def test_a_current_value_as_good_as_the_best_is_kept(self):
        s = suggest(pairs([0.05, 0.10, 0.30], [0.20, 0.40]), 0.35)
        assert (s.status, s.value, s.current_correct) == ("keep", None, 4)
        assert "keep it" in suggestions.reasoning(s, measure="share", current=0.35)

    def test_with_fewer_than_five_labelled_tasks_it_says_how_many_more(self):
        s = suggest(pairs([0.1, 0.2], [0.3]) + [(0.5, UNKNOWN), (None, BAD)], 0.2)
        assert (s.status, s.labelled, s.needed) == ("too_few", 3, 2)
        assert suggestions.reasoning(s, measure="share", current=0.2) == (
            "Needs 2 more evaluated tasks with an outcome (3 of 5 so far)."
        )
        one = suggest(pairs([0.1, 0.2], [0.3, 0.4]), 0.2)
        assert suggestions.reasoning(one, measure="share", current=0.2).startswith(
            "Needs 1 more evaluated task with an outcome"
        )

    def test_no_suggestion_when_all_outcomes_agree(self):
        s = suggest(pairs([0.1, 0.2, 0.3, 0.4, 0.5], []), 0.2)
        assert s.status == "one_sided"
        assert "turned out good" in suggestions.reasoning(s, measure="share", current=0.2)

    def test_no_suggestion_when_bad_outcomes_are_not_the_high_ones(self):
        s = suggest(pairs([0.3, 0.4, 0.5], [0.1, 0.12]), 0.2)
        assert s.status == "no_separation"
        assert s.value is None
        assert "No suggestion" in suggestions.reasoning(s, measure="share", current=0.2)


class FigureTests:
    def test_the_strip_chart_draws_points_and_both_lines(self):
        figure = figures.strip_figure(
            [(0.1, GOOD, "a"), (0.3, BAD, "b"), (0.2, UNKNOWN, "c")],
            axis="share", current=0.2, suggested=0.25,
        )
        assert [t["name"] for t in figure["data"]] == ["bad", "unknown", "good"]
        assert figure["data"][0]["x"] == [0.3] and figure["data"][0]["text"] == ["b"]
        lines = [(s["x0"], s["line"]["dash"]) for s in figure["layout"]["shapes"]]
        assert lines == [(0.2, "solid"), (0.25, "dash")]
        json.dumps(figure, allow_nan=False)  # plain JSON for json_script

    def test_m3_counts_tasks_by_segments_over_budget(self):
        def point(lab, over):
            return calibration.TaskPoint(1, "t", 1, "r", "approved", lab, [], over_budget=over)

        figure = figures.over_budget_figure(
            [point(GOOD, []), point(BAD, ["queue"]), point(BAD, ["queue", "transfer"])]
        )
        assert {t["name"]: t["y"] for t in figure["data"]} == {
            "good": [1, 0, 0, 0], "bad": [0, 1, 1, 0]
        }


# The page, on real reviews. Network cost share = 15 p / (200 + 15 p) for price p per GB.
SHARES = {1.0: 0.069767, 2.0: 0.130435, 3.0: 0.183673, 4.0: 0.230769, 6.0: 0.310345,
          8.0: 0.375}


def history(team, owner, reviewer, plan):
    """Reviews with outcomes: `plan` maps price per GB to good / bad-pilot / rejected / draft."""
    for price, fate in plan.items():
        title = f"Plan at {price:g} per GB"
        if fate == "draft":
            snapshot_compute(review_id=moving_review(team, owner, price_per_gb=price,
                                                     title=title).pk)
            continue
        review = moving_review(team, owner, price_per_gb=price, ready=True, title=title)
        if fate == "rejected":
            review = submit(review)
            signoff_create(review=review, reviewer=reviewer, decision="reject",
                           comment="Too expensive.", snapshot_id=review.snapshots.first().pk)
            continue
        approve(review, reviewer)
        make_benchmark(team, review.task, kind="pilot_migration", tier="cross_hub",
                       succeeded=(fate == "good"), e2e_hours=0, compute_hours=0)


@pytest.mark.django_db
class CalibrationPageTests:
    PLAN = {1.0: "good", 2.0: "good", 3.0: "bad", 4.0: "rejected", 6.0: "bad", 8.0: "rejected",
            5.0: "draft"}

    def test_it_labels_each_task_and_suggests_a_share(self, client, team, owner, reviewer):
        history(team, owner, reviewer, self.PLAN)
        overview = calibration_history.calibration_overview(team=team)
        points = {round(p.network_cost_share, 6): p.label for p in overview["points"]}
        assert points == {SHARES[1.0]: GOOD, SHARES[2.0]: GOOD, SHARES[3.0]: BAD,
                          SHARES[4.0]: BAD, SHARES[6.0]: BAD, SHARES[8.0]: BAD,
                          round(75 / 275, 6): UNKNOWN}
        m4 = next(i for i in overview["indicators"] if i["code"] == "M4")
        # Good at most 0.1304, bad from 0.1837: midpoint 0.157 → 0.16; the current 0.20
        # calls the bad 0.1837 good (5 of 6 right).
        assert (m4["suggestion"].status, m4["suggestion"].value) == ("suggest", 0.16)
        assert m4["suggestion"].current_correct == 5
        assert "all 4 bad ones was 0.1837 or more; the 2 good ones had at most 0.1304" in (
            m4["reasoning"]
        )
        m1 = next(i for i in overview["indicators"] if i["code"] == "M1")
        assert m1["suggestion"].status == "no_separation"  # every task moves 10 GB/h
        m3 = next(i for i in overview["indicators"] if i["code"] == "M3")
        assert m3["suggestion"] is None and "no team threshold" in m3["reasoning"]

        client.force_login(owner)
        html = client.get(reverse("teams:calibration")).content.decode()
        assert 'data-plotly="calibration-m4"' in html
        assert '<script id="calibration-m4" type="application/json">' in html
        assert "vendor/plotly-basic-4.1.1.min.js" in html  # fetched by app.js when drawn
        assert "Adopt 0.16" in html
        assert "a pilot migration failed" in html and "review rejected" in html

    def test_an_owner_adopts_the_suggestion_in_one_click(self, client, team, owner, reviewer):
        history(team, owner, reviewer, self.PLAN)
        client.force_login(owner)
        response = client.post(
            reverse("teams:calibration_adopt"), {"key": "network_cost_share", "value": "0.16"}
        )
        assert response.status_code == 302
        team.refresh_from_db()
        assert team.thresholds == {"network_cost_share": 0.16}
        event = AuditEvent.objects.get(action="team.threshold_adopted_from_calibration")
        assert (event.actor, event.target, event.changes) == (
            owner, "network_cost_share", {"network_cost_share": [0.2, 0.16]}
        )
        page = client.get(reverse("teams:calibration")).content.decode()
        assert "Adopted 0.16" in page
        # Now the current threshold is the best: keep it.
        assert "no other value does better, so keep it" in page
        settings = client.get(reverse("teams:settings")).content.decode()
        assert "from calibration" in settings

    def test_a_reviewer_reads_but_gets_no_adopt_button(self, client, team, owner, reviewer):
        history(team, owner, reviewer, self.PLAN)
        client.force_login(reviewer)
        html = client.get(reverse("teams:calibration")).content.decode()
        assert "suggest 0.16" in html
        assert "Adopt 0.16" not in html

    def test_an_adoption_breaking_a_rule_is_explained(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:calibration_adopt"), {"key": "data_compute_high", "value": "5"}
        )
        assert response.status_code == 409
        errors = re.search(r'id="adopt-errors">(.*?)</div>', response.content.decode(), re.S)
        assert "Not adopted: The data-heavy ratio (5) must be above the light ratio (10)." in (
            errors.group(1)
        )
        response = client.post(
            reverse("teams:calibration_adopt"), {"key": "headroom", "value": "0.5"}
        )
        assert response.status_code == 400
        team.refresh_from_db()
        assert team.thresholds == {}

    def test_too_little_history_says_how_many_more_tasks_it_needs(
        self, client, team, owner, reviewer
    ):
        history(team, owner, reviewer, {1.0: "good", 4.0: "rejected", 5.0: "draft"})
        client.force_login(owner)
        html = client.get(reverse("teams:calibration")).content.decode()
        assert "Needs 3 more evaluated tasks with an outcome" in html
        assert "Adopt" not in html

    def test_an_empty_team_gets_an_empty_state(self, client, team, owner):
        client.force_login(owner)
        html = client.get(reverse("teams:calibration")).content.decode()
        assert "No evaluated task yet" in html
        assert 'data-plotly="' not in html  # no chart (the body names the bundle)

    def test_the_query_count_does_not_grow_with_tasks(self, client, team, owner, reviewer):
        client.force_login(owner)
        history(team, owner, reviewer, {1.0: "good", 4.0: "rejected"})

        def count() -> int:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse("teams:calibration")).status_code == 200
            return len(queries)

        few = count()
        history(team, owner, reviewer, {2.0: "good", 3.0: "bad", 6.0: "rejected", 8.0: "good"})
        assert count() == few

    def test_another_teams_history_never_counts(self, client, team, other_team, owner,
                                                outsider, reviewer):
        history(team, owner, reviewer, self.PLAN)
        assert calibration_history.calibration_points(team=other_team) == []
        client.force_login(outsider)
        assert "No evaluated task yet" in client.get(reverse("teams:calibration")).content.decode()


@pytest.mark.django_db
class CalibrationDemoTests:
    def test_it_gives_alice_a_suggestion_and_bob_a_meaningful_dashboard(self, client, demo_world):
        """The whole demo, the calibration history included (its last step). A second load adds
        no profile, review, sign-off, record or snapshot: tests/teams/test_demo_world.py."""
        from apps.accounts.models import Team

        aurora = Team.objects.get(slug="aurora")
        overview = calibration_history.calibration_overview(team=aurora)
        assert overview["labelled"] >= 6
        by_code = {i["code"]: i for i in overview["indicators"]}
        assert (by_code["M4"]["suggestion"].status, by_code["M4"]["suggestion"].value) == (
            "suggest", 0.16
        )
        assert by_code["M1"]["suggestion"].status == "suggest"

        from django.contrib.auth import get_user_model

        client.force_login(get_user_model().objects.get(username="bob"))
        html = client.get(reverse("home")).content.decode()
        waiting = re.search(r'id="waiting">(.*?)</section>', html, re.S).group(1)
        assert "Nothing waits for your decision" not in waiting
        drafts = re.search(r'id="drafts">(.*?)</section>', html, re.S).group(1)
        assert "Speech transcription, spring batch" in drafts and 'data-rule="C"' in drafts
        news = re.search(r'id="notifications">(.*?)</section>', html, re.S).group(1)
        assert news.count("<li>") == 5  # the demo's decisions reached bob as notifications
        inbox = client.get(reverse("notifications:inbox")).content.decode()
        assert "“Speech transcription backlog: move to Shanghai H200” is approved (last approval by alice)." in inbox
