"""SPEC 6.3 and 7.8 flips at the inputs that tell the solver's bookkeeping apart (issues 32, 37):
the nearest crossing measured in the input itself (1 / bandwidth's crossings told in bandwidth),
crossings on both sides of now, several options crossing at one point, a contender that only
ties the chosen option's envelope, every option with two plans, bent lines through `_Flips`, a
package's price (SPEC 7.6) and the compress ratio across 7.5's overlap bend. Lines are given as
in test_engine_sensitivity: line j is gaps[j] + slopes[j] × (x − x0), worked by hand."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engine import evaluate
from engine.sensitivity import _Flips, _lines, _solve

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    make_input,
    offer,
    option_of,
    task,
)


def _option(offer_id: str) -> Any:
    """What the solver reads of an option: its tie-break (kind, site, offer id)."""
    return SimpleNamespace(kind="move_data", site="s", offer=SimpleNamespace(id=offer_id))


CHOSEN = _option("chosen")


class NearestInTheInputTests:
    """The flip told is the crossing nearest to now in the input itself, not in its coordinate."""

    @pytest.mark.parametrize("owners", [None, [0, 1, 2]])
    def test_in_one_over_bandwidth_the_nearest_bandwidth_wins(self, owners):
        a, b = _option("a"), _option("b")
        # x = 1 / bandwidth, now 2 (bandwidth 0.5). a: 1 + (x − 2) crosses 0 at x = 1 (bandwidth
        # 1, 0.5 away); b: 2 − (x − 2) at x = 4 (bandwidth 0.25, 0.25 away). In x, a is nearer
        # (1 against 2), in the bandwidth b is: b, the bandwidth falling to 0.25.
        found = _solve([CHOSEN, a, b], [0.0, 1.0, 2.0], 2.0, [0.0, 1.0, -1.0], 0.01, 100.0, True,
                       owners)  # fmt: skip
        assert found == (0.25, b, False)

    def test_a_crossing_above_now_nearer_than_one_below_wins(self):
        a, b = _option("a"), _option("b")
        # Now 10. a: 6 + (x − 10) crosses at 10 − 6 = 4 (6 below); b: 3 − (x − 10) at 13 (3 above).
        found = _solve([CHOSEN, a, b], [0.0, 6.0, 3.0], 10.0, [0.0, 1.0, -1.0], 0.0, 100.0, False)
        assert found == (13.0, b, True)


class OnePointManyOptionsTests:
    """Options crossing at the same point: past it the one whose line falls fastest the way the
    input moves is chosen; a farther crossing does not join them."""

    def test_the_steeper_of_two_crossing_at_once_rising(self):
        a, b = _option("a"), _option("b")
        # a: 4 − 2(x − 10) and b: 2 − (x − 10) both reach 0 at x = 12; past it a is lower.
        found = _solve([CHOSEN, a, b], [0.0, 4.0, 2.0], 10.0, [0.0, -2.0, -1.0], 0.0, 100.0, False)
        assert found == (12.0, a, True)

    def test_the_steeper_second_of_two_crossing_at_once(self):
        a, b = _option("a"), _option("b")
        # a: 2 − (x − 10), b: 4 − 2(x − 10): both 0 at 12; past it b (−2 a unit) is lower.
        found = _solve([CHOSEN, a, b], [0.0, 2.0, 4.0], 10.0, [0.0, -1.0, -2.0], 0.0, 100.0, False)
        assert found == (12.0, b, True)

    def test_the_steeper_of_two_crossing_at_once_falling(self):
        a, b = _option("a"), _option("b")
        # a: 4 + 2(x − 10), b: 2 + (x − 10): both 0 at x = 8; below it a is lower (falls faster).
        found = _solve([CHOSEN, a, b], [0.0, 4.0, 2.0], 10.0, [0.0, 2.0, 1.0], 0.0, 100.0, False)
        assert found == (8.0, a, False)

    def test_a_steeper_line_crossing_farther_does_not_take_the_flip(self):
        a, b = _option("a"), _option("b")
        # a: 2 − (x − 10) crosses at 12; b: 10 − 2(x − 10) at 15, farther: the flip is to a.
        found = _solve([CHOSEN, a, b], [0.0, 2.0, 10.0], 10.0, [0.0, -1.0, -2.0], 0.0, 100.0, False)
        assert found == (12.0, a, True)


class EnvelopeParallelTests:
    """SPEC 7.8: the chosen option's other plan 2 − x (now 0) takes its envelope past x = 2; a
    contender parallel to that plan is below the envelope only if below that plan."""

    def test_a_contender_equal_to_the_other_plan_that_loses_the_tie_never_flips(self):
        z = _option("z")  # tie-break: offer "chosen" before "z", so z loses a tie
        # z: 2 − x, the very line of the chosen option's other plan: never strictly below.
        found = _solve([CHOSEN, z], [0.0, 2.0, 2.0], 0.0, [0.0, -1.0, -1.0], 0.0, 100.0, False,
                       [0, 0, 1])  # fmt: skip
        assert found == (None, None, False)

    def test_a_contender_half_above_the_other_plan_never_flips(self):
        z = _option("z")
        # z: 2.5 − x, 0.5 above the other plan everywhere (though it crosses the kept plan at 2.5).
        found = _solve([CHOSEN, z], [0.0, 2.0, 2.5], 0.0, [0.0, -1.0, -1.0], 0.0, 100.0, False,
                       [0, 0, 1])  # fmt: skip
        assert found == (None, None, False)

    def test_a_contender_falling_faster_than_the_other_plan_flips_where_it_passes_it(self):
        z = _option("z")
        # z: 4 − 2x crosses the kept plan (0) at 2 and the other plan (2 − x) at 2 too: below
        # both from 2 on (rising).
        found = _solve([CHOSEN, z], [0.0, 2.0, 4.0], 0.0, [0.0, -1.0, -2.0], 0.0, 100.0, False,
                       [0, 0, 1])  # fmt: skip
        assert found == (2.0, z, True)


def _plan(objective: float, other: Any = None, feasible: bool = True) -> Any:
    return SimpleNamespace(objective=objective, other=other, feasible=feasible)


class LinesTests:
    def test_every_option_with_two_plans_gives_two_lines_each(self):
        """SPEC 7.8: each option's kept plan, then its other plan when feasible and costed."""
        a_other, b_other = _plan(7.0), _plan(9.0)
        a, b = _plan(5.0, a_other), _plan(6.0, b_other)
        lines, owners = _lines([a, b])
        assert lines == [a, a_other, b, b_other]
        assert owners == [0, 0, 1, 1]

    def test_an_infeasible_or_uncosted_other_plan_is_no_line(self):
        a = _plan(5.0, _plan(7.0, feasible=False))
        b = _plan(6.0, _plan(None))  # type: ignore[arg-type]
        lines, owners = _lines([a, b])
        assert lines == [a, b]
        assert owners == [0, 1]


class BentFlipsTests:
    """SPEC 7.8 across 7.5's bend, through the flips' bookkeeping."""

    def test_a_bend_on_the_chosen_option_with_two_plans(self):
        a = _option("a")
        # The chosen option: kept plan flat at 0 bending up by 1 a unit at x = 2; other plan 10
        # (never the least). a: 3 flat. Now x = 1: the kept plan reaches 3 at 2 + 3 = 5.
        flips = _Flips([CHOSEN, a], [0.0, 10.0, 3.0], [0, 0, 1])
        flips.add("task.compress_ratio", "F.compress_ratio", "", 1.0, [0.0, 0.0, 0.0], 0.0, 100.0,
                  kinks=[(0, 2.0, 1.0)])  # fmt: skip
        [flip] = flips.found
        assert (flip.flips_at, flip.to, flip.rises) == (5.0, a, True)

    def test_the_lines_of_an_option_with_two_plans(self):
        """The second option's price moves both of its plans' lines (SPEC 7.8), not the chosen
        option's: the chosen (0 and 4, flat) against a (3 and 5, each rising 1 a unit of price):
        a's price must fall by 3 to reach 0, from 10 to 7."""
        a = _option("a")
        flips = _Flips([CHOSEN, a], [0.0, 4.0, 3.0, 5.0], [0, 0, 1, 1])
        assert flips.lines_of(1) == [2, 3]
        slopes = [0.0] * flips.count
        for line in flips.lines_of(1):
            slopes[line] = 1.0
        flips.add("offers[1].price", "F.price", "a", 10.0, slopes, 0.0, 100.0)
        [flip] = flips.found
        assert (flip.flips_at, flip.to, flip.rises) == (7.0, a, False)


# ---------------------------------------------------------------------------------------------
# Through evaluate.

SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "queue_hours": 0},
    {"code": "data", "datacenter": "dc-d", "city": "beijing", "queue_hours": 0},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "queue_hours": 0},
]
# 40 Gbit/s, free, no buffer: 36,000 GB take 36,000 × 8 ÷ (40 × 3600) = 2.0 h.
LINKS = [
    {"from": "data", "to": "far", "bandwidth_gbps": 40, "price_per_gb": 0, "buffer": 0,
     "reservable": True, "reserved": True},
]  # fmt: skip


class RatioAcrossTheBendTests:
    def test_a_compress_ratio_flip_is_solved_past_the_overlap_bend(self):
        """SPEC 7.8 across 7.5's bend in the compress ratio. F at far streams 36,000 × 0.5 =
        18,000 GB: 1.0 h, hidden behind 1.5 h of compute; F = 8 × 1.5 × 2.0 = 24 + 10 × 1.5 =
        39. D at the data moves nothing: 8 × 1.5 × 2.25 = 27 + 15 = 42. The ratio moves nothing
        here (the leg is hidden); past the bend F pays 10 an hour the leg outlasts compute: the
        3 between them buys 0.3 h, a leg of 1.8 h = 2.0 × ratio: ratio 0.9, rising."""
        t = task(workload="data_processing", params_b=None, data_site="data", input_gb=36000,
                 image_gb=0, result_gb=0, compute_hours=1.5, input_delivery="streamed",
                 delay_cost_per_hour=10, compress_ratio=0.5)  # fmt: skip
        data = make_input(t, offers=[offer("F", "far"), offer("D", "data", price=2.25)],
                          sites=SITES, links=LINKS, checklists=answered("F", "D"))  # fmt: skip
        out = evaluate(data)
        assert out["chosen"]["offer"] == "F"
        assert option_of(out, "F")["objective"] == approx(39.0)
        assert option_of(out, "D")["objective"] == approx(42.0)
        [flip] = [f for f in out["sensitivity"] if f["input"] == "task.compress_ratio"]
        assert flip["flips_at"] == approx(0.9)
        assert flip["to"]["offer"] == "D"
        for ratio, chosen in ((0.89, "F"), (0.91, "D")):
            data["task"]["compress_ratio"] = ratio
            assert evaluate(data)["chosen"]["offer"] == chosen


class PackagePriceFlipTests:
    def test_a_new_packages_price_moves_compute_scheduling_and_the_burn_of_reruns(self):
        """SPEC 6.3 with 7.6 and 7.2: a one-off 16 h job on 8 GPUs (one machine). The package
        holds 10 h × 8 GPUs = 80 GPU-hours at a price P, pro-rated P ÷ (10 × 8 × 0.8) = P ÷ 64
        a GPU-hour; the run's 8 × 16 = 128 exceed it by 48, billed at P ÷ 64: compute P + 48P ÷
        64 = 1.75P, plus a 10 % scheduling fee: 1.925P. Failures (0.001 a GPU-hour, 0.5 h lost
        each: half the 1 h checkpoint interval) rerun 0.001 × 8 × 16 × 0.5 = 0.064 h, burning 8
        GPUs at P ÷ 64 beyond the package: 0.008P. Objective 1.933P: 1,933 at P = 1,000. On
        demand at 20: 8 × 16 × 20 = 2,560 + 0.064 × 8 × 20 = 10.24 → 2,570.24. The package's
        price flips the choice where 1.933P = 2,570.24."""
        pkg = offer("pkg", billing_basis="contract", price=1000, contract_hours=10,
                    expected_utilization=0.8, scheduling_fee_pct=10)  # fmt: skip
        data = make_input(task(compute_hours=16), offers=[pkg, offer("od", price=20)],
                          thresholds={"failure_rate_per_gpu_hour": 0.001})  # fmt: skip
        out = evaluate(data)
        assert out["chosen"]["offer"] == "pkg"
        assert option_of(out, "pkg")["objective"] == approx(1933.0)
        assert option_of(out, "od")["objective"] == approx(2570.24)
        [flip] = [f for f in out["sensitivity"] if f["input"] == "offers[0].price"]
        assert flip["flips_at"] == approx(2570.24 / 1.933)
        assert flip["to"]["offer"] == "od"


class EnvelopeTieNowTests:
    def test_a_tie_now_with_a_contender_falling_is_flipped_by_rising(self):
        a = _option("a")
        # SPEC 7.8 solver: a: 0 − 0.5 (x − 10) ties the chosen option now and is below it for
        # every x > 10: the input rises to 10 and past it.
        found = _solve([CHOSEN, a], [0.0, 0.0], 10.0, [0.0, -0.5], 0.0, 100.0, False, [0, 1])
        assert found == (10.0, a, True)

    def test_a_tie_now_with_a_contender_rising_is_flipped_by_falling(self):
        a = _option("a")
        # a: 0.5 (x − 10) is below the chosen option for every x < 10.
        found = _solve([CHOSEN, a], [0.0, 0.0], 10.0, [0.0, 0.5], 0.0, 100.0, False, [0, 1])
        assert found == (10.0, a, False)
