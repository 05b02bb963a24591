"""SPEC 7.8 across SPEC 7.5's overlap: an option that streams its input leg beside compute adds
delay × max(0, leg hours − compute hours) to its objective, a line that bends where the leg starts
to outlast compute. The flips of the inputs that move that leg (its link's bandwidth, the
compress ratio) are solved piece by piece between the bends."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
    used: dict[int, Link],
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
    if link is not None and id(link) in used:
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
    (each extended back to now from the piece); the flip nearest to now wins. The choice
    holds up to the nearest flip, so a crossing found in a farther piece is a real one."""
    # Slope of each line before any bend (kinks at or below now are already in `slopes`).
    count = len(gaps_now)
    base = list(slopes)
    for line, at, rise in kinks:
        if at < x0:
            base[line] -= rise
    cuts = sorted({low, high, x0, *(at for _, at, _ in kinks if low < at < high)})
    current = 1.0 / x0 if reciprocal else x0
    best: tuple[float, float, PlacementOption | None, bool] | None = None
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        near = lo if lo >= x0 else hi  # the piece's end nearest to now (finite)
        piece = list(base)
        for line, at, rise in kinks:
            if at <= lo:
                piece[line] += rise
        if piece.count(piece[0]) == count:
            continue  # every line moves alike here
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
