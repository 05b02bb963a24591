"""SPEC P: one placement option per offer, its transfers, hours and costs, and the chosen one."""

from __future__ import annotations

from dataclasses import dataclass

from .cross_domain import CrossDomain
from .findings import Finding, finding
from .network import Network
from .schema import KIND_ORDER, SEGMENTS, TIER_RANK, EngineInput, Link, Offer
from .sizing import OfferSizing

# Why an option is not feasible, checked in this order; the first that applies is its reason.
REASONS = (
    "exceeds_max_machines",
    "no_shared_parallelism",
    "compliance_moves_data",
    "not_eligible",
    "tier_not_allowed",
    "no_link",
)


def effective_gpu_hour_price(
    billing_basis: str,
    price: float,
    gpus_per_machine: int,
    contract_hours: float | None = None,
    expected_utilization: float | None = None,
) -> float:
    """SPEC P (口径对齐): the price of one GPU-hour whatever the billing basis."""
    if gpus_per_machine < 1:
        raise ValueError("gpus_per_machine must be at least 1")
    if billing_basis == "gpu_hour":
        return float(price)
    if billing_basis == "machine_hour":
        return price / gpus_per_machine
    if billing_basis == "contract":
        if not contract_hours or not expected_utilization:
            raise ValueError("a contract price needs contract_hours and expected_utilization")
        return price / (contract_hours * gpus_per_machine * expected_utilization)
    raise ValueError(f"unknown billing basis {billing_basis!r}")


@dataclass(slots=True)
class Leg:
    what: str  # input | image | results
    from_site: str
    to_site: str
    gb: float
    hours: float | None  # None when no link is recorded
    cost: float | None
    link: Link | None

    @property
    def link_reserved(self) -> bool | None:
        return None if self.link is None else self.link.reserved


@dataclass(slots=True)
class PlacementOption:
    kind: str
    site: str
    offer: Offer
    tier: str
    feasible: bool
    reason: str | None
    legs: list[Leg]
    gpus: int
    effective_price: float
    transfer_gb: float
    transfer_hours: float | None
    queue_hours: float
    compute_hours: float
    total_hours: float | None
    compute_cost: float
    scheduling_cost: float
    transfer_cost: float | None
    total_cost: float | None
    objective: float | None
    within_budget: bool | None

    @property
    def hourly_burn(self) -> float:
        return self.gpus * self.effective_price

    def segment_hours(self, segment: str) -> float | None:
        if segment == "transfer":
            return self.transfer_hours
        return self.queue_hours if segment == "queue" else self.compute_hours


def planned_gpus(inp: EngineInput, offer: Offer, sized: OfferSizing) -> int:
    """GPUs billed: the task's planned count, else the candidate's machines, else what fits."""
    if inp.task.gpus is not None:
        return inp.task.gpus
    if offer.machines is not None:
        return offer.machines * offer.gpus_per_machine
    return sized.machines_needed * offer.gpus_per_machine


def offer_price(offer: Offer) -> float:
    return effective_gpu_hour_price(
        offer.billing_basis,
        offer.price,
        offer.gpus_per_machine,
        offer.contract_hours,
        offer.expected_utilization,
    )


def _legs(inp: EngineInput, net: Network, site: str) -> list[Leg]:
    task = inp.task
    passes = task.data_passes if task.access_pattern == "repeated_full_scan" else 1
    plan = (
        ("input", task.data_site, site, task.input_gb * task.compress_ratio * passes),
        ("image", task.home_site, site, task.image_gb),
        ("results", site, task.result_site, task.result_gb * task.compress_ratio),
    )
    legs: list[Leg] = []
    thresholds = inp.thresholds
    for what, src, dst, gb in plan:
        # A leg exists only between two different sites, and only when something moves.
        if src == dst or gb <= 0:
            continue
        link = net.link(src, dst)
        if link is None:
            legs.append(Leg(what, src, dst, gb, None, None, None))
            continue
        buffer = link.buffer
        if buffer is None:
            buffer = thresholds["buffer_" + net.tier(src, dst)]
        # SPEC P: leg hours = gb × 8 / (bandwidth × 3600) × (1 + buffer); cost = gb × price.
        hours = gb * 8 / (link.bandwidth_gbps * 3600) * (1 + buffer)
        legs.append(Leg(what, src, dst, gb, hours, gb * link.price_per_gb, link))
    return legs


def build_option(
    inp: EngineInput, net: Network, cross: CrossDomain, offer: Offer, sized: OfferSizing
) -> PlacementOption:
    task = inp.task
    site = offer.site
    # SPEC P: kind by where the offer sits.
    if site == task.home_site:
        kind = "wait_local"
    elif site == task.data_site:
        kind = "move_compute"
    else:
        kind = "move_data"
    tier = max(
        (net.tier(site, task.data_site), net.tier(site, task.home_site)),
        key=TIER_RANK.__getitem__,
    )
    tier = max((tier, net.tier(site, task.result_site)), key=TIER_RANK.__getitem__)
    legs = _legs(inp, net, site)
    linked = all(leg.link is not None for leg in legs)

    reasons: list[str] = []
    if offer.max_machines is not None and sized.machines_needed > offer.max_machines:
        reasons.append("exceeds_max_machines")
    if not sized.fits_single_machine and not set(task.parallelism) & set(offer.parallelism):
        reasons.append("no_shared_parallelism")
    if cross.compliance_restricted and task.data_site != site:
        reasons.append("compliance_moves_data")  # SPEC X4: the input data may not move
    if not cross.eligible and kind != "wait_local":
        reasons.append("not_eligible")
    if not cross.allows_tier(tier):
        reasons.append("tier_not_allowed")
    if not linked:
        reasons.append("no_link")

    gpus = planned_gpus(inp, offer, sized)
    price = offer_price(offer)
    queue_hours = inp.sites[site].queue_hours
    compute_hours = task.compute_hours / offer.relative_speed
    compute_cost = gpus * compute_hours * price
    scheduling_cost = compute_cost * offer.scheduling_fee_pct / 100
    transfer_gb = sum(leg.gb for leg in legs)
    if linked:
        transfer_hours: float | None = sum(leg.hours for leg in legs if leg.hours is not None)
        transfer_cost: float | None = sum(leg.cost for leg in legs if leg.cost is not None)
        total_hours: float | None = transfer_hours + queue_hours + compute_hours
        total_cost: float | None = compute_cost + scheduling_cost + transfer_cost
        objective: float | None = total_cost + task.delay_cost_per_hour * total_hours
    else:
        # Unknown transfer: the sums are unknown too, never guessed.
        transfer_hours = transfer_cost = total_hours = total_cost = objective = None
    option = PlacementOption(
        kind=kind,
        site=site,
        offer=offer,
        tier=tier,
        feasible=not reasons,
        reason=reasons[0] if reasons else None,
        legs=legs,
        gpus=gpus,
        effective_price=price,
        transfer_gb=transfer_gb,
        transfer_hours=transfer_hours,
        queue_hours=queue_hours,
        compute_hours=compute_hours,
        total_hours=total_hours,
        compute_cost=compute_cost,
        scheduling_cost=scheduling_cost,
        transfer_cost=transfer_cost,
        total_cost=total_cost,
        objective=objective,
        within_budget=None,
    )
    if linked:
        option.within_budget = not over_budget(inp, option)
    return option


def over_budget(inp: EngineInput, option: PlacementOption) -> list[str]:
    """SPEC P/M3: the segments whose hours exceed their budget (a blank budget is no limit)."""
    budget = inp.task.latency_budget_hours
    over: list[str] = []
    for segment in SEGMENTS:
        limit = budget.get(segment)
        hours = option.segment_hours(segment)
        if limit is not None and hours is not None and hours > limit:
            over.append(segment)
    return over


def _tie_key(option: PlacementOption) -> tuple[int, str, str]:
    return KIND_ORDER[option.kind], option.site, option.offer.id


def choose_option(
    options: list[PlacementOption],
) -> tuple[PlacementOption | None, list[Finding]]:
    """SPEC P: least objective within budget; else the fastest feasible with P1; else P2."""
    feasible = [o for o in options if o.feasible]
    if not feasible:
        # SPEC P2: no feasible placement at all.
        return None, [finding("P2", "block", "P2", {"options": len(options)})]
    within = [o for o in feasible if o.within_budget]
    if within:
        return min(within, key=lambda o: (o.objective, *_tie_key(o))), []
    # SPEC P1: nothing within the latency budget; fall back to the fastest feasible option.
    chosen = min(feasible, key=lambda o: (o.total_hours, o.objective, *_tie_key(o)))
    data = {
        "kind": chosen.kind,
        "site": chosen.site,
        "offer": chosen.offer.id,
        "total_hours": chosen.total_hours,
    }
    return chosen, [finding("P1", "warn", "P1", data)]
