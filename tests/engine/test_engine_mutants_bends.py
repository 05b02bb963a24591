"""SPEC 7.5 and 7.8: objective lines that bend where a streamed input leg starts to outlast
compute, solved piece by piece (issues 32, 37). The pieces are given by hand: line j is
gaps[j] + slopes[j] × (x − x0) now, and a kink (line, at, rise) adds rise × max(0, x − at) to it
(a kink below now is already in slopes[j], one at now or above is not). Then the slopes and
bends that a streamed leg gives, worked from its hours."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine.sensitivity import _solve
from engine.sensitivity_bends import slopes_of, solve_bent

from .engine_fixtures import _eager_celery_and_clean_cache  # noqa: F401 - no Django needed


def _option(offer_id: str) -> Any:
    """What the solver reads of an option: its tie-break (kind, site, offer id)."""
    return SimpleNamespace(kind="move_data", site="s", offer=SimpleNamespace(id=offer_id))


CHOSEN = _option("chosen")
A, B = _option("a"), _option("b")


def bent(gaps, x0, slopes, kinks, low=0.0, high=100.0, reciprocal=False, owners=None):
    everyone = [CHOSEN, A, B][: len(gaps) if owners is None else max(owners) + 1]
    return solve_bent(_solve, everyone, gaps, owners, x0, slopes, low, high, reciprocal, kinks)


class OneBendTests:
    def test_a_bend_above_now_on_a_rising_line(self):
        # Chosen: 0.5 (x − 1), bending up by 1 more at 3: 1 there, then 1 + 1.5 (x − 3). a: 2
        # flat. 1 + 1.5 (x − 3) = 2 at x = 3 + 1 ÷ 1.5 = 11 / 3.
        assert bent([0.0, 2.0], 1.0, [0.5, 0.0], [(0, 3.0, 1.0)]) == (11 / 3, A, True)

    def test_a_bend_at_now_is_not_in_the_slope_yet(self):
        # Chosen: max(0, x − 2), now 2 (flat below, slope 0 now). a: 1 flat: crossed at 3,
        # rising; below now the chosen line stays at 0 and a never passes it.
        assert bent([0.0, 1.0], 2.0, [0.0, 0.0], [(0, 2.0, 1.0)]) == (3.0, A, True)

    def test_a_bend_below_now_is_in_the_slope_already(self):
        # Chosen: max(0, x − 2) − 2, now 4 (slope 1 now, flat at −2 below 2). a: 1 flat:
        # x − 4 = 1 at 5, rising. Falling, the chosen line only gets cheaper.
        assert bent([0.0, 1.0], 4.0, [1.0, 0.0], [(0, 2.0, 1.0)]) == (5.0, A, True)


class TwoBendsTests:
    def test_two_bends_of_the_chosen_line_add_up(self):
        # Chosen: max(0, x − 1) + max(0, x − 2), now 0: 1 at 2, then 1 + 2 (x − 2). a: 3 flat:
        # 1 + 2 (x − 2) = 3 at x = 3.
        kinks = [(0, 1.0, 1.0), (0, 2.0, 1.0)]
        assert bent([0.0, 3.0], 0.0, [0.0, 0.0], kinks) == (3.0, A, True)

    def test_a_nearer_flip_in_a_later_piece_wins(self):
        # Now 10. a: 6 + (x − 10) crosses the chosen (flat 0 up to 11) at 4, 6 below. b: 3 flat;
        # the chosen line bends up by 1 at 11 and reaches 3 at 14, 4 above: nearer, b.
        found = bent([0.0, 6.0, 3.0], 10.0, [0.0, 1.0, 0.0], [(0, 11.0, 1.0)])
        assert found == (14.0, B, True)

    def test_a_nearer_flip_in_an_earlier_piece_holds(self):
        # As above with a: 2 + (x − 10), crossing at 8 (2 below), nearer than b's 14.
        found = bent([0.0, 2.0, 3.0], 10.0, [0.0, 1.0, 0.0], [(0, 11.0, 1.0)])
        assert found == (8.0, A, False)

    def test_in_one_over_bandwidth_the_nearest_bandwidth_wins(self):
        # x = 1 / bandwidth, now 2 (bandwidth 0.5). a: 1 + (x − 2) crosses the chosen line (0 up
        # to its bend at 3) at x = 1: bandwidth 1, 0.5 away. b: 1 flat; past the bend the
        # chosen line x − 3 reaches 1 at x = 4: bandwidth 0.25, 0.25 away: b, the bandwidth
        # falling.
        found = bent([0.0, 1.0, 1.0], 2.0, [0.0, 1.0, 0.0], [(0, 3.0, 1.0)], low=0.01,
                     high=float("inf"), reciprocal=True)  # fmt: skip
        assert found == (0.25, B, False)

    def test_a_bend_on_the_envelope_of_two_plans(self):
        # SPEC 7.8: the chosen option's kept plan flat at 0 bends up by 1 at 2; its other plan
        # 10 flat (never the least). a: 3 flat: the kept plan reaches 3 at 5. Now 1.
        found = bent([0.0, 10.0, 3.0], 1.0, [0.0, 0.0, 0.0], [(0, 2.0, 1.0)], owners=[0, 0, 1])
        assert found == (5.0, A, True)


def _leg(hours: float, link: Any, what: str = "input", cost: float = 0.0, gb: float = 0.0) -> Any:
    return SimpleNamespace(hours=hours, link=link, what=what, cost=cost, gb=gb)


def _streaming(compute_hours: float, legs: list[Any]) -> Any:
    return SimpleNamespace(total_hours=compute_hours, site="far", legs=legs, compute_hours=compute_hours,
                           input_overlapped=True)  # fmt: skip


class StreamedSlopesTests:
    """A streamed input leg of 4 h at compress ratio 0.5 over a 2 Gbit/s link (100 GB, costing
    10), beside 2 h of compute, at 1 an hour of delay."""

    LINK = SimpleNamespace(bandwidth_gbps=2.0)

    def _slopes(self, leg_hours: float, compute_hours: float = 2.0):
        kinks: dict[str, list] = {}
        option = _streaming(compute_hours, [_leg(leg_hours, self.LINK, cost=10.0, gb=100.0)])
        found = slopes_of([option], {id(self.LINK): self.LINK}, "home", 1.0, 0.5, kinks)
        return found, kinks

    def test_a_leg_outlasting_compute_bends_where_it_equals_it(self):
        """The leg's hours are 4 ÷ 0.5 = 8 a unit of ratio, and 4 ÷ 0.5 = 8 a unit of 1 ÷
        bandwidth (now 1 ÷ 2 = 0.5): they equal compute's 2 h at ratio 2 ÷ 8 = 0.25 and at 1 ÷
        bandwidth 0.25; past it the objective rises by 1 × 8 = 8 a unit in both. Now it
        outlasts compute: the ratio moves its cost and hours, (10 + 1 × 4) ÷ 0.5 = 28 a unit,
        and the link carries 100 GB and 4 h × 2 Gbit/s = 8."""
        (_, per_ratio, _, on_gb, on_hours), kinks = self._slopes(4.0)
        assert kinks == {"ratio": [(0, 0.25, 8.0)], str(id(self.LINK)): [(0, 0.25, 8.0)]}
        assert per_ratio == [28.0]
        assert on_gb[id(self.LINK)] == [100.0]
        assert on_hours[id(self.LINK)] == [8.0]

    def test_a_leg_as_long_as_compute_is_hidden(self):
        """2 h of leg beside 2 h of compute: hidden, its hours move nothing now (only its cost:
        10 ÷ 0.5 = 20 a unit of ratio), and it bends exactly at now (ratio 0.5 × 2 ÷ 2)."""
        (_, per_ratio, _, _, on_hours), kinks = self._slopes(2.0)
        assert per_ratio == [20.0]
        assert on_hours[id(self.LINK)] == [0.0]
        assert kinks["ratio"] == [(0, 0.5, 1.0 * 2.0 / 0.5)]

    def test_a_streamed_leg_of_no_hours_never_bends(self):
        (_, per_ratio, _, _, on_hours), kinks = self._slopes(0.0)
        assert kinks == {}
        assert per_ratio == [20.0]
        assert on_hours[id(self.LINK)] == [0.0]

    def test_without_a_delay_cost_nothing_bends(self):
        kinks: dict[str, list] = {}
        option = _streaming(2.0, [_leg(4.0, self.LINK, cost=10.0, gb=100.0)])
        slopes_of([option], {id(self.LINK): self.LINK}, "home", 0.0, 0.5, kinks)
        assert kinks == {}


class FlipAtABendTests:
    def test_falling_past_a_bend_the_option_below_it_is_the_one_falling_fastest_there(self):
        """SPEC 6.3/7.8: the option chosen past a flip is the one lowest just beyond it. Now 3; a
        and b are both 1 + (x − 3) now and reach the chosen line (0) at x = 2. a bent at 2: below
        it a falls 0.5 a unit (its slope now, 1, holds the 0.5 more it gains past 2); b keeps 1.
        Just below 2, a is 0.5 (x − 2) and b (x − 2), lower: the input falling to 2 flips to b
        (above 2 the two lines coincide, so the piece between 2 and now cannot tell them apart
        but by the tie-break, which would give a)."""
        found = bent([0.0, 1.0, 1.0], 3.0, [0.0, 1.0, 1.0], [(1, 2.0, 0.5)])
        assert found == (2.0, B, False)

    def test_rising_past_a_bend_the_option_above_it_is_the_one_falling_fastest_there(self):
        """The same rising. Now 1; a and b are both 1 − (x − 1) and reach the chosen line at 2;
        a bends up by 0.5 at 2 (falling 0.5 a unit beyond it), b keeps falling 1. Just above
        2, a is −0.5 (x − 2) and b −(x − 2), lower: the input rising to 2 flips to b (below 2
        the two lines coincide and only the tie-break, a, would tell them apart)."""
        found = bent([0.0, 1.0, 1.0], 1.0, [0.0, -1.0, -1.0], [(1, 2.0, 0.5)])
        assert found == (2.0, B, True)
