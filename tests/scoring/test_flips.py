"""What flips the decision (SPEC 6.3) on the web side: the review's evaluation block tells the
nearest flips in the user's language, or says that nothing flips; the snapshot diff says when an
input moved past its flip point between two snapshots."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from apps.catalog.models import Offer
from apps.reviews.snapshots.flips import crossed_flips, nearest_flips
from apps.reviews.snapshots.services import snapshot_compute
from tests.factories import make_review
from tests.scoring.helpers import answer_all

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _evaluation(client, review, lang: str) -> str:
    url = reverse("scoring:review_evaluation", args=[review.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang, **HX).content.decode()


class NearestFlipsTests:
    def test_the_review_evaluation_tells_the_nearest_flips_in_english_and_chinese(
        self, client, owner, world
    ):
        snapshot = snapshot_compute(review_id=world.review.pk)
        nearest = nearest_flips(snapshot.output)
        # By hand: the far L40S (202.45) is chosen; the data-side A100 (288.15) overtakes when
        # its price drops by (288.15 − 202.45) / (8 GPUs × 20 h) = 0.535625: at 1.264375.
        assert [e["input"] for e in nearest] == [
            "offers[1].price", "offers[2].price", "links[0].price_per_gb"
        ]
        assert nearest[0]["flips_at"] == pytest.approx(1.264375)
        client.force_login(owner)
        english = _evaluation(client, world.review, "en")
        assert "What flips the decision" in english
        assert "If the price of Data-side A100" in nearest[0]["message"]
        positions = [english.index(escape(e["message"])) for e in nearest]
        assert positions == sorted(positions)  # nearest first
        chinese = _evaluation(client, world.review, "zh-hans")
        assert "什么会改变选择" in chinese
        for entry in nearest:
            assert escape(entry["message_zh"]) in chinese
            assert escape(entry["message"]) not in chinese

    def test_with_one_feasible_option_it_says_nothing_flips(self, client, owner, team, world):
        review = make_review(team, owner, task=world.task, offers=[world.remote])
        answer_all(review)
        snapshot = snapshot_compute(review_id=review.pk)
        assert snapshot.output["runner_up"] is None and snapshot.output["sensitivity"] == []
        client.force_login(owner)
        html = _evaluation(client, review, "en")
        assert 'data-flips="none"' in html
        assert "there is no second feasible option to switch to" in html

    def test_with_every_flip_out_of_range_it_says_the_choice_holds(self):
        output = {
            "runner_up": {"kind": "wait_local", "site": "bj-a", "offer": "1"},
            "sensitivity": [
                {"input": "task.delay_cost_per_hour", "current": 5.0, "flips_at": None,
                 "to": None, "rank": None, "message": None, "message_zh": None},
            ],
        }
        with translation.override("en"):
            html = render_to_string("scoring/_flips.html", {"snapshot": {"output": output}})
        assert "the choice holds" in html
        with translation.override("zh-hans"):
            html = render_to_string("scoring/_flips.html", {"snapshot": {"output": output}})
        assert "选择稳固" in html

    def test_a_snapshot_from_before_engine_2_1_shows_no_block(self):
        html = render_to_string("scoring/_flips.html", {"snapshot": {"output": {"options": []}}})
        assert html.strip() == ""


class CrossedFlipTests:
    def test_the_compare_view_reports_a_price_that_crossed_its_flip_point(
        self, client, owner, world
    ):
        older = snapshot_compute(review_id=world.review.pk)
        # The data-side A100's price flips the decision at 1.264375 (above); 1.80 → 1.20.
        Offer.objects.filter(pk=world.near_data.pk).update(price=1.2)
        newer = snapshot_compute(review_id=world.review.pk)
        assert newer.output["chosen"]["offer"] == str(world.near_data.pk)
        client.force_login(owner)
        response = client.get(reverse("scoring:compare"), {"a": older.pk, "b": newer.pk})
        crossed = response.context["comparison"]["crossed_flips"]
        assert [(c["input"], c["a"], c["b"]) for c in crossed] == [("offers[1].price", 1.8, 1.2)]
        html = response.content.decode()
        assert "The price of Data-side A100 crossed its flip point 1.26: 1.80 → 1.20." in html
        zh = client.get(
            reverse("scoring:compare"), {"a": older.pk, "b": newer.pk},
            HTTP_ACCEPT_LANGUAGE="zh-hans",
        ).content.decode()
        assert "Data-side A100 的价格越过了翻转点 1.26：1.80 → 1.20。" in zh

    def test_a_move_that_stays_on_its_side_is_not_reported(self, client, owner, world):
        older = snapshot_compute(review_id=world.review.pk)
        Offer.objects.filter(pk=world.near_data.pk).update(price=1.5)  # still above 1.264375
        newer = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        response = client.get(reverse("scoring:compare"), {"a": older.pk, "b": newer.pk})
        assert response.context["comparison"]["crossed_flips"] == []
        assert "Flip points crossed" not in response.content.decode()

    def test_a_queue_that_crossed_is_found_by_site_code_whatever_its_position(self):
        # The example of the issue: the bj-a queue flips at 4.2 h; it went from 5.0 to 3.9 h,
        # and a new site (aa-x) took bj-a's place in the list.
        entry = {"input": "sites[0].queue_hours", "current": 5.0, "flips_at": 4.2}
        input_a = {"sites": [{"code": "bj-a", "queue_hours": 5.0}]}
        input_b = {"sites": [{"code": "aa-x", "queue_hours": 0.0},
                             {"code": "bj-a", "queue_hours": 3.9}]}
        found = crossed_flips(input_a, {"sensitivity": [entry]}, input_b, {"sensitivity": []})
        assert found == [{"input": "sites[0].queue_hours", "kind": "queue", "name": "bj-a",
                          "flips_at": 4.2, "a": 5.0, "b": 3.9}]

    def test_a_flip_point_of_the_newer_snapshot_counts_too(self):
        # Not in the older output (engine 2.0), but the newer one's flip point lies between.
        entry = {"input": "links[0].bandwidth_gbps", "current": 2.0, "flips_at": 3.0}
        input_a = {"links": [{"from": "a", "to": "b", "bandwidth_gbps": 10.0}]}
        input_b = {"links": [{"from": "a", "to": "b", "bandwidth_gbps": 2.0}]}
        found = crossed_flips(input_a, {}, input_b, {"sensitivity": [entry]})
        assert [(f["kind"], f["name"], f["a"], f["b"]) for f in found] == [
            ("bandwidth", "a–b", 10.0, 2.0)
        ]
