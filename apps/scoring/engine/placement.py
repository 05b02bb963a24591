"""SPEC P: one placement option per offer, its transfers, hours and costs, and the chosen one."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .cross_domain import CrossDomain, same_domain
from .findings import Finding, finding
from .network import Network
from .schema import (
    KIND_ORDER,
    MODEL_SPLITTING,
    TIER_RANK,
    EngineInput,
    Link,
    Offer,
)
from .sizing import OfferSizing

# Why an option is not feasible, checked in this order; `reason` is the first that applies and
# `reasons` lists them all.
REASONS = (
    "pool_too_small",  # SPEC 6.1 capacity: more GPUs than max_machines × gpus_per_machine
    "no_shared_parallelism",  # SPEC 6.1 R1a: the model must be split, or spread, and cannot be
    "compliance_site",  # SPEC 6.1 X4: the site is not among the allowed sites
    "compliance_moves_data",  # SPEC 6.1 X4: the input leg leaves the allowed sites
    "compliance_moves_results",  # SPEC 6.1 X4 with results_restricted
    "not_eligible",  # SPEC 6.1: a failed gate or exclusion keeps the task in its home domain
    "no_link",  # SPEC P: a transfer leg without a recorded link
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
    reasons: list[str]
    legs: list[Leg]
    input_mode: str | None  # SPEC 6.1: staged | streamed for repeated full scans, else None
    gpus: int
    billed_gpus: int  # SPEC 6.1: whole machines for machine_hour and contract offers
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
    preemption_cost: float = 0.0  # SPEC 6.3: expected loss to preemptions on spot capacity

    @property
    def hourly_burn(self) -> float:
        return self.billed_gpus * self.effective_price

    def segment_hours(self, segment: str) -> float | None:
        if segment == "transfer":
            return self.transfer_hours
        return self.queue_hours if segment == "queue" else self.compute_hours


def planned_gpus(inp: EngineInput, offer: Offer, sized: OfferSizing) -> int:
    """GPUs planned: the task's count; without one (P3 blocks), the candidate's machines, else
    what fits, so that the figures are still shown."""
    if inp.task.gpus is not None:
        return inp.task.gpus
    if offer.machines is not None:
        return offer.machines * offer.gpus_per_machine
    return sized.machines_needed * offer.gpus_per_machine


def billed_gpus(offer: Offer, gpus: int) -> int:
    """SPEC 6.1: machine_hour and contract offers bill ceil(gpus / gpus_per_machine) whole
    machines (idle GPUs on the last one are paid); gpu_hour offers bill GPUs."""
    if offer.billing_basis == "gpu_hour":
        return gpus
    return math.ceil(gpus / offer.gpus_per_machine) * offer.gpus_per_machine


def offer_price(offer: Offer) -> float:
    return effective_gpu_hour_price(
        offer.billing_basis,
        offer.price,
        offer.gpus_per_machine,
        offer.contract_hours,
        offer.expected_utilization,
    )


def input_mode(inp: EngineInput, site: str) -> str | None:
    """SPEC 6.1: repeated full scans are staged once at the option's site when it has room for
    the input as stored (storage_tb blank or ≥ input_gb / 1000), else streamed on every pass."""
    task = inp.task
    if task.access_pattern != "repeated_full_scan" or site == task.data_site or task.input_gb <= 0:
        return None
    storage = inp.sites[site].storage_tb
    return "staged" if storage is None or storage * 1000 >= task.input_gb else "streamed"


def _legs(inp: EngineInput, net: Network, site: str, mode: str | None) -> list[Leg]:
    task = inp.task
    passes = task.data_passes if mode == "streamed" else 1
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


@dataclass(slots=True)
class SitePlan:
    """What running at one site means, the same for every offer there: worked out once per site
    and evaluation."""

    kind: str
    tier: str
    input_mode: str | None
    legs: list[Leg]
    linked: bool
    reasons: list[str]  # the site's own reasons (compliance, eligibility, links), in REASONS order
    transfer_gb: float
    transfer_hours: float | None
    transfer_cost: float | None


def site_plan(inp: EngineInput, net: Network, cross: CrossDomain, site: str) -> SitePlan:
    task = inp.task
    # SPEC P: kind by where the offer sits.
    if site == task.home_site:
        kind = "wait_local"
    elif site == task.data_site:
        kind = "move_compute"
    else:
        kind = "move_data"
    # SPEC P: the widest of the tiers between the site and the data, home and result sites.
    tier = max(
        (
            net.tier(site, task.data_site),
            net.tier(site, task.home_site),
            net.tier(site, task.result_site),
        ),
        key=TIER_RANK.__getitem__,
    )
    mode = input_mode(inp, site)
    legs = _legs(inp, net, site, mode)
    linked = all(leg.link is not None for leg in legs)

    reasons: list[str] = []
    allowed = cross.allowed_sites
    if allowed is not None:
        # SPEC 6.1 X4: only at an allowed site, the input moving only between allowed sites.
        if site not in allowed:
            reasons.append("compliance_site")
        for leg in legs:
            if leg.what == "input" and not {leg.from_site, leg.to_site} <= allowed:
                reasons.append("compliance_moves_data")
            if (
                leg.what == "results"
                and task.results_restricted
                and not {leg.from_site, leg.to_site} <= allowed
            ):
                reasons.append("compliance_moves_results")
    if cross.home_domain_only and kind != "wait_local" and not _in_home_domain(inp, site, legs):
        reasons.append("not_eligible")
    if not linked:
        reasons.append("no_link")

    transfer_hours = transfer_cost = None
    if linked:
        transfer_hours = sum(leg.hours for leg in legs if leg.hours is not None)
        transfer_cost = sum(leg.cost for leg in legs if leg.cost is not None)
    return SitePlan(
        kind,
        tier,
        mode,
        legs,
        linked,
        reasons,
        sum(leg.gb for leg in legs),
        transfer_hours,
        transfer_cost,
    )


def build_option(
    inp: EngineInput,
    net: Network,
    cross: CrossDomain,
    offer: Offer,
    sized: OfferSizing,
    plans: dict[str, SitePlan] | None = None,
) -> PlacementOption:
    task = inp.task
    site = offer.site
    plans = {} if plans is None else plans
    plan = plans.get(site)
    if plan is None:
        plan = plans[site] = site_plan(inp, net, cross, site)
    gpus = planned_gpus(inp, offer, sized)
    billed = billed_gpus(offer, gpus)

    reasons: list[str] = []
    if offer.max_machines is not None and (
        gpus > offer.max_machines * offer.gpus_per_machine
        or sized.machines_needed > offer.max_machines
    ):
        reasons.append("pool_too_small")  # SPEC 6.1 capacity, whatever the coupling
    shared = set(task.parallelism).intersection(offer.parallelism)
    if (not sized.fits_single_gpu and shared.isdisjoint(MODEL_SPLITTING)) or (
        not sized.fits_single_machine and not shared
    ):
        reasons.append("no_shared_parallelism")  # SPEC 6.1 R1a: plain data copies the model
    reasons += plan.reasons

    price = offer_price(offer)
    # SPEC 6.1: boot time counts in the queue segment.
    queue_hours = inp.sites[site].queue_hours + offer.boot_hours
    compute_hours = task.compute_hours / offer.relative_speed
    compute_cost = billed * compute_hours * price
    scheduling_cost = compute_cost * offer.scheduling_fee_pct / 100
    preemption_cost = 0.0
    if offer.preemptible:
        # SPEC 6.3: expected preemptions (per day × the option's compute hours / 24) × hours
        # lost by each (the interruption cost, or half a checkpoint interval when resumable) ×
        # hourly burn (billed GPUs × effective price).
        resumable = task.resumable
        lost = task.checkpoint_interval_hours / 2 if resumable else task.interruption_cost_hours
        preemption_cost = offer.preemptions_per_day * compute_hours / 24 * lost * billed * price
    transfer_hours = plan.transfer_hours
    transfer_cost = plan.transfer_cost
    if transfer_hours is not None and transfer_cost is not None:
        total_hours: float | None = transfer_hours + queue_hours + compute_hours
        total_cost: float | None = compute_cost + scheduling_cost + transfer_cost + preemption_cost
        objective: float | None = total_cost + task.delay_cost_per_hour * total_hours
    else:
        # Unknown transfer: the sums are unknown too, never guessed.
        total_hours = total_cost = objective = None
    # Positional, in the field order (kind, site, offer, tier, feasible, reason, reasons, legs,
    # input_mode, gpus, billed_gpus, effective_price, transfer_gb, the hours, the costs,
    # objective, within_budget, preemption_cost): a third of the cost of keywords.
    option = PlacementOption(
        plan.kind,
        site,
        offer,
        plan.tier,
        not reasons,
        reasons[0] if reasons else None,
        reasons,
        plan.legs,
        plan.input_mode,
        gpus,
        billed,
        price,
        plan.transfer_gb,
        transfer_hours,
        queue_hours,
        compute_hours,
        total_hours,
        compute_cost,
        scheduling_cost,
        transfer_cost,
        total_cost,
        objective,
        None,
        preemption_cost,
    )
    if plan.linked:
        option.within_budget = not over_budget(inp, option)
    return option


def _in_home_domain(inp: EngineInput, site: str, legs: list[Leg]) -> bool:
    """SPEC 6.1 ("留在本地或同域"): the option's site and both ends of every leg lie in
    home_site's datacenter."""
    home = inp.sites[inp.task.home_site]
    codes = {site}
    for leg in legs:
        codes.add(leg.from_site)
        codes.add(leg.to_site)
    return all(same_domain(inp.sites[code], home) for code in codes)


def over_budget(inp: EngineInput, option: PlacementOption) -> list[str]:
    """SPEC P/M3: the segments whose hours exceed their budget (a blank budget is no limit)."""
    budget = inp.task.latency_budget_hours
    over: list[str] = []
    # The three segments in schema.SEGMENTS order, spelled out: this runs for every option.
    limit = budget.transfer
    if limit is not None and option.transfer_hours is not None and option.transfer_hours > limit:
        over.append("transfer")
    limit = budget.queue
    if limit is not None and option.queue_hours > limit:
        over.append("queue")
    limit = budget.compute
    if limit is not None and option.compute_hours > limit:
        over.append("compute")
    return over


def tie_key(option: PlacementOption) -> tuple[int, str, str]:
    return KIND_ORDER[option.kind], option.site, option.offer.id


def choose_option(
    options: list[PlacementOption],
) -> tuple[PlacementOption | None, list[Finding]]:
    """SPEC 6.1 (budgets guide, they do not veto): the least objective among all feasible
    options; P1 when none meets every budget; P2 when none is feasible."""
    feasible = [o for o in options if o.feasible]
    if not feasible:
        # SPEC P2: no feasible placement at all.
        return None, [finding("P2", "block", "P2", {"options": len(options)})]
    chosen = min(feasible, key=lambda o: (o.objective, *tie_key(o)))
    found: list[Finding] = []
    if not any(o.within_budget for o in feasible):
        # SPEC 6.1 P1: no feasible option meets every latency budget.
        found.append(finding("P1", "warn", "P1", {"options": len(feasible)}))
    return chosen, found


def cheapest_within_budget(options: list[PlacementOption]) -> PlacementOption | None:
    """SPEC 6.1 M3: the feasible option of least total cost that meets every budget."""
    within = [o for o in options if o.feasible and o.within_budget]
    if not within:
        return None
    return min(within, key=lambda o: (o.total_cost, o.objective, *tie_key(o)))
