"""Engine speed, issue 32: what the faster paths of the core modules must keep. The plain records'
built functions take a value their converter would give back unchanged (or as float(value))
without calling it: every field of every built function still reads as its converter, at each
bound (SPEC 7.9: the field table drives the reader). The output rounds an option's and a leg's
figures by one nums() call: each figure still shows as num() shows it (SPEC 4: 6 decimals, never
NaN, infinity or -0.0).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from engine import evaluate, plain_records, plain_task
from engine.output import num, nums
from engine.plain_records import plain_values
from engine.plain_values import NotPlain
from engine.reader import MAX_MAGNITUDE, MIN_POSITIVE

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    option_of,
    rules,
)


def positive_zero(value: float) -> bool:
    return value == 0.0 and math.copysign(1.0, value) == 1.0


# ---------------------------------------------------------------------------------------------
# nums: num() of each figure


class TestNums:
    def test_whole_floats_keep_their_value_and_lose_the_minus_of_zero(self):
        shown = nums((256.0, 0.0, -0.0, -3.0))
        assert shown == [256.0, 0.0, 0.0, -3.0]
        assert positive_zero(shown[2])

    def test_fractions_round_to_six_decimals(self):
        # 1.23456789 × 10^6 = 1234567.89 → 1234568 → 1.234568; 0.1234564 → 0.123456;
        # -2.0000004 → -2000000.4 → -2000000 → -2.0; 835.68000000000001 is 835.68.
        assert nums((1.23456789, 0.1234564, -2.0000004, 835.6800000000001)) == [
            1.234568,
            0.123456,
            -2.0,
            835.68,
        ]

    def test_a_tiny_negative_rounds_to_positive_zero(self):
        # -4e-7 × 10^6 = -0.4, the nearest whole number is 0: shown 0.0, not -0.0.
        (shown,) = nums((-4e-7,))
        assert positive_zero(shown)

    def test_what_is_not_a_finite_float_goes_to_num(self):
        # null, NaN and ±infinity are null; an int shows as its float; a figure past 10^6 whole
        # units (× 10^6 ≥ 10^12) is rounded by round(): 10,000,000.25 keeps its quarter.
        shown = nums((None, math.nan, math.inf, -math.inf, 3, 10_000_000.25))
        assert shown[:4] == [None, None, None, None]
        assert shown[4] == 3.0 and type(shown[4]) is float
        assert shown[5] == 10_000_000.25

    def test_each_figure_shows_as_num_shows_it(self):
        # At the bounds of the addition's rounding: a product within 0.001 of a half (ties to
        # even there) and the ends of the ±10^12 window.
        values = (
            2.5e-6,
            3.5e-6,
            -5e-7,
            0.0000015,
            999_999.9999994,
            -999_999.9999994,
            1e6,
            1e6 + 0.5e-6,
            123.4564999,
            7.2,
            0.16,
            20.16,
            775.2,
            1e-300,
            -1e-300,
        )
        shown = nums(values)
        expected = [num(v) for v in values]
        assert shown == expected
        assert [math.copysign(1.0, s) for s in shown] == [math.copysign(1.0, e) for e in expected]


# ---------------------------------------------------------------------------------------------
# The built functions against their steps, field by field


BUILT = {**plain_records.builders(), **plain_task.builders()}
PLANS = {
    "_SITE": plain_records.plain_plan("sites[]", plain_records.Site, frozenset({"code", "index"})),
    "_LINK": plain_records.plain_plan(
        "links[]", plain_records.Link, frozenset({"from_site", "to_site", "index"})
    ),
    "_BENCHMARK": plain_records.plain_plan(
        "benchmarks[]", plain_records.Benchmark, plain_records._BENCHMARK_HAND
    ),
    "_OFFER": plain_records.plain_plan(
        "offers[]",
        plain_records.Offer,
        plain_records._OFFER_HAND,
        absent=plain_records._OFFER_ABSENT,
    ),
    "_TASK": plain_records.plain_plan(
        "task",
        plain_task.Task,
        frozenset(
            {
                "home_site",
                "data_site",
                "result_site",
                "allowed_sites",
                "latency_budget_hours",
                "team",
            }
        ),
        absent=plain_task._NOT_PLAIN_TASK,
    ),
    "_BUDGET": plain_records.plain_plan("task.latency_budget_hours", plain_task.LatencyBudget),
    "_TEAM": plain_records.plain_plan("task.team", plain_task.Team),
}

# Values at and beside every bound a converter tests: the type (an int, a float, a bool, a str),
# 0, the least positive number, the greatest magnitude, NaN and the infinities.
PROBES: tuple[Any, ...] = (
    None,
    0,
    0.0,
    -0.0,
    1,
    1.0,
    -1,
    -1.0,
    0.5,
    2,
    2.0,
    1.5,
    100,
    100.0,
    101,
    101.0,
    MIN_POSITIVE,
    MIN_POSITIVE / 2,
    MAX_MAGNITUDE,
    MAX_MAGNITUDE * 2,
    int(MAX_MAGNITUDE),
    int(MAX_MAGNITUDE) + 1,
    math.nan,
    math.inf,
    -math.inf,
    True,
    False,
    "",
    "x",
    "recurring",
    "one_off",
    "training",
    "bf16",
    "tight",
    "slow",
    "infiniband",
    [],
    ["data"],
)


def _outcome(read: Any) -> Any:
    try:
        return ("value", read())
    except NotPlain:
        return ("not plain", None)
    except (KeyError, TypeError) as exc:
        return (type(exc).__name__, None)


def _same(a: Any, b: Any) -> bool:
    """Equal values of one type (NaN and -0.0 told apart from 0.0)."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
        )
    return a == b


@pytest.mark.parametrize("name", sorted(PLANS))
def test_every_field_of_a_built_record_reads_as_its_converter(name):
    # One field at a time takes each probe; the record's other fields stay absent, or hold a
    # plain value where they are required. The built function and the steps must agree on the
    # value (its type included) or both refuse it.
    plan, build = PLANS[name], BUILT[name]
    hand_names = [step[0] for step in plan if step[1] is None]
    hand = {n: f"hand-{n}" for n in hand_names}
    required = {
        "bandwidth_gbps": 10.0,
        "price_per_gb": 0.01,
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "price": 2.0,
        "workload": "training",
        "compute_hours": 20,
    }
    checked = 0
    for field_name, convert, _args in plan:
        if convert is None or convert is plain_records._constant:
            continue
        for probe in PROBES:
            record = {k: v for k, v in required.items() if k != field_name}
            record[field_name] = probe
            get = record.get
            built = _outcome(lambda get=get: dataclasses.astuple(build(get, *hand.values())))
            stepped = _outcome(lambda get=get: tuple(plain_values(get, plan, hand)))
            assert built[0] == stepped[0], (field_name, probe, built, stepped)
            if built[0] == "value":
                index = [s[0] for s in plan].index(field_name)
                assert _same(built[1][index], stepped[1][index]), (field_name, probe)
            checked += 1
    assert checked > 0


# ---------------------------------------------------------------------------------------------
# evaluate: K3 and SPEC 7.11's second placement


def test_K3_counts_whole_machines_and_names_the_chosen_offer():
    """SPEC 7.4 K3 and 7.10: E (interconnect unknown, 8 GPUs a machine) chosen for 60 GPUs
    spans ⌈60 ÷ 8⌉ = ⌈7.5⌉ = 8 machines, a whole number; the finding concerns E."""
    from .test_engine_v31_fabric import two_pools

    out = evaluate(two_pools({"interconnect": None}, gpus=60))
    assert out["chosen"]["offer"] == "E"
    [k3] = findings_of(out, "K3")
    assert k3["data"] == {"offer": "E", "machines": 8, "gpus": 60}
    assert type(k3["data"]["machines"]) is int
    assert k3["offer"] == "E"


def test_upkeep_under_one_a_run_is_still_priced():
    """SPEC 7.11: 0.5 h a month × 1.0 an hour ÷ (6 ÷ 3 = 2 runs a month) = 0.25 a run on the
    self-hosted S: 8 × 10 × 2.0 = 160 + 0.25 = 160.25, still under G's 8 × 10 × 2.5 = 200."""
    from .test_engine_v31_scheduler_ops import ops_input

    out = evaluate(ops_input(hours=0.5, rate=1.0))
    s = option_of(out, "S")
    assert s["scheduler_ops_cost"] == 0.25
    assert s["total_cost"] == 160.25
    assert out["chosen"]["offer"] == "S"


def test_the_platform_findings_stay_beside_R1e():
    """SPEC 7.11: placing again with the upkeep adds R1e to the platform's own findings (R3's
    distributed platform for a queueing team that can run a scheduler), never replaces them."""
    from .test_engine_v31_scheduler_ops import ops_input

    out = evaluate(ops_input())  # 40 h × 100 ÷ 2 = 2,000 a run
    assert out["platform"] == "distributed_platform"
    assert "R3" in rules(out)
    assert "R1e" in rules(out)


# ---------------------------------------------------------------------------------------------
# sizing: flash attention's activations grow with the batch


def test_flash_activations_grow_with_the_batch():
    """SPEC 6.3 and 7.1: with flash attention a layer stores seq × batch × hidden × 34 bytes.
    Llama-3-8B at 8k context, batch 2: 32 layers × 8192 × 2 × 4096 × 34 B = 73,014,444,032 B
    = 73.014444 GB, twice batch 1's 36.507222 GB."""
    from .test_engine_v30_sizing import _llama_8k

    out = evaluate(make_input(_llama_8k(batch_size=2)))
    assert out["sizing"]["breakdown"]["activations"] == pytest.approx(73.014444032, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# output: SPEC 7.3's figures past any finite number


def test_preemption_past_any_finite_figure_shows_null_hours_and_cost():
    """SPEC 7.3: spot preempted 800 times a day on one machine, a 24 h run that cannot resume:
    λT = 800 ÷ 24 × 24 = 800, past e^x's finite range (e^800 > 1.8e308): the expected hours
    are no finite number, so hours and cost are both null, and the option is refused for
    λT > 2."""
    from .test_engine_v30_costs import _spot_and_on_demand

    data = _spot_and_on_demand(resumable=False)
    data["offers"][0]["preemptions_per_day"] = 800
    spot = option_of(evaluate(data), "spot")
    assert spot["preemption_hours"] is None
    assert spot["preemption_cost"] is None
    assert (spot["feasible"], spot["reasons"]) == (False, ["preempted_before_done"])
