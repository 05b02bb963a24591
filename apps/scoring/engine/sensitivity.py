"""SPEC 6.3: what flips the decision. For the chosen option against the runner-up, the value of
each input at which another option would be chosen, solved exactly.

Each input moves the objective (total_cost + delay_cost_per_hour × total_hours) of every option
along a straight line in one coordinate: the input itself, or 1 / bandwidth for a link's
bandwidth (leg hours are gb × 8 × (1 + buffer) / (bandwidth × 3600)). Two lines cross at most
once, so the break-even with each other feasible option is one division; the nearest one in
the input's range is where the decision flips (usually to the runner-up; to whichever option
overtakes first otherwise, so that moving an input past `flips_at`, and only then, changes the
chosen option).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .messages import render
from .placement import PlacementOption, effective_gpu_hour_price, tie_key
from .reader import MAX_MAGNITUDE
from .schema import EngineInput, Link

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
    message: str | None = None
    message_zh: str | None = None


def runner_up(
    options: list[PlacementOption], chosen: PlacementOption | None
) -> PlacementOption | None:
    """The feasible option that would be chosen without the chosen one (same order)."""
    if chosen is None:
        return None
    rest = [o for o in options if o.feasible and o is not chosen and o.objective is not None]
    if not rest:
        return None
    return min(rest, key=lambda o: (o.objective, *tie_key(o)))


# One input: its coordinate now, each option's slope in it, the input's range in that
# coordinate, and how a coordinate reads back as the input's value.
Slope = Callable[[PlacementOption], float]


def _identity(x: float) -> float:
    return x


def _reciprocal(x: float) -> float:
    return 1.0 / x


def _solve(
    contenders: list[PlacementOption],
    chosen: PlacementOption,
    x0: float,
    slope: Slope,
    low: float,
    high: float,
    value: Callable[[float], float],
) -> tuple[float | None, PlacementOption | None]:
    """The input's value nearest to now at which another option's objective line crosses below
    the chosen one's (ties resolved as the choice resolves them), within [low, high] of the
    coordinate; None when no line crosses in range."""
    base = chosen.objective
    assert base is not None
    b_chosen = slope(chosen)
    current = value(x0)
    best_at: float | None = None
    best_x = x0
    best_distance = 0.0
    crossing: list[tuple[float, PlacementOption]] = []
    for other in contenders:
        gap = other.objective - base  # ≥ 0: the chosen option is the least
        closing = slope(other) - b_chosen  # gap(x) = gap + closing × (x − x0)
        if closing == 0:
            continue
        x = x0 - gap / closing
        if not low <= x <= high or x - x != 0:  # out of range, or infinite
            continue
        at = value(x)
        if at - at != 0:
            continue
        distance = abs(at - current)
        if best_at is None or distance < best_distance:
            best_at, best_x, best_distance = at, x, distance
            crossing = [(closing, other)]
        elif distance == best_distance:
            crossing.append((closing, other))
    if best_at is None:
        return None, None
    # Past the crossing the steepest line wins (its gap falls fastest), then the tie-break.
    direction = 1.0 if best_x > x0 else -1.0 if best_x < x0 else 0.0
    if direction == 0.0:
        # A tie now, won by the tie-break: any step towards the contender flips it.
        direction = -1.0 if crossing[0][0] > 0 else 1.0
    _, to = min(crossing, key=lambda pair: (pair[0] * direction, *tie_key(pair[1])))
    return best_at, to


def sensitivity(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption | None
) -> tuple[PlacementOption | None, list[Flip]]:
    """SPEC 6.3: the runner-up, and one entry per input the two options depend on (links they
    use, the home site's queue, compress ratio, delay cost, their offers' prices)."""
    second = runner_up(options, chosen)
    if chosen is None or second is None:
        return second, []
    task = inp.task
    delay = task.delay_cost_per_hour
    contenders = [o for o in options if o.feasible and o is not chosen and o.objective is not None]
    everyone = [chosen, *contenders]
    flips: list[Flip] = []

    def add(path: str, key: str, subject: str, x0: float, slope: Slope, low: float,
            high: float, value: Callable[[float], float] = _identity) -> None:  # fmt: skip
        if all(slope(o) == 0 for o in everyone):
            flips.append(Flip(path, value(x0), None, None, key, subject))
            return
        at, to = _solve(contenders, chosen, x0, slope, low, high, value)
        flips.append(Flip(path, value(x0), at, to, key, subject))

    # The value of an hour of waiting: each objective rises by its total hours.
    add(
        "task.delay_cost_per_hour",
        "F.delay_cost",
        "",
        delay,
        lambda o: o.total_hours or 0.0,
        0.0,
        MAX_MAGNITUDE,
    )

    # The compress ratio scales the input and results legs (GB, hours and cost alike).
    ratio = task.compress_ratio

    def per_ratio(o: PlacementOption) -> float:
        return sum(
            ((leg.cost or 0.0) + delay * (leg.hours or 0.0)) / ratio
            for leg in o.legs
            if leg.what != "image"
        )

    add("task.compress_ratio", "F.compress_ratio", "", ratio, per_ratio, 1e-12, 1.0)

    # The home site's queue: options there wait it (plus their boot time).
    home = inp.sites[task.home_site]
    add(
        f"sites[{home.index}].queue_hours",
        "F.queue",
        home.code,
        home.queue_hours,
        lambda o: delay if o.site == home.code else 0.0,
        0.0,
        MAX_MAGNITUDE,
    )

    # The links the two options use: bandwidth (in 1 / bandwidth) and price per GB.
    used: dict[int, Link] = {}
    for option in (chosen, second):
        for leg in option.legs:
            if leg.link is not None:
                used[id(leg.link)] = leg.link
    for link in sorted(used.values(), key=lambda item: item.index):
        name = f"{link.from_site}–{link.to_site}"
        bandwidth = link.bandwidth_gbps

        def per_inverse_bandwidth(o: PlacementOption, link: Link = link) -> float:
            # hours = gb × 8 × (1 + buffer) / 3600 × (1 / bandwidth): slope = delay × that factor
            return delay * sum(
                (leg.hours or 0.0) * link.bandwidth_gbps for leg in o.legs if leg.link is link
            )

        def per_price(o: PlacementOption, link: Link = link) -> float:
            return sum(leg.gb for leg in o.legs if leg.link is link)

        add(
            f"links[{link.index}].bandwidth_gbps",
            "F.bandwidth",
            name,
            1.0 / bandwidth,
            per_inverse_bandwidth,
            1.0 / MAX_MAGNITUDE,
            float("inf"),
            _reciprocal,
        )
        add(
            f"links[{link.index}].price_per_gb",
            "F.price_per_gb",
            name,
            link.price_per_gb,
            per_price,
            0.0,
            MAX_MAGNITUDE,
        )

    # Each option's price: compute, scheduling and preemption costs are linear in it.
    for option in sorted((chosen, second), key=lambda o: o.offer.index):
        offer = option.offer
        unit = effective_gpu_hour_price(
            offer.billing_basis,
            1.0,
            offer.gpus_per_machine,
            offer.contract_hours,
            offer.expected_utilization,
        )
        # What one unit of the offer's price adds to its option's objective.
        per_unit = (
            unit * option.billed_gpus * option.compute_hours * (1 + offer.scheduling_fee_pct / 100)
        )
        if option.effective_price > 0:
            per_unit += option.preemption_cost / option.effective_price * unit
        elif offer.preemptible:
            per_unit += _preemption_per_price(inp, option) * unit
        add(
            f"offers[{offer.index}].price",
            "F.price",
            offer.id,
            offer.price,
            lambda o, mine=option, per_unit=per_unit: per_unit if o is mine else 0.0,
            0.0,
            MAX_MAGNITUDE,
        )
    _rank(flips)
    return second, flips


def _preemption_per_price(inp: EngineInput, option: PlacementOption) -> float:
    """SPEC 6.3 preemption cost per unit of effective price (used when the price is 0)."""
    task = inp.task
    lost = task.checkpoint_interval_hours / 2 if task.resumable else task.interruption_cost_hours
    offer = option.offer
    return offer.preemptions_per_day * option.compute_hours / 24 * lost * option.billed_gpus


def _rank(flips: list[Flip]) -> None:
    """Rank flips by how far the input must move, relative to its value now (from zero: after
    every relative one, by absolute distance)."""
    moving = [f for f in flips if f.flips_at is not None]

    def distance(f: Flip) -> tuple[int, float, str]:
        assert f.flips_at is not None
        change = abs(f.flips_at - f.current)
        if f.current != 0:
            return 0, change / abs(f.current), f.input
        return 1, change, f.input

    for rank, flip in enumerate(sorted(moving, key=distance), start=1):
        flip.rank = rank


def tell(flips: list[Flip], names: dict[str, str]) -> None:
    """Render the nearest flips in plain words, both languages ("waiting locally wins if the
    bj-a queue drops below 4.2 h")."""
    for flip in flips:
        if flip.rank is None or flip.rank > TOLD or flip.flips_at is None or flip.to is None:
            continue
        rises = flip.flips_at > flip.current
        to = flip.to
        subject = flip.subject
        if flip.key == "F.price":
            subject = _shown(subject, names)
        data = {
            "subject": subject,
            "value": flip.flips_at,
            "current": flip.current,
            "kind": to.kind,
            "site": to.site,
            "offer": _shown(to.offer.id, names),
        }
        key = f"{flip.key}.{'above' if rises else 'below'}"
        flip.message, flip.message_zh = render(key, data)


def _shown(offer_id: str, names: dict[str, str]) -> str:
    name = names.get(offer_id)
    return f"{name} (#{offer_id})" if name else offer_id
