"""SPEC 7.8 exact flips: `sensitivity.flips_at` is solved on each option's lower envelope of its
plans (raw and staged, SPEC 6.4), so it stays exact when an option switches plan on the way; and
break-even values stay exact when the transfers that move them are tiny.

Engine 2.2 solved each option's kept plan as if it were its only one: a flip value could lie
past the point where the option's other plan took over (82 % off in the issue's case), or be
missed when only the other plan crosses. Every expected figure is worked by hand beside it.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest

from engine import evaluate
from engine.sensitivity import _solve

from .engine_fixtures import (
    LINKS,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    make_input,
    offer,
    staged_task,
    task,
)


def _option(offer_id: str) -> Any:
    """What the solver reads of an option: its tie-break (kind, site, offer id)."""
    return SimpleNamespace(kind="move_data", site="s", offer=SimpleNamespace(id=offer_id))


def _flip(out: dict[str, Any], path: str) -> dict[str, Any]:
    return next(f for f in out["sensitivity"] if f["input"] == path)


CHOSEN = _option("chosen")


class EnvelopeSolverTests:
    """SPEC 7.8 in the solver: line j is gaps[j] + slopes[j] × (x − x0) and belongs to option
    owners[j]; an option's objective is the least of its lines."""

    def test_the_chosen_options_other_plan_holds_it_past_its_kept_plans_crossing(self):
        a = _option("a")
        # The chosen option: kept plan 0 + x, other plan 3 − x (its envelope peaks at 1.5 at
        # x = 1.5). a: 2 flat. a's line crosses the kept plan at x = 2 (2.2's answer), but by
        # then the other plan (3 − 2 = 1) holds the chosen option below 2: a never wins.
        found = _solve([CHOSEN, a], [0.0, 3.0, 2.0], 0.0, [1.0, -1.0, 0.0], 0.0, 100.0, False,
                       [0, 0, 1])  # fmt: skip
        assert found == (None, None, False)

    def test_the_contenders_other_plan_crossing_first_flips_it(self):
        a = _option("a")
        # The chosen option flat at 0. a's kept plan 4 − x crosses at x = 4; its other plan
        # 6 − 3x at x = 6 / 3 = 2, nearer: the flip is at 2, the input rising.
        found = _solve([CHOSEN, a], [0.0, 4.0, 6.0], 0.0, [0.0, -1.0, -3.0], 0.0, 100.0, False,
                       [0, 1, 1])  # fmt: skip
        assert found == (2.0, a, True)

    def test_a_line_touching_the_chosen_envelope_at_its_kink_does_not_flip(self):
        a = _option("a")
        # The chosen option: min(x, 2) (kept plan x, other plan 2 flat). a: 1 + x / 2 meets it
        # at x = 2 only (1 + 1 = 2), above it on both sides: no flip (2.2 answered 2).
        found = _solve([CHOSEN, a], [0.0, 2.0, 1.0], 0.0, [1.0, 0.0, 0.5], 0.0, 100.0, False,
                       [0, 0, 1])  # fmt: skip
        assert found == (None, None, False)


def _staged_world(link_price: float, d_price: float) -> dict[str, Any]:
    """SPEC 6.4's staged world (5,000 GB raw at `data`, 200 GB processed in 2 h at 5 an hour; 8
    GPUs × 10 h; no delay cost): F at far (1.0 per GPU-hour: 80 of compute), D at data
    (d_price: 80 × d_price, no legs). The data → far link costs `link_price` per GB (links[1]):
      F raw    = 80 + 5000 × price
      F staged = 80 + 200 × price + 2 × 5 = 90 + 200 × price
    the two plans cross at 4800 × price = 10: price = 1 / 480 = 0.002083."""
    links = copy.deepcopy(LINKS)
    links[1]["price_per_gb"] = link_price
    return make_input(
        staged_task(),
        offers=[offer("F", "far", price=1.0), offer("D", "data", price=d_price)],
        checklists=answered("F", "D"),
        links=links,
    )


class StagedFlipTests:
    """SPEC 7.8 through evaluate: the option switches plan before the decision flips."""

    def test_the_chosen_option_turns_staged_before_the_link_price_flips_it(self):
        out = evaluate(_staged_world(link_price=0.001, d_price=1.25))
        # F raw 80 + 5 = 85 (staged 90.2), D 80 × 1.25 = 100: F chosen raw, 15 ahead.
        assert out["chosen"]["offer"] == "F"
        assert [o["plan"] for o in out["options"]] == ["raw", None]
        flip = _flip(out, "links[1].price_per_gb")
        # 2.2 followed the raw line: 80 + 5000 × p = 100 at p = 0.004. Past p = 1 / 480 F runs
        # staged, 90 + 200 × p = 100 at p = 10 / 200 = 0.05 (12.5 × as far).
        assert flip["flips_at"] == pytest.approx(0.05, rel=1e-12)
        assert flip["to"] == {"kind": "move_compute", "site": "data", "offer": "D"}
        assert "0.05 per GB" in flip["message"]

    def test_the_runner_up_turning_raw_flips_the_choice_as_the_link_price_falls(self):
        out = evaluate(_staged_world(link_price=0.01, d_price=1.025))
        # F staged 90 + 2 = 92 (raw 80 + 50 = 130), D 80 × 1.025 = 82: D chosen, 10 ahead.
        assert out["chosen"]["offer"] == "D"
        flip = _flip(out, "links[1].price_per_gb")
        # 2.2 followed the staged line: 90 + 200 × p never drops to 82 for p ≥ 0 (no flip).
        # Below p = 1 / 480 F runs raw: 80 + 5000 × p = 82 at p = 2 / 5000 = 0.0004.
        assert flip["flips_at"] == pytest.approx(0.0004, rel=1e-12)
        assert flip["to"] == {"kind": "move_data", "site": "far", "offer": "F"}

    def test_the_compress_ratio_flips_through_the_raw_plan(self):
        out = evaluate(_staged_world(link_price=0.01, d_price=1.025))
        flip = _flip(out, "task.compress_ratio")
        # At ratio r: F raw 80 + 5000 × r × 0.01 = 80 + 50r, staged 90 + 2r; D 82. The staged
        # line never reaches 82 for r ≥ 0; the raw one does at r = 2 / 50 = 0.04.
        assert flip["flips_at"] == pytest.approx(0.04, rel=1e-12)
        assert flip["to"] == {"kind": "move_data", "site": "far", "offer": "F"}


# ---------------------------------------------------------------------------------------------
# Tiny transfers: a slope of 1e-6 must not be lost against a constant added to every option's
# (1 + 1e-6 − 1 is not 1e-6 in floating point): only differences of slopes enter a break-even.

TINY_SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 8},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "hub": "west", "queue_hours": 0},
]
# A GB over home → far takes 8 × 1.125 / (0.01 × 3600) = 0.25 h.
TINY_LINK = {"from": "home", "to": "far", "bandwidth_gbps": 0.01, "buffer": 0.125,
             "price_per_gb": 0.5}  # fmt: skip


def _tiny(delay: float = 1.0, far_price: float = 1.0, local_price: float = 1.0,
          link_price: float = 0.5, **fields: Any) -> dict[str, Any]:  # fmt: skip
    """1e-6 GB of input at home; `far` (at far) ships it, `local` (at home) waits 8 h of queue;
    8 GPUs × 10 h; nothing else moves."""
    t = task(compute_hours=10, gpus=8, delay_cost_per_hour=delay, input_gb=1e-6, image_gb=0,
             result_gb=0, **fields)  # fmt: skip
    offers = [offer("far", "far", price=far_price), offer("local", "home", price=local_price)]
    links = [dict(TINY_LINK, price_per_gb=link_price)]
    return make_input(t, offers=offers, sites=copy.deepcopy(TINY_SITES), links=links)


class TinyTransferFlipTests:
    # far: 80 + 1e-6 × 0.5 = 80.0000005 and 10 + 1e-6 × 0.25 = 10.00000025 h: 90.00000075;
    # local: 80 + 1 × (8 + 10) = 98. far is chosen, 7.99999925 ahead.

    def test_the_link_price_flips_at_the_gap_over_a_millionth_of_a_gb(self):
        flip = _flip(evaluate(_tiny()), "links[0].price_per_gb")
        # 0.5 + 7.99999925 / 1e-6 = 0.5 + 7999999.25 = 7999999.75
        assert flip["flips_at"] == pytest.approx(7999999.75, abs=1e-6)
        assert flip["to"]["offer"] == "local"

    def test_the_bandwidth_flips_where_the_tiny_leg_eats_the_gap(self):
        flip = _flip(evaluate(_tiny()), "links[0].bandwidth_gbps")
        # far's leg takes 1e-6 × 8 × 1.125 / 3600 = 2.5e-9 h per unit of 1 / bandwidth, at 1 per
        # hour: 1 / bw = 1 / 0.01 + 7.99999925 / 2.5e-9 = 100 + 3199999700 = 3199999800
        assert flip["flips_at"] == pytest.approx(1 / 3199999800, rel=1e-11, abs=0)
        assert flip["to"]["offer"] == "local"

    def test_the_compress_ratio_flips_on_a_millionth_of_a_gb(self):
        # No delay cost, far's compute free, local's at 1e-8 per GPU-hour: local 8 × 10 × 1e-8
        # = 8e-7; far ships 1e-6 × 0.5 = 5e-7 GB at 1.0 per GB = 5e-7, 1e-6 per unit of ratio.
        out = evaluate(_tiny(delay=0, far_price=0.0, local_price=1e-8, link_price=1.0,
                             compress_ratio=0.5))  # fmt: skip
        assert out["chosen"]["offer"] == "far"
        flip = _flip(out, "task.compress_ratio")
        # 0.5 + (8e-7 − 5e-7) / 1e-6 = 0.5 + 0.3 = 0.8
        assert flip["flips_at"] == pytest.approx(0.8, rel=1e-12)
