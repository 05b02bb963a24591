"""Engine 2.2 (SPEC 6.4): staged plans. Preprocess next to the data, ship the processed version,
reuse it across rounds (seed B §3).

Every expected figure is worked out by hand in the comment beside it. The world: the raw input
(5,000 GB) sits at `data`; offer F at `far` (move_data, 1.0 per GPU-hour), offer D at `data`
(move_compute, 3.0 per GPU-hour); 8 GPUs × 10 compute hours; no image, no results, no delay
cost. The data → far link: 20 Gbit/s, 0.02 per GB, cross hub (buffer 0.3), so a leg of G GB takes
G × 8 / (20 × 3600) × 1.3 hours and costs G × 0.02.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ENGINE_VERSION, EngineInputError, evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    approx,
    engine_inputs,
    findings_of,
    make_input,
    offer,
    option_of,
    staged_input,
    task,
)


class TestVersion:
    def test_it_is_3_1_0(self):
        assert ENGINE_VERSION == "3.1.0"
        assert evaluate(staged_input())["engine_version"] == "3.1.0"


class TestStagedBeatsRaw:
    def test_shipping_200_gb_of_features_beats_5000_gb_of_raw_data(self):
        out = evaluate(staged_input())
        far = option_of(out, "F")
        # Raw at far: 5000 × 8 / 72000 × 1.3 = 0.722222 h and 5000 × 0.02 = 100; compute
        # 8 × 10 × 1.0 = 80 → 180. Staged: 200 × 8 / 72000 × 1.3 = 0.028889 h and
        # 200 × 0.02 = 4; preprocessing 2 h × 5 = 10 → 80 + 4 + 10 = 94 < 180: staged.
        assert far["plan"] == "staged"
        assert far["transfer_gb"] == approx(200.0)
        assert far["transfer_hours"] == approx(0.028889)
        assert far["transfer_cost"] == approx(4.0)
        assert far["preprocess_hours"] == approx(2.0)
        assert far["preprocess_cost"] == approx(10.0)
        assert far["total_cost"] == approx(94.0)
        # Hours: 0.028889 transfer + 0 queue + 10 compute + 2 preprocessing.
        assert far["total_hours"] == approx(12.028889)
        # D at the data: 8 × 10 × 3.0 = 240, no legs; its plan is not staged (no shipment).
        assert option_of(out, "D")["plan"] is None
        assert out["chosen"] == {"kind": "move_data", "site": "far", "offer": "F"}

    def test_the_bill_carries_the_preprocessing(self):
        out = evaluate(staged_input())
        row = next(r for r in out["bill"] if r["offer"] == "F")
        # 80 compute + 4 transfer + 10 preprocessing = 94.
        assert row["preprocess_cost"] == approx(10.0) and row["total"] == approx(94.0)

    def test_d3_says_what_is_shipped_and_how_much_less(self):
        out = evaluate(staged_input())
        d3 = findings_of(out, "D3")
        assert [f["severity"] for f in d3] == ["info"]
        # 200 GB per run instead of 5000: 1 − 200 / 5000 = 96 % less.
        assert d3[0]["data"]["shipped_gb"] == approx(200.0)
        assert d3[0]["data"]["raw_gb"] == approx(5000.0)
        assert d3[0]["data"]["saved_pct"] == approx(96.0)
        assert "200 GB" in d3[0]["message"] and "−96 %" in d3[0]["message"]
        assert "200 GB" in d3[0]["message_zh"]


class TestRawWins:
    def test_a_processed_version_nearly_as_large_keeps_the_raw_plan(self):
        out = evaluate(staged_input(processed_gb=4900))
        far = option_of(out, "F")
        # Staged: 4900 × 0.02 = 98 + 80 + 10 = 188 > raw 180: raw kept, all of it shown raw.
        assert far["plan"] == "raw"
        assert far["total_cost"] == approx(180.0)
        assert far["transfer_gb"] == approx(5000.0)
        assert far["preprocess_hours"] == 0.0 and far["preprocess_cost"] == 0.0
        assert findings_of(out, "D3") == []

    def test_a_processed_version_larger_than_raw_warns(self):
        out = evaluate(staged_input(processed_gb=6000))
        assert option_of(out, "F")["plan"] == "raw"
        d3 = findings_of(out, "D3")
        assert [(f["severity"], f["key"]) for f in d3] == [("warn", "D3.larger")]


class TestRoundsPerRefresh:
    def test_reuse_over_four_rounds_amortises_the_shipment_not_its_hours(self):
        out = evaluate(staged_input(processed_gb=4900, rounds_per_refresh=4))
        far = option_of(out, "F")
        # Per run: 4900 / 4 = 1225 GB and 98 / 4 = 24.5; preprocessing 10 / 4 = 2.5;
        # 80 + 24.5 + 2.5 = 107 < 180: staged.
        assert far["plan"] == "staged"
        assert far["transfer_gb"] == approx(1225.0)
        assert far["transfer_cost"] == approx(24.5)
        assert far["preprocess_cost"] == approx(2.5)
        assert far["total_cost"] == approx(107.0)
        # The first run waits for the whole shipment: 4900 × 8 / 72000 × 1.3 = 0.707778 h.
        assert far["transfer_hours"] == approx(0.707778)
        assert far["total_hours"] == approx(0.707778 + 10 + 2)
        leg = far["legs"][0]
        assert (leg["what"], leg["gb"], leg["hours"]) == ("input", 1225.0, approx(0.707778))
        # D3: 1225 GB per run instead of 5000: 1 − 1225 / 5000 = 75.5 %.
        assert findings_of(out, "D3")[0]["data"]["saved_pct"] == approx(75.5)


class TestM3ReadsPreprocessing:
    def test_preprocessing_counts_in_the_transfer_segment(self):
        out = evaluate(staged_input(latency_budget_hours={"transfer": 1}))
        far = option_of(out, "F")
        # Staged at far: 0.028889 h of transfer + 2 h of preprocessing = 2.028889 > 1.
        assert far["plan"] == "staged" and far["within_budget"] is False
        m3 = [f for f in findings_of(out, "M3") if f["data"]["segment"] == "transfer"]
        assert m3 and m3[0]["data"]["hours"] == approx(2.028889)


class TestInput:
    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("processed_gb", -1),
            ("preprocess_hours", -2),
            ("preprocess_cost_per_hour", -0.5),
            ("rounds_per_refresh", 0),
            ("rounds_per_refresh", 1.5),
            ("processed_gb", "lots"),
        ],
    )
    def test_bad_values_are_refused_by_field(self, field, value):
        with pytest.raises(EngineInputError) as caught:
            evaluate(staged_input(**{field: value}))
        assert [e["field"] for e in caught.value.errors] == [f"task.{field}"]

    def test_without_processed_gb_nothing_is_staged(self):
        data = staged_input()
        for key in ("processed_gb", "preprocess_hours", "preprocess_cost_per_hour"):
            del data["task"][key]
        out = evaluate(data)
        assert option_of(out, "F")["plan"] is None
        assert option_of(out, "F")["total_cost"] == approx(180.0)


PROPERTY = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@PROPERTY
@given(engine_inputs(), st.floats(min_value=1.0, max_value=3.0), st.floats(0, 50), st.floats(0, 9))
def test_a_processed_version_not_smaller_than_what_moves_is_never_chosen(
    data, factor, hours, price
):
    """With processed_gb ≥ everything the raw plan moves (input × passes) and no reuse, the staged
    plan ships at least as much over the same link and adds preprocessing: never cheaper."""
    data = copy.deepcopy(data)
    t = data["task"]
    t["processed_gb"] = t.get("input_gb", 0.0) * t.get("data_passes", 1) * factor
    t["preprocess_hours"] = hours
    t["preprocess_cost_per_hour"] = price
    t["rounds_per_refresh"] = 1
    out = evaluate(data)
    assert all(o["plan"] != "staged" for o in out["options"])


def test_a_tie_within_float_noise_keeps_the_raw_plan():
    """Found by the property above: a repeated scan streamed 3 times (no room at s1) moves
    19.337295377981263 × 3 × 0.431640625 GB raw, and a processed version of exactly
    19.337295377981263 × 3 = 58.01188613394379 GB moves 58.01188613394379 × 0.431640625 GB
    staged: the same 25.040287 GB at 1.0 a GB, free compute and preprocessing, so the two plans
    tie (SPEC 6.4: the raw one on a tie). The two products differ in their last bit; the staged
    plan was kept for being one ulp cheaper."""
    t = task(
        access_pattern="repeated_full_scan",
        data_passes=3,
        input_gb=19.337295377981263,
        compress_ratio=0.431640625,
        result_gb=0,
        image_gb=0,
        compute_hours=0,
        processed_gb=58.01188613394379,
        preprocess_hours=0,
        preprocess_cost_per_hour=0,
        rounds_per_refresh=1,
    )
    t["data_site"] = t["result_site"] = "home"
    data = make_input(
        t,
        offers=[offer("far", "far", price=0)],
        sites=[
            {"code": "home", "datacenter": "dc1", "city": "bj", "hub": "north"},
            {"code": "far", "datacenter": "dc1", "city": "bj", "hub": "north", "storage_tb": 0},
        ],
        links=[{"from": "far", "to": "home", "bandwidth_gbps": 1, "price_per_gb": 1.0}],
    )
    far = option_of(evaluate(data), "far")
    assert far["plan"] == "raw"
    assert far["total_cost"] == approx(25.040287)
