"""SPEC B and SPEC 6.1 like for like: the comparisons that pick the fastest run of an offer, pair
single and multi runs, report one pair and judge it (B1–B3), at, just below and just above each
threshold.

Every expected figure is worked out by hand in the comment beside it (issue 22: these are the
cases the mutation run showed untested). `fastest_per_offer`, `run_speedup` and
`run_scaling_efficiency` are also called outside the engine (the benchmarks page and the
comparison table), so they are tested directly too.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import evaluate, parse_input
from engine.bench_verdicts import (
    BenchmarkPair,
    fastest_per_offer,
    find_pairs,
    judge_benchmarks,
    pair_verdict,
    reported_pair,
    run_scaling_efficiency,
    run_speedup,
)
from engine.schema import Benchmark

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    multi,
    offer,
    rules,
    single,
    task,
)

# ---------------------------------------------------------------------------------------------
# The fastest run of each offer


def _fastest(runs: list[tuple[Any, str, float, str]], kind: str = "single") -> dict[Any, str]:
    """{offer: label of its fastest run of `kind`} over (offer, kind, e2e hours, label) runs."""
    found = fastest_per_offer(
        runs, kind, offer_of=lambda r: r[0], kind_of=lambda r: r[1], e2e_of=lambda r: r[2]
    )
    return {offer: run[3] for offer, run in found.items()}


class TestFastestPerOffer:
    def test_the_fastest_run_of_the_kind_per_offer(self):
        runs = [
            ("x", "single", 5.0, "x5"),
            ("x", "single", 3.0, "x3"),
            ("x", "multi", 1.0, "x-multi"),  # another kind: not a single baseline
            ("y", "single", 4.0, "y4"),
        ]
        assert _fastest(runs) == {"x": "x3", "y": "y4"}
        assert _fastest(runs, "multi") == {"x": "x-multi"}

    def test_a_zero_hour_run_is_no_measurement(self):
        # 0 h is not > 0: skipped, so the 2 h run is the baseline
        assert _fastest([("x", "single", 0.0, "zero"), ("x", "single", 2.0, "two")]) == {"x": "two"}

    def test_a_run_under_one_hour_counts(self):
        # 0.5 h > 0: a measurement
        assert _fastest([("x", "single", 0.5, "half")]) == {"x": "half"}

    def test_a_run_without_an_offer_is_never_a_baseline(self):
        assert _fastest([(None, "single", 3.0, "anonymous")]) == {}

    def test_ties_keep_the_first_run_given(self):
        runs = [("x", "single", 2.0, "first"), ("x", "single", 2.0, "second")]
        assert _fastest(runs) == {"x": "first"}


class TestSpeedupAndScaling:
    def test_speedup_is_baseline_over_own_hours(self):
        assert run_speedup(8.0, 4.0) == 2.0  # 8 / 4
        assert run_speedup(1.0, 0.5) == 2.0  # 1 / 0.5: a run under an hour is a measurement
        assert run_speedup(8.0, 0.0) is None  # no hours, no ratio

    def test_scaling_efficiency_is_speedup_over_the_gpu_ratio(self):
        assert run_scaling_efficiency(2.0, 16, 8) == 1.0  # 2 / (16 / 8)
        assert run_scaling_efficiency(2.0, 1, 1) == 2.0  # 2 / (1 / 1): one GPU is a count
        assert run_scaling_efficiency(1.5, 4, 8) == 3.0  # 1.5 / (4 / 8)

    def test_scaling_efficiency_needs_a_speedup_and_both_gpu_counts(self):
        assert run_scaling_efficiency(None, 16, 8) is None
        assert run_scaling_efficiency(2.0, 0, 8) is None
        assert run_scaling_efficiency(2.0, 16, 0) is None


# ---------------------------------------------------------------------------------------------
# Pairs: one per offer with both kinds of run


class TestFindPairs:
    def test_runs_count_single_and_multi_runs_of_the_offer_only(self):
        bench = [
            single(10),
            multi(6),
            {"kind": "network_probe", "offer": "local", "e2e_hours": 1},  # not a single/multi
            {"kind": "pilot_migration", "migration_effort_hours": 3},  # no offer
        ]
        [pair] = find_pairs(parse_input(make_input(benchmarks=bench)))
        # local: single 10 h and multi 6 h → 2 runs
        assert (pair.offer, pair.runs) == ("local", 2)
        assert (pair.single.e2e_hours, pair.multi.e2e_hours) == (10.0, 6.0)

    def test_three_runs_of_both_kinds(self):
        bench = [single(10), single(12), multi(6)]
        [pair] = find_pairs(parse_input(make_input(benchmarks=bench)))
        assert pair.runs == 3  # 1 + 1 + 1
        assert pair.single.e2e_hours == 10.0  # the faster single

    def test_no_pair_without_a_multi_run(self):
        assert find_pairs(parse_input(make_input(benchmarks=[single(10), single(8)]))) == []
        assert find_pairs(parse_input(make_input(benchmarks=[multi(10)]))) == []


def _run(kind: str, e2e: float, *, offer: str = "x", gpus: int = 8, **kw: Any) -> Benchmark:
    return Benchmark(
        index=0, kind=kind, offer=offer, gpus_per_node=gpus, e2e_hours=e2e, compute_hours=e2e, **kw
    )


def _pair(offer: str, runs: int, single_e2e: float = 10.0, multi_e2e: float = 5.0):
    return BenchmarkPair(
        offer, _run("single", single_e2e, offer=offer), _run("multi", multi_e2e, offer=offer), runs
    )


class TestReportedPair:
    def test_ties_on_runs_take_numeric_ids_before_text_ids(self):
        # equal runs, no chosen offer: "lowest id" puts numeric ids (database ids) first
        pairs = [_pair("a", 2), _pair("10", 2)]
        assert reported_pair(pairs, None).offer == "10"
        assert reported_pair(list(reversed(pairs)), None).offer == "10"

    def test_numeric_ids_compare_as_numbers_and_text_as_text(self):
        assert reported_pair([_pair("10", 2), _pair("9", 2)], None).offer == "9"
        assert reported_pair([_pair("b", 2), _pair("a", 2)], None).offer == "a"

    def test_a_superscript_digit_is_text_not_a_number(self):
        # "²".isdigit() holds but int("²") fails: such an id orders as text, after "3"
        assert reported_pair([_pair("²", 2), _pair("3", 2)], None).offer == "3"
        bench = [single(10, "²"), multi(5, "²")]
        out = evaluate(make_input(offers=[offer("²")], benchmarks=bench))
        assert (out["benchmark"]["offer"], out["benchmark"]["speedup"]) == ("²", 2.0)  # 10 / 5

    def test_most_runs_first_then_the_chosen_offer(self):
        pairs = [_pair("1", 2), _pair("2", 3), _pair("3", 3)]
        assert reported_pair(pairs, None).offer == "2"  # 3 runs; 2 < 3
        assert reported_pair(pairs, "3").offer == "3"  # 3 runs and chosen


# ---------------------------------------------------------------------------------------------
# The verdict of one pair


class TestPairVerdict:
    def test_speedup_share_and_hours_saved(self):
        # speedup 10 / 5 = 2; multi on 16 GPUs vs 8: efficiency 2 / (16 / 8) = 1.0;
        # comm 1 h of 5 → share 0.2; saved 10 − 5 = 5 h
        pair = BenchmarkPair(
            "x", _run("single", 10.0), _run("multi", 5.0, gpus=16, comm_hours=1.0), 2
        )
        v = pair_verdict(pair)
        assert (v.offer, v.speedup, v.scaling_efficiency) == ("x", 2.0, 1.0)
        assert (v.net_gain_positive, v.non_compute_share, v.hours_saved) == (True, 0.2, 5.0)

    def test_equal_hours_are_no_gain(self):
        # speedup 6 / 6 = 1, not > 1
        v = pair_verdict(_pair("x", 2, 6.0, 6.0))
        assert (v.speedup, v.net_gain_positive) == (1.0, False)

    def test_a_multi_run_under_an_hour_has_a_share(self):
        # multi 0.5 h, compute 0.4 h: 1 − 0.4 / 0.5 = 0.2 of it is not compute
        pair = BenchmarkPair("x", _run("single", 1.0), _run("multi", 0.5), 2)
        pair.multi.compute_hours = 0.4
        assert pair_verdict(pair).non_compute_share == pytest.approx(0.2)

    def test_a_zero_hour_multi_run_is_judged_by_hours_saved(self):
        # A pair built by hand (find_pairs never pairs a 0 h run): no speedup, no share; saved
        # 10 − 0 = 10 h > 0, a (degenerate) gain; 0.5 − 0 = 0.5 h is one too; 0 − 0 is none.
        v = pair_verdict(_pair("x", 2, 10.0, 0.0))
        assert (v.speedup, v.non_compute_share, v.hours_saved) == (None, None, 10.0)
        assert v.net_gain_positive is True
        assert pair_verdict(_pair("x", 2, 0.5, 0.0)).net_gain_positive is True
        assert pair_verdict(_pair("x", 2, 0.0, 0.0)).net_gain_positive is False


# ---------------------------------------------------------------------------------------------
# B1–B3 on the reported pair


class TestJudgeBenchmarks:
    def test_without_a_verdict_given_it_works_one_out(self):
        bench = [single(10), multi(6, failure_reruns=2, hours_lost_per_rerun=2)]
        inp = parse_input(make_input(benchmarks=bench))
        [pair] = find_pairs(inp)
        verdict, found = judge_benchmarks(inp, pair)
        # speedup 10 / 6; saved 4 h; rerun loss 2 × 2 = 4 h ≥ 4 → B2
        assert verdict.speedup == pytest.approx(10 / 6)
        assert verdict.hours_saved == 4.0
        assert [f.rule for f in found] == ["B2"]
        assert judge_benchmarks(inp, pair, pair_verdict(pair)) == (verdict, found)

    def test_B2_is_a_warning(self):
        bench = [single(10), multi(6, failure_reruns=2, hours_lost_per_rerun=2)]
        [f] = findings_of(evaluate(make_input(benchmarks=bench)), "B2")
        assert (f["severity"], f["key"]) == ("warn", "B2")

    def _b3(self, effort: float) -> list[dict[str, Any]]:
        # saved 10 − 6 = 4 h per run × 1 run a quarter × 4 = 16 h a year
        bench = [single(10), multi(6, migration_effort_hours=effort)]
        t = task(cadence="recurring", runs_per_quarter=1)
        return findings_of(evaluate(make_input(t, benchmarks=bench)), "B3")

    def test_B3_effort_exactly_a_year_of_gains_does_not_warn(self):
        assert self._b3(16) == []  # 16 is not > 16
        assert self._b3(15.5) == []

    def test_B3_effort_just_over_a_year_of_gains_warns(self):
        [f] = self._b3(16.5)  # 16.5 > 16
        assert (f["severity"], f["key"]) == ("warn", "B3")
        assert f["data"] == {
            "migration_effort_hours": 16.5,
            "runs_per_year": 4.0,
            "yearly_hours_saved": 16.0,
        }

    def test_B1_no_gain_stops_there(self):
        # multi 12 h ≥ single 10 h: no gain; B2 and B3 are not judged
        bench = [single(10), multi(12, failure_reruns=5, hours_lost_per_rerun=5)]
        out = evaluate(make_input(benchmarks=bench))
        assert [r for r in rules(out) if r.startswith("B")] == ["B1"]
