"""The placement hints (SPEC 6.1 D2 and K2, SPEC 6.4 D3 and the staged shipment), case by case:
where the staging advice points, the three D2 texts, the D3 thresholds at, just below and just
above, what a staged plan ships per run, and which pool sets K2 names and in what order.

Every expected figure is worked out by hand in the comment beside it (issue 22: these are the
cases the mutation run showed untested).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine import evaluate, parse_input, staged_shipment
from engine import hints as hints_module

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    approx,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    staged_input,
    task,
    three_way_input,
)

# ---------------------------------------------------------------------------------------------
# SPEC 6.1 D2: where to stage repeated full scans


def _scans(**overrides: Any) -> dict[str, Any]:
    # three_way_input: L at home (165 staged), M at data (88.3, no input leg), D at far (410.9).
    return three_way_input(access_pattern="repeated_full_scan", data_passes=3, **overrides)


class TestD2StagingHint:
    def test_chosen_option_runs_at_the_data_so_the_advice_says_it_avoids_the_transfers(self):
        out = evaluate(_scans())
        # M: 16 / 8 = 2.0 per GPU-hour at speed 2 → 8 × 5 h × 2.0 = 80 + 10 % fee 8 = 88;
        # image 10 GB × 0.01 = 0.1, results 20 GB × 0.01 = 0.2 → 88.3 < L 165 < D 410.9.
        assert out["chosen"]["offer"] == "M"
        assert option_of(out, "M")["input_mode"] is None  # it runs where the data is
        assert [option_of(out, o)["input_mode"] for o in ("L", "D")] == ["staged", "staged"]
        # SPEC 7.8: the chosen option stages nothing, it runs at the data: D2 says so (2.2 named
        # the first staged option's site, home, where nothing runs).
        [f] = findings_of(out, "D2")
        assert (f["rule"], f["severity"], f["key"]) == ("D2", "info", "D2.at_data")
        assert f["data"] == {"data_passes": 3, "site": "data"}
        assert f["message"] == (
            "Repeated full scans (3 passes): the chosen option runs at the data (data), which "
            "avoids the recurring transfers."
        )
        assert f["message_zh"] == (
            "需要反复全量扫描(3 遍):所选方案就在数据所在地(data)运行,避免了反复传输。"
        )

    def test_a_chosen_staged_option_is_told_to_stage_at_its_site(self):
        data = _scans()
        del data["offers"][1]  # without M: L (home, staged, 165) is chosen over D (410.9)
        out = evaluate(data)
        assert out["chosen"]["offer"] == "L"
        [f] = findings_of(out, "D2")
        assert (f["key"], f["data"]) == (
            "D2.staged",
            {"data_passes": 3, "input_gb": 500.0, "site": "home"},
        )
        assert f["message"] == (
            "Repeated full scans (3 passes): transfers recur on every pass; stage the data "
            "next to the compute once (500 GB at home)."
        )
        assert f["message_zh"] == (
            "需要反复全量扫描(3 遍):每一遍都要传一次;把数据一次性落到算力旁边(home,500 GB)。"
        )

    def test_a_chosen_option_without_room_reads_the_input_every_pass_there(self):
        data = _scans()
        del data["offers"][1]  # L and D
        data["sites"][0]["storage_tb"] = 0.4  # home: 400 GB < 500 GB, far has room
        out = evaluate(data)
        # L streams 3 × 500 GB over data → home at 0.01 a GB: 15 instead of 5, still far below
        # D's 410.9: L is chosen, streamed, while D (far) is staged.
        assert out["chosen"]["offer"] == "L"
        assert [option_of(out, o)["input_mode"] for o in ("L", "D")] == ["streamed", "staged"]
        [f] = findings_of(out, "D2")
        assert (f["key"], f["data"]) == ("D2.streamed", {"data_passes": 3, "site": "home"})
        assert f["message"] == (
            "Repeated full scans (3 passes): home has no room to stage the input, so the chosen "
            "option reads it over the link on every pass; plan storage together with compute."
        )
        assert f["message_zh"] == (
            "需要反复全量扫描(3 遍):home 放不下输入数据,所选方案每一遍都要经链路读取;"
            "存储要与算力一起规划。"
        )

    def test_with_nothing_chosen_the_advice_names_the_first_site_with_room(self):
        data = _scans(gpus=16)
        for o in data["offers"]:
            o["max_machines"] = 1  # 16 GPUs > 1 × 8 on every offer: pool_too_small, P2
        out = evaluate(data)
        assert out["chosen"] is None
        [f] = findings_of(out, "D2")
        # L (home) is the first staged option in offer order.
        assert (f["key"], f["data"]["site"]) == ("D2.staged", "home")

    def test_a_chosen_staged_option_names_its_own_site_not_the_first_staged_one(self):
        data = _scans()
        data["offers"] = [data["offers"][2], data["offers"][0]]  # D (far) first, then L (home)
        out = evaluate(data)
        # L 165 < D 410.9 (worked in test_engine_rules_eligibility): L is chosen, staged at home;
        # the first staged option in offer order is D at far.
        assert out["chosen"]["offer"] == "L"
        assert option_of(out, "D")["input_mode"] == "staged"
        [f] = findings_of(out, "D2")
        assert f["data"]["site"] == "home"

    def test_no_room_anywhere_is_an_info_with_its_own_text(self):
        data = _scans()
        del data["offers"][1]  # L and D, both away from the data
        data["sites"][0]["storage_tb"] = 0.4  # home: 400 GB < 500 GB
        data["sites"][2]["storage_tb"] = 0.4  # far: the same
        out = evaluate(data)
        assert out["chosen"]["offer"] == "L"
        [f] = findings_of(out, "D2")
        assert (f["severity"], f["key"], f["data"]) == ("info", "D2.no_room", {"data_passes": 3})
        assert f["message"] == (
            "Repeated full scans (3 passes) and no candidate site has room to stage the input: "
            "moving compute does not pay; plan storage together with compute."
        )

    def test_nothing_moves_the_input_so_the_v1_advice_stands(self):
        # The only offer sits where the data is: no option has an input mode, none is staged or
        # streamed, and D2 gives the plain advice.
        t = task(data_site="data", input_gb=500, access_pattern="repeated_full_scan", data_passes=3)
        out = evaluate(make_input(t, offers=[offer("X", "data")]))
        assert option_of(out, "X")["input_mode"] is None
        [f] = findings_of(out, "D2")
        assert (f["rule"], f["severity"], f["key"], f["data"]) == (
            "D2",
            "info",
            "D2",
            {"data_passes": 3},
        )
        assert f["message"] == (
            "Repeated full scans (3 passes): moving compute does not pay, transfers recur; "
            "plan storage together with compute."
        )
        assert f["message_zh"] == (
            "需要反复全量扫描(3 遍):搬计算占不到便宜,传输会反复发生;存储要与算力一起规划。"
        )


# ---------------------------------------------------------------------------------------------
# SPEC 6.4 D3: a processed version at least as large as the raw input; what a staged plan ships


def _larger(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in findings_of(out, "D3") if f["key"] == "D3.larger"]


class TestD3Larger:
    def test_exactly_as_large_as_the_raw_input_warns(self):
        # 5000 ≥ 5000: not smaller, so shipping it can only cost more.
        [f] = _larger(evaluate(staged_input(processed_gb=5000)))
        assert (f["severity"], f["data"]) == ("warn", {"processed_gb": 5000.0, "input_gb": 5000.0})
        assert f["message"] == (
            "The processed version (5,000 GB) is not smaller than the raw input (5,000 GB): "
            "shipping it can only cost more; check processed_gb."
        )

    def test_just_smaller_does_not_warn_just_larger_does(self):
        assert _larger(evaluate(staged_input(processed_gb=4999))) == []
        assert len(_larger(evaluate(staged_input(processed_gb=5001)))) == 1

    def test_a_one_gb_input_counts(self):
        # input 1 GB > 0 and processed 1 GB ≥ 1 GB: the warning applies to small inputs too.
        [f] = _larger(evaluate(staged_input(input_gb=1, processed_gb=1)))
        assert f["data"] == {"processed_gb": 1.0, "input_gb": 1.0}

    def test_no_raw_input_no_warning(self):
        # input 0 GB: nothing to compare with (0 ≥ 0 would otherwise hold).
        assert _larger(evaluate(staged_input(input_gb=0, processed_gb=0))) == []


class TestD3StreamedRawPlan:
    def test_a_staged_plan_is_weighed_against_every_pass_the_raw_plan_would_stream(self):
        data = staged_input(access_pattern="repeated_full_scan", data_passes=3)
        data["sites"][2]["storage_tb"] = 1.0  # far: 1000 GB < 5000 GB → the raw input streams
        out = evaluate(data)
        far = option_of(out, "F")
        # raw at far: 5000 × 3 passes = 15000 GB × 0.02 = 300 + 8 × 10 × 1.0 = 80 → 380;
        # staged: 200 GB × 0.02 = 4 + 80 + preprocessing 10 = 94 < 380, and < D 8 × 10 × 3 = 240.
        assert (far["plan"], far["input_mode"]) == ("staged", "streamed")
        assert far["total_cost"] == approx(94.0)
        assert out["chosen"]["offer"] == "F"
        [d3] = findings_of(out, "D3")
        # shipped 200 GB against 5000 × 1.0 × 3 = 15000 GB: 1 − 200 / 15000 = 98.666667 % less
        assert d3["data"]["shipped_gb"] == approx(200.0)
        assert d3["data"]["raw_gb"] == approx(15000.0)
        assert d3["data"]["saved_pct"] == approx(98.666667)
        assert d3["data"]["site"] == "far"


class TestStagedShipment:
    def _task(self, **overrides: Any):
        t = parse_input(staged_input()).task
        return dataclasses.replace(t, **overrides)

    def test_compressed_staged_shipment_over_four_rounds(self):
        t = self._task(
            input_gb=1000, compress_ratio=0.5, processed_gb=200, rounds_per_refresh=4, data_passes=3
        )
        # processed 200 × 0.5 = 100 GB; per run 100 / 4 = 25 GB; the raw plan stages the input
        # once: 1000 × 0.5 × 1 = 500 GB; 1 − 25 / 500 = 95 % less.
        expected = {
            "processed_gb": 100.0,
            "shipped_gb": 25.0,
            "raw_gb": 500.0,
            "saved_pct": approx(95.0),
            "rounds": 4,
        }
        assert staged_shipment(t) == expected
        assert staged_shipment(t, "staged") == expected

    def test_a_streamed_raw_plan_moves_the_input_on_every_pass(self):
        t = self._task(
            input_gb=1000, compress_ratio=0.5, processed_gb=200, rounds_per_refresh=4, data_passes=3
        )
        # raw: 1000 × 0.5 × 3 = 1500 GB; 1 − 25 / 1500 = 98.333333 % less
        shipment = staged_shipment(t, "streamed")
        assert shipment["raw_gb"] == approx(1500.0)
        assert shipment["shipped_gb"] == approx(25.0)
        assert shipment["saved_pct"] == approx(98.333333)

    def test_no_raw_input_saves_nothing(self):
        t = self._task(input_gb=0, processed_gb=10, rounds_per_refresh=1, compress_ratio=1.0)
        # raw 0 GB: no percentage to take (not a division by zero)
        shipment = staged_shipment(t)
        assert (shipment["raw_gb"], shipment["saved_pct"]) == (0.0, 0.0)

    def test_a_raw_input_under_one_gb_still_has_a_percentage(self):
        t = self._task(input_gb=0.8, processed_gb=0.4, rounds_per_refresh=1, compress_ratio=1.0)
        # 1 − 0.4 / 0.8 = 50 %
        assert staged_shipment(t)["saved_pct"] == approx(50.0)

    def test_it_needs_a_processed_version(self):
        t = self._task(processed_gb=None)
        with pytest.raises(ValueError, match="^a staged shipment needs processed_gb$"):
            staged_shipment(t)


# ---------------------------------------------------------------------------------------------
# SPEC 6.1 K2: sets of pools that together would hold the job


def _k2(out: dict[str, Any]) -> dict[str, Any]:
    [f] = findings_of(out, "K2")
    return f


class TestK2SpreadHint:
    def test_sets_are_tried_biggest_pools_first_and_named_in_that_order(self):
        # 20 GPUs; pools (all at home): a 1 × 4 = 4, b 3 × 4 = 12, c 1 × 8 = 8, d 2 × 8 = 16, all
        # too small. By size: d 16, b 12, c 8, a 4. Pairs in that order: d + b = 28 ≥ 20,
        # d + c = 24, d + a = 20 (exactly enough): three sets, the most K2 names.
        offers = [
            offer("a", gpus_per_machine=4, max_machines=1),
            offer("b", gpus_per_machine=4, max_machines=3),
            offer("c", gpus_per_machine=8, max_machines=1),
            offer("d", gpus_per_machine=8, max_machines=2),
        ]
        out = evaluate(make_input(task(gpus=20, coupling="none"), offers=offers))
        assert {o["reason"] for o in out["options"]} == {"pool_too_small"}
        f = _k2(out)
        assert (f["severity"], f["data"]["gpus"], f["data"]["tier"]) == ("info", 20, "cross_hub")
        assert f["data"]["sets"] == [["d", "b"], ["d", "c"], ["d", "a"]]
        assert f["data"]["pools"] == ["d + b", "d + c", "d + a"]
        assert "d + b" in f["message"] and "d + a" in f["message_zh"]

    def test_pools_are_shown_by_name(self):
        offers = [
            offer("p", max_machines=1, name="Pool P"),
            offer("q", max_machines=1, name="Pool Q"),
        ]
        # 16 GPUs: 8 + 8
        f = _k2(evaluate(make_input(task(gpus=16), offers=offers)))
        assert (f["data"]["sets"], f["data"]["pools"]) == ([["p", "q"]], ["Pool P + Pool Q"])

    def test_a_tight_job_is_never_spread_even_within_one_site(self):
        # Two 8-GPU pools at home hold 16 together, at tier same_site (the tight limit), but a
        # tightly coupled job is never spread.
        offers = [offer("p", max_machines=1), offer("q", max_machines=1)]
        out = evaluate(make_input(task(gpus=16, coupling="tight"), offers=offers))
        assert {o["reason"] for o in out["options"]} == {"pool_too_small"}
        assert "K2" not in rules(out)
        # the same job loosely coupled is spread over the two
        out = evaluate(make_input(task(gpus=16, coupling="loose"), offers=offers))
        assert _k2(out)["data"]["sets"] == [["p", "q"]]

    def test_at_most_four_pools_per_set(self):
        # 20 GPUs from five 4-GPU pools: only all five hold it (5 × 4 = 20), a set of five is
        # more than K2 looks at; with one 8-GPU pool instead, four do (8 + 3 × 4 = 20).
        offers = [offer(f"p{i}", gpus_per_machine=4, max_machines=1) for i in range(1, 6)]
        out = evaluate(make_input(task(gpus=20), offers=offers))
        assert {o["reason"] for o in out["options"]} == {"pool_too_small"}
        assert "K2" not in rules(out)
        offers[0] = offer("p1", gpus_per_machine=8, max_machines=1)
        # by size p1 8, then p2..p5 (4 each, by id): the first 4-set p1 p2 p3 p4 = 20
        sets = _k2(evaluate(make_input(task(gpus=20), offers=offers)))["data"]["sets"]
        assert sets[0] == ["p1", "p2", "p3", "p4"]

    def test_the_search_budget_counts_every_combination_from_pairs_up(self, monkeypatch):
        # 24 GPUs from three 8-GPU pools: the pairs (p1 p2, p1 p3, p2 p3) hold 16, only the
        # triple holds 24. Combinations are examined in that order: the triple is the 4th.
        offers = [offer(f"p{i}", max_machines=1) for i in range(1, 4)]
        data = make_input(task(gpus=24), offers=offers)
        monkeypatch.setattr(hints_module, "K2_BUDGET", 4)  # 4 examined: the triple is reached
        assert _k2(evaluate(data))["data"]["sets"] == [["p1", "p2", "p3"]]
        monkeypatch.setattr(hints_module, "K2_BUDGET", 3)  # the 4th is past the budget
        assert "K2" not in rules(evaluate(data))
