"""SPEC 6.3 sensitivity ("what would flip the choice"): break-even values worked by hand, and the
solver's boundaries exactly at, just inside and just outside an input's range.

The solver (`_solve`) is tested on its own with objective lines given directly: each option's gap
to the chosen one now and its slope in the input's coordinate, so that every crossing, tie and
tie-break is a line of arithmetic. The rest goes through `evaluate`, with inputs whose figures
are round (links moving 0.25 h and costing 0.5 per GB, 8 GPUs) so each break-even is worked in
the comment beside it.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

from engine import evaluate
from engine.sensitivity import Flip, _solve, tell

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    task,
)


def _option(offer_id: str, kind: str = "move_data", site: str = "s") -> Any:
    """What the solver reads of an option: its tie-break (kind, site, offer id)."""
    return SimpleNamespace(kind=kind, site=site, offer=SimpleNamespace(id=offer_id))


CHOSEN = _option("chosen")


def solve(*args: Any) -> tuple:
    """The solver's crossing and the option past it (its direction is tested apart)."""
    at, to, _ = _solve(*args)
    return at, to


def _flip(out: dict[str, Any], path: str) -> dict[str, Any]:
    return next(f for f in out["sensitivity"] if f["input"] == path)


def _pick(offer_id: str, kind: str, site: str) -> dict[str, str]:
    return {"kind": kind, "site": site, "offer": offer_id}


# ---------------------------------------------------------------------------------------------
# The solver: gap_i(x) = gaps[i] + (slopes[i] − slopes[0]) × (x − x0) crosses 0 at
# x = x0 − gaps[i] / (slopes[i] − slopes[0]).


class SolverRangeTests:
    """A crossing counts only within [low, high] of the coordinate, both ends included."""

    def test_it_finds_a_crossing_exactly_at_the_low_end(self):
        a = _option("a")
        # x = 3 − 6 / 2 = 0.0 = low
        assert solve([CHOSEN, a], [0.0, 6.0], 3.0, [0.0, 2.0], 0.0, 10.0, False) == (0.0, a)

    def test_it_finds_a_crossing_just_above_the_low_end(self):
        a = _option("a")
        # x = 3 − 5.5 / 2 = 0.25
        assert solve([CHOSEN, a], [0.0, 5.5], 3.0, [0.0, 2.0], 0.0, 10.0, False) == (0.25, a)

    def test_a_crossing_just_below_the_low_end_is_out_of_range(self):
        # x = 3 − 6.5 / 2 = −0.25 < 0
        assert solve([CHOSEN, _option("a")], [0.0, 6.5], 3.0, [0.0, 2.0], 0.0, 10.0, False) == (
            None,
            None,
        )

    def test_it_finds_a_crossing_exactly_at_the_high_end(self):
        a = _option("a")
        # x = 0.5 − 1 / (−2) = 1.0 = high (a compress ratio of 1)
        assert solve([CHOSEN, a], [0.0, 1.0], 0.5, [0.0, -2.0], 0.0, 1.0, False) == (1.0, a)

    def test_a_crossing_just_above_the_high_end_is_out_of_range(self):
        # x = 0.5 + 1.5 / 2 = 1.25 > 1
        assert solve([CHOSEN, _option("a")], [0.0, 1.5], 0.5, [0.0, -2.0], 0.0, 1.0, False) == (
            None,
            None,
        )

    def test_an_option_out_of_range_does_not_hide_the_next_one(self):
        far, near = _option("far"), _option("near")
        # far: x = 3 − 8 / 2 = −1 (out of range); near: x = 3 − 2 / 2 = 2
        found = solve([CHOSEN, far, near], [0.0, 8.0, 2.0], 3.0, [0.0, 2.0, 2.0], 0.0, 10.0, False)
        assert found == (2.0, near)

    def test_a_parallel_line_never_crosses(self):
        parallel, a = _option("parallel"), _option("a")
        # parallel: slope equal to the chosen one's, skipped; a: x = 3 − 2 / 2 = 2
        found = solve([CHOSEN, parallel, a], [0.0, 1.0, 2.0], 3.0, [1.0, 1.0, 3.0], 0.0, 9.0, False)
        assert found == (2.0, a)

    def test_in_the_reciprocal_coordinate_it_answers_the_input(self):
        a = _option("a")
        # x0 = 1 / 10 Gbit/s; x = 0.1 − 1 / (−20) = 0.15 → a bandwidth of 1 / 0.15 = 6.666667
        at, to = solve([CHOSEN, a], [0.0, 1.0], 0.1, [0.0, -20.0], 1e-12, float("inf"), True)
        assert at == pytest.approx(1 / 0.15, rel=1e-12)
        assert to is a


class SolverNearestTests:
    """The nearest crossing wins; a farther one never joins it."""

    def test_in_the_reciprocal_coordinate_nearest_means_nearest_in_the_input(self):
        up, down = _option("up"), _option("down")
        # Now 10 Gbit/s (x0 = 0.1). up crosses at 15 (x = 1 / 15: gap 0.1 − 1 / 15 at slope +1),
        # 5 away; down at 4 (x = 0.25: gap 0.15 at slope −1), 6 away: up is nearer, though in
        # x it is not (0.033 vs 0.15).
        gaps = [0.0, 0.1 - 1 / 15, 0.15]
        at, to = solve([CHOSEN, up, down], gaps, 0.1, [0.0, 1.0, -1.0], 1e-12, 1e12, True)
        assert (at, to) == (pytest.approx(15.0, rel=1e-9), up)
        # up at 13 (3 away), down at 8 (x = 0.125: gap 0.025), 2 away: down is nearer.
        gaps = [0.0, 0.1 - 1 / 13, 0.025]
        at, to = solve([CHOSEN, up, down], gaps, 0.1, [0.0, 1.0, -1.0], 1e-12, 1e12, True)
        assert (at, to) == (pytest.approx(8.0, rel=1e-9), down)

    def test_the_nearest_crossing_wins_whatever_its_steepness(self):
        near, far = _option("near"), _option("far")
        # near: x = 10 + 2 / 1 = 12 (distance 2); far: x = 10 + 16 / 4 = 14 (distance 4), though
        # far's line falls 4× faster: only near flips the choice at 12.
        found = solve(
            [CHOSEN, near, far], [0.0, 2.0, 16.0], 10.0, [0.0, -1.0, -4.0], 0.0, 100.0, False
        )
        assert found == (12.0, near)

    def test_the_nearest_crossing_wins_when_it_comes_second(self):
        far, near = _option("far"), _option("near")
        # far: x = 10 + 16 / 4 = 14; near: x = 10 + 2 / 1 = 12
        found = solve(
            [CHOSEN, far, near], [0.0, 16.0, 2.0], 10.0, [0.0, -4.0, -1.0], 0.0, 100.0, False
        )
        assert found == (12.0, near)


class SolverTieBreakTests:
    """Several lines crossing at the same point: past it the steepest wins (its gap falls
    fastest in the direction of the move), then the choice's own tie-break."""

    def test_rising_past_a_shared_crossing_the_steepest_falling_line_wins(self):
        steep, gentle = _option("steep"), _option("gentle")
        # steep: x = 10 + 8 / 4 = 12; gentle: x = 10 + 4 / 2 = 12. Just past 12 steep's gap is
        # 8 − 4 × (x − 10) < gentle's 4 − 2 × (x − 10): steep is chosen, in either order.
        lines = ([0.0, 8.0, 4.0], 10.0, [0.0, -4.0, -2.0])
        assert solve([CHOSEN, steep, gentle], *lines, 0.0, 100.0, False) == (12.0, steep)
        lines = ([0.0, 4.0, 8.0], 10.0, [0.0, -2.0, -4.0])
        assert solve([CHOSEN, gentle, steep], *lines, 0.0, 100.0, False) == (12.0, steep)

    def test_falling_past_a_shared_crossing_the_steepest_rising_line_wins(self):
        gentle, steep = _option("gentle"), _option("steep")
        # gentle: x = 10 − 2 / 1 = 8; steep: x = 10 − 6 / 3 = 8. Just below 8 steep's gap
        # 6 + 3 × (x − 10) is the lower: steep is chosen.
        lines = ([0.0, 2.0, 6.0], 10.0, [0.0, 1.0, 3.0])
        assert solve([CHOSEN, gentle, steep], *lines, 0.0, 100.0, False) == (8.0, steep)

    def test_a_tie_now_flips_towards_the_contender_whose_line_rises_fastest(self):
        # Both tie with the chosen option now (gap 0, crossing at x0 = 10). The first line rises
        # (+0.5 per unit), so the flip is a move down, where the faster-rising line falls below
        # first: a (0.5) before b (0.25), though b comes first in the tie-break ("a1" < "b1").
        a, b = _option("b1"), _option("a1")
        lines = ([0.0, 0.0, 0.0], 10.0, [0.0, 0.5, 0.25])
        assert solve([CHOSEN, a, b], *lines, 0.0, 100.0, False) == (10.0, a)

    def test_a_tie_now_flips_towards_the_contender_whose_line_falls_fastest(self):
        # The first line falls (−0.5 per unit): the flip is a move up, where the faster-falling
        # line drops below first: a (−0.5) before b (−0.25).
        a, b = _option("b1"), _option("a1")
        lines = ([0.0, 0.0, 0.0], 10.0, [0.0, -0.5, -0.25])
        assert solve([CHOSEN, a, b], *lines, 0.0, 100.0, False) == (10.0, a)

    def test_a_tie_now_follows_the_first_contender_when_the_lines_disagree(self):
        # a rises (+0.5), b falls (−0.25), both tied now. The first contender's line rises, so
        # the flip is a move down, where a falls below first (b rises): a, not b.
        a, b = _option("b1"), _option("a1")
        lines = ([0.0, 0.0, 0.0], 10.0, [0.0, 0.5, -0.25])
        assert solve([CHOSEN, a, b], *lines, 0.0, 100.0, False) == (10.0, a)

    def test_equal_steepness_falls_to_the_choice_tie_break(self):
        # Same crossing (x = 12), same slope: kind first (wait_local before move_data), then site.
        local, away = _option("z", kind="wait_local"), _option("a", kind="move_data")
        lines = ([0.0, 4.0, 4.0], 10.0, [0.0, -2.0, -2.0])
        assert solve([CHOSEN, away, local], *lines, 0.0, 100.0, False) == (12.0, local)


# ---------------------------------------------------------------------------------------------
# Through evaluate: three sites, every link 0.01 Gbit/s with buffer 0.125 and 0.5 per GB, so a
# GB moves in 8 / (0.01 × 3600) × 1.125 = 0.25 h and costs 0.5.

ROUND_SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 1.5},
    {"code": "data", "datacenter": "dc-d", "city": "beijing", "hub": "north", "queue_hours": 0},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "hub": "west", "queue_hours": 0},
]
ROUND_LINK = {"bandwidth_gbps": 0.01, "buffer": 0.125, "price_per_gb": 0.5}
ROUND_LINKS = [
    {"from": "data", "to": "home", **ROUND_LINK},
    {"from": "data", "to": "far", **ROUND_LINK},
    {"from": "home", "to": "far", **ROUND_LINK},
]


def _moving(home_queue: float = 1.5, local_price: float = 1.0875, **task_fields: Any):
    """`far` (offers[0], 1.0 per GPU-hour) and `local` at home (offers[1]); 8 GPUs for 10 h;
    waiting is worth 2 per hour; the data (40 GB, compressed to 0.5) lives at `data`, results
    (8 GB → 4) go home, the image (4 GB) comes from home.
      far:   input data→far 20 GB: 5 h, 10; image home→far 4 GB: 1 h, 2; results far→home
             4 GB: 1 h, 2. Cost 80 + 14 = 94; hours 7 + 0 + 10 = 17; objective 94 + 34 = 128
      local: input data→home 20 GB: 5 h, 10. Cost 8 × 10 × 1.0875 + 10 = 97; hours 5 + 1.5
             + 10 = 16.5; objective 97 + 33 = 130
    far is chosen, 2 ahead of local."""
    sites = [dict(site) for site in ROUND_SITES]
    sites[0]["queue_hours"] = home_queue
    fields = {
        "compute_hours": 10,
        "gpus": 8,
        "delay_cost_per_hour": 2,
        "data_site": "data",
        "input_gb": 40,
        "compress_ratio": 0.5,
        "result_gb": 8,
        "image_gb": 4,
        **task_fields,
    }
    return make_input(
        task(**fields),
        offers=[offer("far", "far", price=1.0), offer("local", "home", price=local_price)],
        sites=sites,
        links=ROUND_LINKS,
    )


class MovingDataFlipTests:
    def test_far_is_chosen_two_ahead_of_local(self):
        out = evaluate(_moving())
        assert out["chosen"] == _pick("far", "move_data", "far")
        assert out["runner_up"] == _pick("local", "wait_local", "home")
        assert [o["objective"] for o in out["options"]] == [128.0, 130.0]

    def test_the_compress_ratio_flips_above_where_far_moves_more(self):
        flip = _flip(evaluate(_moving()), "task.compress_ratio")
        # Per unit of ratio (input and results legs, not the image): far (10 + 2 × 5) + (2 + 2
        # × 1) = 24 per 0.5, 48; local (10 + 2 × 5) / 0.5 = 40. The gap closes by 8 per unit:
        # 0.5 + 2 / 8 = 0.75. (At 0.75: far 100 + 2 × 20 = 140, local 102 + 2 × 19 = 140.)
        assert flip["current"] == 0.5
        assert flip["flips_at"] == pytest.approx(0.75, abs=1e-9)
        assert flip["to"] == _pick("local", "wait_local", "home")

    def test_the_compress_ratio_flips_below_when_the_faster_option_is_chosen(self):
        # local at 1.05: 84 + 10 = 94, + 2 × 16.5 = 127, chosen 1 ahead of far (128). far moves
        # 8 more per unit of ratio (48 − 40), so a smaller ratio favours it: 0.5 − 1 / 8 = 0.375
        # (at 0.375: far 80 + 7.5 + 2 + 1.5 + 2 × (3.75 + 1 + 0.75 + 10) = 122; local 84 + 7.5
        # + 2 × (3.75 + 1.5 + 10) = 122).
        flip = _flip(evaluate(_moving(local_price=1.05)), "task.compress_ratio")
        assert flip["flips_at"] == pytest.approx(0.375, abs=1e-9)
        assert flip["to"] == _pick("far", "move_data", "far")

    def test_the_image_does_not_scale_with_the_compress_ratio(self):
        # An 8 GB image: far 80 + 10 + 4 + 2 = 96, hours 5 + 2 + 1 + 10 = 18: 96 + 36 = 132, so
        # local (130) is chosen, 2 ahead. The ratio moves far by 48 per unit as before (the
        # image is not compressed), local by 40: 0.5 − 2 / 8 = 0.25 (at 0.25: far 80 + 5 + 4 +
        # 1 + 2 × 15 = 120, local 87 + 5 + 2 × 14 = 120).
        flip = _flip(evaluate(_moving(image_gb=8)), "task.compress_ratio")
        assert flip["flips_at"] == pytest.approx(0.25, abs=1e-9)
        assert flip["to"] == _pick("far", "move_data", "far")

    def test_the_home_queue_flips_below_one_hour(self):
        flip = _flip(evaluate(_moving()), "sites[0].queue_hours")
        # local waits the queue at 2 per hour: 1.5 − 2 / 2 = 0.5 (local 97 + 2 × 15.5 = 128)
        assert flip["current"] == 1.5
        assert flip["flips_at"] == pytest.approx(0.5, abs=1e-9)
        assert flip["to"] == _pick("local", "wait_local", "home")

    def test_the_delay_cost_flips_above_where_far_waits_longer(self):
        flip = _flip(evaluate(_moving()), "task.delay_cost_per_hour")
        # far waits 17 h, local 16.5: the gap closes 0.5 per unit: 2 + 2 / 0.5 = 6 (far 94 + 102
        # = 196, local 97 + 99 = 196)
        assert flip["flips_at"] == pytest.approx(6.0, abs=1e-9)

    def test_the_delay_cost_flips_below_one(self):
        # local at 1.055: 84.4 + 10 + 2 × 16.5 = 127.4, chosen 0.6 ahead of far (128). local
        # waits 0.5 h less, so a cheaper hour of waiting favours far: 2 − 0.6 / 0.5 = 0.8.
        flip = _flip(evaluate(_moving(local_price=1.055)), "task.delay_cost_per_hour")
        assert flip["flips_at"] == pytest.approx(0.8, abs=1e-9)
        assert flip["to"] == _pick("far", "move_data", "far")

    def test_the_delay_cost_flips_exactly_at_zero(self):
        # local at 1.05: 127, 1 ahead: 2 − 1 / 0.5 = 0, the low end of the range, included
        flip = _flip(evaluate(_moving(local_price=1.05)), "task.delay_cost_per_hour")
        assert flip["flips_at"] == pytest.approx(0.0, abs=1e-9)
        assert flip["to"] == _pick("far", "move_data", "far")

    def test_the_local_input_link_flips_when_its_bandwidth_rises(self):
        flip = _flip(evaluate(_moving()), "links[0].bandwidth_gbps")
        # local's 20 GB over data–home take 5 h at 0.01 Gbit/s, 0.05 / bw h: it wins when
        # 2 × 0.05 / bw < 2 × 5 − 2 → bw > 0.1 / 8 = 0.0125 (at 0.0125: 4 h, 97 + 31 = 128)
        assert flip["current"] == pytest.approx(0.01, rel=1e-12)
        assert flip["flips_at"] == pytest.approx(0.0125, rel=1e-9)
        assert flip["to"] == _pick("local", "wait_local", "home")

    def test_the_far_input_link_price_flips_above(self):
        flip = _flip(evaluate(_moving()), "links[1].price_per_gb")
        # far moves 20 GB over data–far: 0.5 + 2 / 20 = 0.6
        assert flip["flips_at"] == pytest.approx(0.6, abs=1e-9)

    def test_a_told_link_price_flip_names_its_link(self):
        # Every link at 5 per GB: far pays 20 × 5 + 4 × 5 + 4 × 5 = 140 to move, 80 + 140 = 220,
        # + 2 × 17 = 254; local 20 × 5 = 100 + 87 = 187, + 2 × 16.5 = 220: local is chosen, 34
        # ahead. Its input crosses data–home (20 GB): 5 + 34 / 20 = 6.7; far's crosses data–far:
        # 5 − 34 / 20 = 3.3. Both are among the three nearest, told with their link's name.
        data = _moving()
        for link in data["links"]:
            link["price_per_gb"] = 5.0
        out = evaluate(data)
        assert out["chosen"] == _pick("local", "wait_local", "home")
        home, far = _flip(out, "links[0].price_per_gb"), _flip(out, "links[1].price_per_gb")
        assert (home["flips_at"], home["rank"]) == (pytest.approx(6.7, abs=1e-9), 1)
        assert (far["flips_at"], far["rank"]) == (pytest.approx(3.3, abs=1e-9), 2)
        assert home["message"] == (
            "If transfer over data–home costs more than 6.7 per GB (now 5), the choice flips "
            "to: move the data at far (far)."
        )
        assert far["message_zh"].startswith("若 data–far 链路的传输单价低于每 GB 3.3")

    def test_a_link_carrying_two_legs_counts_both(self):
        out = evaluate(_moving())
        # home–far carries far's image (4 GB, 1 h) and its results (4 GB, 1 h): 8 GB and 2 h.
        # Price: 0.5 + 2 / 8 = 0.75. Bandwidth: 2 × 2 h × 0.01 = 0.04 per unit of 1 / bw, so
        # 1 / bw = 100 + 2 / 0.04 = 150: below 1 / 150 = 0.006667 Gbit/s local wins.
        assert _flip(out, "links[2].price_per_gb")["flips_at"] == pytest.approx(0.75, abs=1e-9)
        bandwidth = _flip(out, "links[2].bandwidth_gbps")
        assert bandwidth["flips_at"] == pytest.approx(1 / 150, rel=1e-9)
        assert bandwidth["to"] == _pick("local", "wait_local", "home")

    def test_prices_are_listed_in_offer_order(self):
        out = evaluate(_moving())
        prices = [f["input"] for f in out["sensitivity"] if f["input"].startswith("offers")]
        assert prices == ["offers[0].price", "offers[1].price"]
        # far: 80 per unit, 1 + 2 / 80 = 1.025; local: 1.0875 − 2 / 80 = 1.0625
        assert _flip(out, "offers[0].price")["flips_at"] == pytest.approx(1.025, abs=1e-9)
        assert _flip(out, "offers[1].price")["flips_at"] == pytest.approx(1.0625, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Preemptible capacity: `a` bills machine-hours (16 per 8-GPU machine: 2 per GPU-hour) and is
# preempted 0.5 times a day; `b` is on demand at 5 per GPU-hour and twice as fast. Both at home,
# 24 h of compute on 8 GPUs, no delay cost.
#   a: 8 × 24 × 2 = 384, plus preemption 0.5 × 24 / 24 × 0.5 h × 8 × 2 = 4: 388
#   b: 8 × 12 × 5 = 480 → a is chosen, 92 ahead.


def _preemptible(price: float = 16.0, **task_fields: Any) -> dict[str, Any]:
    fields = {"compute_hours": 24, "gpus": 8, **task_fields}
    return make_input(
        task(**fields),
        offers=[
            offer("a", billing_basis="machine_hour", price=price, preemptible=True,
                  preemptions_per_day=0.5),
            offer("b", price=5.0, relative_speed=2.0),
        ],
    )  # fmt: skip


class PreemptiblePriceFlipTests:
    def test_a_preemptible_price_counts_its_preemption_cost(self):
        out = evaluate(_preemptible())
        assert out["chosen"]["offer"] == "a"
        flip = _flip(out, "offers[0].price")
        # Per unit of machine price (1 / 8 per GPU-hour): 8 × 24 / 8 = 24 of compute, plus the
        # preemption cost 4 per effective price 2, × 1 / 8 = 0.25: 24.25. 16 + 92 / 24.25
        assert flip["flips_at"] == pytest.approx(16 + 92 / 24.25, abs=1e-9)
        assert flip["flips_at"] == pytest.approx(19.793814, abs=1e-6)

    def test_a_free_preemptible_price_counts_its_preemption_rate(self):
        out = evaluate(_preemptible(price=0.0))
        assert out["chosen"]["offer"] == "a"
        flip = _flip(out, "offers[0].price")
        # At price 0 a costs 0, b 480. Per unit: 24 of compute, plus 0.5 preemptions × 24 / 24
        # × 0.5 h lost × 8 GPUs = 2 per unit of GPU-hour price, × 1 / 8 = 0.25: 480 / 24.25
        assert flip["flips_at"] == pytest.approx(480 / 24.25, abs=1e-9)

    def test_a_free_preemptible_price_of_a_task_that_cannot_resume(self):
        out = evaluate(_preemptible(price=0.0, resumable=False, interruption_cost_hours=3))
        flip = _flip(out, "offers[0].price")
        # SPEC 7.3 renewal (2.2 charged 3 h a preemption: 480 / 25.5 = 18.823529): λ = 0.5 a
        # day × 1 machine ÷ 24 = 1/48 an hour, λT = 24 / 48 = 0.5; expected wall time
        # (e^0.5 − 1) ÷ λ = 48 × 0.648721 = 31.138621 h, 7.138621 h of them lost. Per unit of
        # machine price (1 / 8 per GPU-hour) × 8 GPUs × 31.138621 h = 31.138621:
        # 480 / 31.138621 = 15.414941
        assert flip["flips_at"] == pytest.approx(480 / (48 * (math.e**0.5 - 1)), abs=1e-9)
        assert flip["flips_at"] == pytest.approx(15.414941, abs=1e-6)

    def test_a_longer_checkpoint_interval_loses_more(self):
        out = evaluate(_preemptible(price=0.0, checkpoint_interval_hours=3))
        flip = _flip(out, "offers[0].price")
        # Half of a 3 h interval: 0.5 × 1 × 1.5 × 8 = 6, × 1 / 8 = 0.75; 480 / 24.75
        assert flip["flips_at"] == pytest.approx(480 / 24.75, abs=1e-9)

    def test_the_on_demand_runner_up_price_flips_below(self):
        flip = _flip(evaluate(_preemptible()), "offers[1].price")
        # b: 8 × 12 = 96 per unit: 5 − 92 / 96 = 4.041667
        assert flip["flips_at"] == pytest.approx(5 - 92 / 96, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Ranking and wording: relative moves first, then absolute ones (inputs now at zero).


def _cheap_at_home() -> dict[str, Any]:
    """`home` (an offer named like the home site, 0.01 per GPU-hour) at home, queue 0; `b` at
    far, 0.02; nothing moves (no input, image or results); 8 GPUs for 10 h at 10 per hour of
    waiting. home: 0.8 + 10 × 10 = 100.8; b: 1.6 + 100 = 101.6: home is chosen, 0.8 ahead."""
    sites = [dict(site, queue_hours=0) for site in ROUND_SITES]
    t = task(compute_hours=10, gpus=8, delay_cost_per_hour=10, image_gb=0)
    offers = [offer("home", "home", price=0.01, name="Home box"), offer("b", "far", price=0.02)]
    return make_input(t, offers=offers, sites=sites, links=ROUND_LINKS)


class RankTests:
    def test_relative_moves_rank_before_an_absolute_one_however_small(self):
        out = evaluate(_cheap_at_home())
        assert out["chosen"]["offer"] == "home"
        queue = _flip(out, "sites[0].queue_hours")
        # home waits its queue at 10 per hour: 0 + 0.8 / 10 = 0.08 h, an absolute move of 0.08
        assert queue["flips_at"] == pytest.approx(0.08, abs=1e-9)
        # prices: home 0.01 + 0.8 / 80 = 0.02 (a relative move of 1.0), b 0.02 − 0.01 = 0.01
        # (0.5): b's price first, then home's, then the queue (from zero), smaller as it is.
        assert _flip(out, "offers[1].price")["rank"] == 1
        assert _flip(out, "offers[0].price")["rank"] == 2
        assert queue["rank"] == 3

    def test_a_site_is_named_by_its_code_even_when_an_offer_has_that_id(self):
        queue = _flip(evaluate(_cheap_at_home()), "sites[0].queue_hours")
        assert queue["message"] == (
            "If the home queue rises above 0.08 h (now 0 h), the choice flips to: "
            "move the data at far (b)."
        )


class BandwidthRangeTests:
    def test_a_bandwidth_flip_up_to_1e12_gbit_s_is_found(self):
        # Free compute (price 0) at home behind a queue of 1 / 7.5e11 h, against `far`, which
        # waits for a 450 GB image over a 1 Gbit/s link without buffer: 450 × 8 / 3600 = 1 h.
        # Both run 1 h; waiting is worth 1 per hour. far wins once its image takes less than the
        # home queue: bandwidth > 1 / (1 / 7.5e11) = 7.5e11 Gbit/s, inside the 1e12 limit.
        sites = [dict(site, queue_hours=0) for site in ROUND_SITES]
        sites[0]["queue_hours"] = 1 / 7.5e11
        link = {"from": "home", "to": "far", "bandwidth_gbps": 1, "buffer": 0, "price_per_gb": 0}
        t = task(compute_hours=1, gpus=8, delay_cost_per_hour=1, image_gb=450)
        data = make_input(
            t,
            offers=[offer("local", "home", price=0.0), offer("far", "far", price=0.0)],
            sites=sites,
            links=[link],
        )
        out = evaluate(data)
        assert out["chosen"]["offer"] == "local"
        flip = _flip(out, "links[0].bandwidth_gbps")
        assert flip["flips_at"] == pytest.approx(7.5e11, rel=1e-3)
        assert flip["to"] == _pick("far", "move_data", "far")


class SolverDirectionTests:
    """Which way the input moves to flip: away from now towards the crossing, or, at a tie now,
    the way the contender's gap turns negative; in 1 / the input, a step up is a fall."""

    def test_a_crossing_above_now_is_reached_by_rising(self):
        a = _option("a")
        # x = 10 + 4 / 2 = 12 > 10
        assert _solve([CHOSEN, a], [0.0, 4.0], 10.0, [0.0, -2.0], 0.0, 100.0, False) == (
            12.0,
            a,
            True,
        )

    def test_a_crossing_below_now_is_reached_by_falling(self):
        a = _option("a")
        # x = 10 − 4 / 2 = 8 < 10
        assert _solve([CHOSEN, a], [0.0, 4.0], 10.0, [0.0, 2.0], 0.0, 100.0, False) == (
            8.0,
            a,
            False,
        )

    def test_in_the_reciprocal_coordinate_a_step_up_is_a_fall_of_the_input(self):
        a = _option("a")
        # x = 0.5 + 1 / 2 = 1 in 1 / bandwidth: bandwidth 1 / 1 = 1, from 1 / 0.5 = 2: falling
        assert _solve([CHOSEN, a], [0.0, 1.0], 0.5, [0.0, -2.0], 0.01, 100.0, True) == (
            1.0,
            a,
            False,
        )

    def test_a_tie_now_whose_contender_line_rises_is_flipped_by_falling(self):
        a = _option("a")
        # gap_a(x) = 0 + 0.5 × (x − 10) < 0 only for x < 10
        assert _solve([CHOSEN, a], [0.0, 0.0], 10.0, [0.0, 0.5], 0.0, 100.0, False) == (
            10.0,
            a,
            False,
        )

    def test_a_tie_now_whose_contender_line_falls_is_flipped_by_rising(self):
        a = _option("a")
        # gap_a(x) = −0.5 × (x − 10) < 0 only for x > 10: the input rises to 10 and past it
        assert _solve([CHOSEN, a], [0.0, 0.0], 10.0, [0.0, -0.5], 0.0, 100.0, False) == (
            10.0,
            a,
            True,
        )

    def test_a_tie_now_in_the_reciprocal_coordinate(self):
        a = _option("a")
        # gap_a(x) = 0.5 × (x − 0.5) < 0 for x < 0.5: 1 / bandwidth falls, the bandwidth rises
        assert _solve([CHOSEN, a], [0.0, 0.0], 0.5, [0.0, 0.5], 0.01, 100.0, True) == (2.0, a, True)


class TellTests:
    def test_a_tie_now_says_which_way_the_input_must_move(self):
        to = SimpleNamespace(kind="wait_local", site="home", offer=SimpleNamespace(id="7"))
        rising = Flip("sites[0].queue_hours", 4.2, 4.2, to, "F.queue", "home", rank=1, rises=True)
        falling = Flip("sites[0].queue_hours", 4.2, 4.2, to, "F.queue", "home", rank=2)
        tell([rising, falling], {"7": "H100 x8"})
        assert rising.message is not None and rising.message.startswith(
            "If the home queue rises above 4.2 h (now 4.2 h), the choice flips to:"
        )
        assert falling.message is not None and falling.message.startswith(
            "If the home queue drops below 4.2 h (now 4.2 h)"
        )
        assert "升到" in (rising.message_zh or "") and "降到" in (falling.message_zh or "")
