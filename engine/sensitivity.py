"""SPEC 6.3: what flips the decision. For the chosen option against the runner-up, the value of
each input at which another option would be chosen, solved exactly.

Each input moves the objective (total_cost + delay_cost_per_hour × total_hours) of every plan
along a straight line in one coordinate: the input itself, or 1 / bandwidth for a link's
bandwidth (leg hours are gb × 8 × (1 + buffer) / (bandwidth × 3600)). An option with a raw and a
staged plan (SPEC 6.4) keeps the cheaper, so its objective is the lower envelope of two lines
(SPEC 7.8). Two lines cross at most once, so each break-even is one division; the nearest one in
the input's range where another option's line drops below every line of the chosen option is
where the decision flips (usually to the runner-up; to whichever option overtakes first
otherwise, so that moving an input past `flips_at`, and only then, changes the chosen option).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .messages import render_shown, show_number, term
from .placement import PlacementOption, least_objective, tie_key
from .pricing import effective_gpu_hour_price, package_bill
from .reader import MAX_MAGNITUDE
from .schema import EngineInput, Link
from .sensitivity_bends import Kink, slopes_of, solve_bent

# The nearest flips are told in words (the review page shows two or three).
TOLD = 3


@dataclass(slots=True)
class Flip:
    input: str  # path in the error-path form: links[2].bandwidth_gbps, offers[1].price, …
    current: float
    flips_at: float | None  # None: no value in the input's range flips the decision
    to: PlacementOption | None  # the option chosen past flips_at
    key: str  # message family: F.<what>
    subject: str  # what the input belongs to, for the message (a site, a link, an offer)
    rank: int | None = None  # 1 = nearest flip (relative change), None without a flip
    rises: bool = False  # the input must rise past flips_at to flip (else fall below it)
    message: str | None = None
    message_zh: str | None = None


def _solve(
    everyone: list[PlacementOption],
    gaps: list[float],
    x0: float,
    slopes: list[float],
    low: float,
    high: float,
    reciprocal: bool,
    owners: list[int] | None = None,
) -> tuple[float | None, PlacementOption | None, bool]:
    """The input's value nearest to now at which another option's objective crosses below the
    chosen one's (everyone[0]; ties resolved as the choice resolves them), within [low, high] of
    the coordinate, the option chosen past it, and whether the input must rise to get there;
    None when nothing crosses in range. Line j is gaps[j] + slopes[j] × (x − x0): its objective
    minus the chosen one's now, and its slope in the coordinate. Without `owners` line i is
    option i's; with them (SPEC 7.8) line j is a variant (raw or staged) of option owners[j],
    and an option's objective is the least of its lines: its lower envelope. With `reciprocal`
    the coordinate is 1 / the input (low > 0 then, so 1 / x is finite)."""
    # Each line's crossing below the chosen option: (x, whether x is above now, slope, option).
    found: list[tuple[float, bool, float, PlacementOption]] = []
    if owners is None:  # the commonest case: one line an option, line j option j's
        slope0 = slopes[0]
        for gap, slope, option in zip(gaps, slopes, everyone):  # noqa: B905 - equal lengths
            # Below the chosen line: from the crossing on, on the side where the line falls
            # faster (parallel lines never cross, line 0 itself among them; below it everywhere
            # cannot be: gaps ≥ 0).
            closing = slope - slope0
            if closing != 0:
                found.append((x0 - gap / closing, closing < 0, slope, option))
    else:
        mine = [j for j, owner in enumerate(owners) if owner == 0]  # the chosen option's lines
        for j, owner in enumerate(owners):
            if owner != 0:
                lo, hi = _below(j, mine, gaps, slopes, x0)
                if lo < hi:  # else never below, or only touching
                    # The end of the interval nearest to now: the flip is there (a tie now sits
                    # at x0).
                    up = lo >= x0
                    found.append((lo if up else hi, up, slopes[j], everyone[owner]))
    return _nearest(found, x0, low, high, reciprocal)


def _nearest(
    found: list[tuple[float, bool, float, PlacementOption]],
    x0: float,
    low: float,
    high: float,
    reciprocal: bool,
) -> tuple[float | None, PlacementOption | None, bool]:
    """Of the crossings `found` (x, whether the move is up, slope, option), the one in [low, high]
    nearest to now in the input itself, the option chosen past it (of all the crossings there
    the same way) and whether the input rises to get there."""
    current = 1.0 / x0 if reciprocal else x0
    # The nearest so far: its distance, value, direction and the (slope, option) lines there.
    best: tuple[float, float, bool, list[tuple[float, PlacementOption]]] | None = None
    for x, up, slope, option in found:
        if not low <= x <= high or x - x != 0:  # out of range, or infinite
            continue
        at = 1.0 / x if reciprocal else x
        distance = abs(at - current)
        if best is None or distance < best[0]:
            best = (distance, at, up, [(slope, option)])
        elif distance == best[0] and up == best[2]:
            best[3].append((slope, option))
    if best is None:
        return None, None, False
    # In the coordinate 1 / the input, a step up is the input going down.
    _, at, up, crossing = best
    return at, _past(crossing, up), up != reciprocal


def _past(crossing: list[tuple[float, PlacementOption]], up: bool) -> PlacementOption:
    """The option chosen just past a crossing of these (slope, option) lines: the steepest line
    wins (its objective falls fastest in the direction of the move), then the tie-break."""
    if len(crossing) == 1:
        return crossing[0][1]
    _, to = min(crossing, key=lambda pair: (pair[0] if up else -pair[0], *tie_key(pair[1])))
    return to


def _below(
    j: int, mine: list[int], gaps: list[float], slopes: list[float], x0: float
) -> tuple[float, float]:
    """The interval (lo, hi) of the coordinate where line j lies below every line of the chosen
    option (`mine`): each bounds it at their crossing, from above when line j rises faster,
    else from below; empty (lo ≥ hi) when it never does."""
    lo, hi = -math.inf, math.inf
    for w in mine:
        closing = slopes[j] - slopes[w]  # gap(x) = gap + closing × (x − x0)
        gap = gaps[j] - gaps[w]
        if closing > 0:
            hi = min(hi, x0 - gap / closing)
        elif closing < 0:
            lo = max(lo, x0 - gap / closing)
        elif gap >= 0:  # parallel, never below
            lo = math.inf
    return lo, hi


def sensitivity(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption | None
) -> tuple[PlacementOption | None, list[Flip]]:
    """SPEC 6.3: the runner-up, and one entry per input the two options depend on (links they
    use, the home site's queue, compress ratio, delay cost, their offers' prices)."""
    if chosen is None:
        return None, []
    # The chosen option first, then every other feasible option: slopes are lists in this order.
    everyone = [chosen]
    everyone += (o for o in options if o.feasible and o is not chosen and o.objective is not None)
    count = len(everyone)
    if count < 2:
        return None, []
    # The runner-up: the feasible option that would be chosen without the chosen one.
    second_at = least_objective(everyone, 1)
    second = everyone[second_at]
    task = inp.task
    delay = task.delay_cost_per_hour
    ratio = task.compress_ratio
    home = inp.sites[task.home_site]
    base = chosen.objective
    assert base is not None
    # SPEC 7.8: each option's lines, its kept plan first, then the variant it did not keep
    # (raw or staged), so that a flip is solved on the lower envelope of both.
    lines, owners = _lines(everyone)
    gaps = [o.objective - base for o in lines]  # type: ignore[operator]  # ≥ 0: least first

    used = _links_used(chosen, second)
    kinks: dict[str, list[Kink]] = {}
    hours, per_ratio, at_home, on_link_gb, on_link_hours = slopes_of(
        lines, used, home.code, delay, ratio, kinks
    )
    flips = _Flips(everyone, gaps, owners)
    # The value of an hour of waiting: each objective rises by its total hours.
    flips.add("task.delay_cost_per_hour", "F.delay_cost", "", delay, hours, 0.0, MAX_MAGNITUDE)
    # The compress ratio scales the input and results legs (GB, hours and cost alike).
    flips.add("task.compress_ratio", "F.compress_ratio", "", ratio, per_ratio, 1e-12, 1.0,
              kinks=kinks.get("ratio"))  # fmt: skip
    # The home site's queue: options there wait it (plus their boot time).
    path = f"sites[{home.index}].queue_hours"
    flips.add(path, "F.queue", home.code, home.queue_hours, at_home, 0.0, MAX_MAGNITUDE)
    _link_flips(flips, used, on_link_gb, on_link_hours, delay, kinks)
    _price_flips(flips, inp, ((0, chosen), (second_at, second)))
    _rank(flips.found)
    return second, flips.found


def _lines(everyone: list[PlacementOption]) -> tuple[list[PlacementOption], list[int] | None]:
    """SPEC 7.8: the objective lines of the options, one per plan each could run (its other
    variant counts when it is feasible and costed), and the option each belongs to; None for
    the owners when every option has one line."""
    if all(o.other is None for o in everyone):
        return everyone, None
    lines: list[PlacementOption] = []
    owners: list[int] = []
    for i, option in enumerate(everyone):
        lines.append(option)
        owners.append(i)
        other = option.other
        if other is not None and other.feasible and other.objective is not None:
            lines.append(other)
            owners.append(i)
    return lines, owners


class _Flips:
    """The flips found so far, each solved against the same options and objective lines."""

    __slots__ = ("count", "everyone", "found", "gaps", "owners")

    def __init__(
        self, everyone: list[PlacementOption], gaps: list[float], owners: list[int] | None
    ) -> None:
        self.everyone = everyone
        self.gaps = gaps
        self.owners = owners
        self.count = len(gaps)  # lines: one per option, or per variant (SPEC 7.8)
        self.found: list[Flip] = []

    def add(self, path: str, key: str, subject: str, x0: float, slopes: list[float], low: float,
            high: float, reciprocal: bool = False,
            kinks: Sequence[Kink] | None = None) -> None:  # fmt: skip
        current = 1.0 / x0 if reciprocal else x0
        if kinks:
            at, to, rises = solve_bent(
                _solve, self.everyone, self.gaps, self.owners, x0, slopes, low, high,
                reciprocal, kinks,
            )
            self.found.append(Flip(path, current, at, to, key, subject, None, rises))
            return
        if slopes.count(slopes[0]) == self.count:
            # Every objective moves alike (or not at all): nothing in range flips.
            self.found.append(Flip(path, current, None, None, key, subject))
            return
        at, to, rises = _solve(
            self.everyone, self.gaps, x0, slopes, low, high, reciprocal, self.owners
        )
        self.found.append(Flip(path, current, at, to, key, subject, None, rises))

    def lines_of(self, option: int) -> list[int]:
        """The lines of everyone[option]."""
        if self.owners is None:
            return [option]
        return [j for j, owner in enumerate(self.owners) if owner == option]


def _links_used(chosen: PlacementOption, second: PlacementOption) -> dict[int, Link]:
    """The links the two options use (either of their plans), by identity."""
    used: dict[int, Link] = {}
    for option in (chosen, chosen.other, second, second.other):
        if option is None:
            continue
        for leg in option.legs:
            if leg.link is not None:
                used[id(leg.link)] = leg.link
    return used


def _link_flips(
    flips: _Flips,
    used: dict[int, Link],
    on_link_gb: dict[int, list[float]],
    on_link_hours: dict[int, list[float]],
    delay: float,
    kinks: dict[str, list[Kink]],
) -> None:
    """Per link: bandwidth (leg hours ∝ 1 / bandwidth, so in that coordinate) and price per GB."""
    for link in sorted(used.values(), key=lambda item: item.index):
        name = f"{link.from_site}–{link.to_site}"
        key = id(link)
        flips.add(
            f"links[{link.index}].bandwidth_gbps",
            "F.bandwidth",
            name,
            1.0 / link.bandwidth_gbps,
            [delay * h for h in on_link_hours[key]],
            1.0 / MAX_MAGNITUDE,
            float("inf"),
            True,
            kinks.get(str(key)),
        )
        path = f"links[{link.index}].price_per_gb"
        flips.add(
            path, "F.price_per_gb", name, link.price_per_gb, on_link_gb[key], 0.0, MAX_MAGNITUDE
        )


def _price_flips(
    flips: _Flips, inp: EngineInput, pair: tuple[tuple[int, PlacementOption], ...]
) -> None:
    """Each option's price (chosen and runner-up, in offer order): compute, scheduling,
    preemption and rerun costs are linear in it."""
    first, other = pair
    for at, option in pair if first[1].offer.index < other[1].offer.index else pair[::-1]:
        offer = option.offer
        unit = effective_gpu_hour_price(
            offer.billing_basis,
            1.0,
            offer.gpus_per_machine,
            offer.contract_hours,
            offer.expected_utilization,
        )
        # What one unit of the offer's price adds to its option's objective: the compute and
        # scheduling costs, and the hours lost to preemptions and failures at the burn (SPEC
        # 7.2, 7.3); the migration line does not depend on it.
        lost = (option.preemption_hours or 0.0) + option.rerun_hours
        package = package_bill(
            inp.task, offer, option.gpus, option.billed_gpus, option.compute_hours, 1.0
        )
        if package is None:
            run = option.compute_hours * (1 + offer.scheduling_fee_pct / 100) + lost
            per_unit = unit * option.billed_gpus * run
        else:
            # SPEC 7.6: a package's compute cost and burn at a price of one (both linear in it).
            fee = 1 + offer.scheduling_fee_pct / 100
            per_unit = package.compute_cost * fee + package.burn_price * option.billed_gpus * lost
        slopes = [0.0] * flips.count
        for line in flips.lines_of(at):  # SPEC 7.8: both of its plans bill the same compute
            slopes[line] = per_unit
        path = f"offers[{offer.index}].price"
        flips.add(path, "F.price", offer.id, offer.price, slopes, 0.0, MAX_MAGNITUDE)


def _rank(flips: list[Flip]) -> None:
    """Rank flips by how far the input must move, relative to its value now (from zero: after
    every relative one, by absolute distance)."""
    moving = [f for f in flips if f.flips_at is not None]
    for rank, flip in enumerate(sorted(moving, key=_distance), start=1):
        flip.rank = rank


def _distance(f: Flip) -> tuple[int, float, str]:
    """How far a flip's input must move: relative to its value now, else (from zero) in itself."""
    assert f.flips_at is not None
    change = abs(f.flips_at - f.current)
    if f.current != 0:
        return 0, change / abs(f.current), f.input
    return 1, change, f.input


def tell(flips: list[Flip], names: dict[str, str]) -> None:
    """Render the nearest flips in plain words, both languages ("waiting locally wins if the
    bj-a queue drops below 4.2 h")."""
    # The option a flip goes to is shown once, however many flips go to it.
    shown_to: dict[int, tuple[str, str, str]] = {}
    for flip in flips:
        if flip.rank is None or flip.rank > TOLD or flip.flips_at is None or flip.to is None:
            continue
        to = flip.to
        parts = shown_to.get(id(to))
        if parts is None:
            offer = _shown(to.offer.id, names)
            parts = shown_to[id(to)] = (term(to.kind, "en"), term(to.kind, "zh_Hans"), offer)
        kind_en, kind_zh, offer = parts
        subject = _shown(flip.subject, names) if flip.key == "F.price" else flip.subject
        value, current = show_number(flip.flips_at), show_number(flip.current)
        shown_en = {"subject": subject, "value": value, "current": current, "kind": kind_en,
                    "site": to.site, "offer": offer}  # fmt: skip
        shown_zh = dict(shown_en, kind=kind_zh)
        # Told by the way the input moves: at a tie now, flips_at equals the current value.
        key = f"{flip.key}.above" if flip.rises else f"{flip.key}.below"
        flip.message, flip.message_zh = render_shown(key, shown_en, shown_zh)


def _shown(offer_id: str, names: dict[str, str]) -> str:
    name = names.get(offer_id)
    return f"{name} (#{offer_id})" if name else offer_id
