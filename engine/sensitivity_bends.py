"""How each objective line of SPEC 6.3's sensitivity moves with an input (its slopes), and SPEC
7.8 across SPEC 7.5's overlap: an option that streams its input leg beside compute adds
delay × max(0, leg hours − compute hours) to its objective, a line that bends where the leg starts
to outlast compute. The flips of the inputs that move that leg (its link's bandwidth, the
compress ratio) are solved piece by piece between the bends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from .placement import PlacementOption
from .schema import Link

# A kink of one objective line (SPEC 7.5, 7.8): (line, coordinate where it bends, slope added
# beyond it). A streamed input leg adds delay × max(0, leg hours − compute hours): flat while
# compute hides it, then rising with the leg's hours.
Kink = tuple[int, float, float]


# The straight-line solver of sensitivity.py: (everyone, gaps, x0, slopes, low, high,
# reciprocal, owners) → (flips_at, the option chosen past it, whether the input rises).
Solver = Callable[..., tuple[float | None, PlacementOption | None, bool]]


def overlap_kinks(
    kinks: dict[str, list[Kink]],
    i: int,
    option: PlacementOption,
    leg_hours: float,
    link: Link | None,
    delay: float,
    ratio: float,
) -> None:
    """SPEC 7.5: line i's streamed input leg of `leg_hours` bends where it equals the compute
    hours: in the compress ratio at ratio × compute ÷ leg hours, and in 1 ÷ bandwidth of its
    link at (1 ÷ bandwidth) × compute ÷ leg hours; past the bend the line rises by delay × the
    leg's hours per unit of the coordinate."""
    if delay == 0:
        return
    share = option.compute_hours / leg_hours
    kinks.setdefault("ratio", []).append((i, ratio * share, delay * leg_hours / ratio))
    if link is not None:  # (read for the links the two options use)
        x0 = 1.0 / link.bandwidth_gbps
        kinks.setdefault(str(id(link)), []).append((i, x0 * share, delay * leg_hours / x0))


def solve_bent(
    solve: Solver,
    everyone: list[PlacementOption],
    gaps_now: list[float],
    owners: list[int] | None,
    x0: float,
    slopes: list[float],
    low: float,
    high: float,
    reciprocal: bool,
    kinks: Sequence[Kink],
) -> tuple[float | None, PlacementOption | None, bool]:
    """SPEC 7.8 across 7.5's overlap: lines that bend are straight between their bends, so
    the range is cut at every bend (and at now) and each piece solved as straight lines
    (each extended back to now from the piece); the flip nearest to now wins (found at a bend
    by the pieces on both sides, the one beyond it says which option is chosen past it). The
    choice holds up to the nearest flip, so a crossing found in a farther piece is a real one."""
    # Slope of each line before any bend (kinks below now are already in `slopes`; one at now
    # is not: a leg as long as compute is hidden).
    base = list(slopes)
    for line, at, rise in kinks:
        if at < x0:
            base[line] -= rise
    # Cut at every bend in range (one beyond it cuts at the range's end, a cut already).
    cuts = sorted({low, high, x0, *(min(max(at, low), high) for _, at, _ in kinks)})
    current = 1.0 / x0 if reciprocal else x0
    best: tuple[float, float, PlacementOption | None, bool] | None = None
    pieces = list(pairwise(cuts))
    # Farthest first on each side of now (now is a cut: every piece lies on one side), so that
    # of two pieces giving the same crossing, at the bend between them, the one beyond it is
    # kept: its slopes say which option is chosen past the crossing.
    below = [(lo, hi) for lo, hi in pieces if hi <= x0]
    above = [(lo, hi) for lo, hi in pieces if lo >= x0]
    for lo, hi in below + list(reversed(above)):
        near = min(max(x0, lo), hi)  # the piece's end nearest to now (finite: now is a cut)
        piece = list(base)
        for line, at, rise in kinks:
            if at <= lo:
                piece[line] += rise
        # Each line's value at `near` (bends between now and there included), extended
        # back to now along the piece's slope.
        gaps = []
        for j, gap in enumerate(gaps_now):
            value = gap + base[j] * (near - x0)
            for line, at, rise in kinks:
                if line == j:
                    value += rise * (max(0.0, near - at) - max(0.0, x0 - at))
            gaps.append(value - piece[j] * (near - x0))
        # In the chosen option's frame (line 0 is its kept plan): the solver reads each gap as
        # its line's height above that line now.
        gaps = [gap - gaps[0] for gap in gaps]
        at, to, rises = solve(everyone, gaps, x0, piece, lo, hi, reciprocal, owners)
        if at is not None and (best is None or abs(at - current) < best[0]):
            best = (abs(at - current), at, to, rises)
    if best is None:
        return None, None, False
    return best[1], best[2], best[3]


def slopes_of(
    everyone: list[PlacementOption],
    used: dict[int, Link],
    home: str,
    delay: float,
    ratio: float,
    kinks: dict[str, list[Kink]],
) -> tuple[list[float], list[float], list[float], dict[int, list[float]], dict[int, list[float]]]:
    """Each line's slope in delay cost, compress ratio and the home queue, and per used link
    its GB and hours × bandwidth on it. Every plan here has an objective, so its hours are
    known and each of its legs has a link (hours and cost). A streamed input leg (SPEC 7.5)
    moves the hours only while it outlasts compute; its kinks go into `kinks` (by "ratio" and
    by link id)."""
    count = len(everyone)
    on_link_gb = {key: [0.0] * count for key in used}
    on_link_hours = {key: [0.0] * count for key in used}
    hours = [o.total_hours for o in everyone]  # slope in delay cost: total hours
    at_home = [delay if o.site == home else 0.0 for o in everyone]  # options at home wait it
    per_ratio: list[float] = []  # slope in compress ratio: input and results legs are ∝ ratio
    # One pass over every option's legs gathers what the ratio and each used link move.
    for i, option in enumerate(everyone):
        scaled = 0.0
        for leg in option.legs:
            leg_hours: float = leg.hours  # type: ignore[assignment]
            link = leg.link
            if option.input_overlapped and leg.what == "input" and leg_hours > 0:
                overlap_kinks(kinks, i, option, leg_hours, link, delay, ratio)
                if leg_hours <= option.compute_hours:
                    leg_hours = 0.0  # hidden behind compute here: moving it moves nothing
            if leg.what != "image":
                scaled += leg.cost + delay * leg_hours  # type: ignore[operator]
            if link is not None and id(link) in used:
                on_link_gb[id(link)][i] += leg.gb
                on_link_hours[id(link)][i] += leg_hours * link.bandwidth_gbps
        per_ratio.append(scaled / ratio)
    return hours, per_ratio, at_home, on_link_gb, on_link_hours  # type: ignore[return-value]
