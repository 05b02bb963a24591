"""SPEC P at one site: what running there means for every offer at it (kind, tier, transfer
legs and their hours and costs, compliance and eligibility reasons), worked out once per site."""

from __future__ import annotations

from dataclasses import dataclass

from .cross_domain import CrossDomain, same_domain
from .network import Network
from .schema import TIER_RANK, TIERS, EngineInput, Link, Task


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


# Each tier's buffer threshold, by name (SPEC P: a link without its own buffer takes its tier's).
_BUFFER_OF = {tier: f"buffer_{tier}" for tier in TIERS}


def input_mode(inp: EngineInput, site: str) -> str | None:
    """SPEC 6.1: repeated full scans are staged once at the option's site when it has room for
    the input as stored (storage_tb blank or ≥ input_gb / 1000), else streamed on every pass."""
    task = inp.task
    if task.access_pattern != "repeated_full_scan" or site == task.data_site or task.input_gb <= 0:
        return None
    storage = inp.sites[site].storage_tb
    return "staged" if storage is None or storage * 1000 >= task.input_gb else "streamed"


def _legs(
    inp: EngineInput,
    net: Network,
    site: str,
    mode: str | None,
    staged: bool,
    tiers: tuple[str, str, str],
) -> tuple[list[Leg], float, float, float, bool]:
    """The plan's legs, with their GB, hours and cost summed in leg order (from 0, as sum()
    does) and whether every leg has a link (the hours and cost count only then). `tiers`: the
    site's to the data, home and result sites (a tier is the same both ways)."""
    task = inp.task
    passes = task.data_passes if mode == "streamed" else 1
    # SPEC 6.4: a staged plan ships the processed version (once, whatever the passes) instead
    # of the raw input, and one shipment serves rounds_per_refresh runs.
    if staged:
        input_gb, share = task.processed_gb * task.compress_ratio, 1.0 / task.rounds_per_refresh
    else:
        input_gb, share = task.input_gb * task.compress_ratio * passes, 1.0
    plan = (
        ("input", task.data_site, site, input_gb, share, tiers[0]),
        ("image", task.home_site, site, task.image_gb, 1.0, tiers[1]),
        ("results", site, task.result_site, task.result_gb * task.compress_ratio, 1.0, tiers[2]),
    )
    legs: list[Leg] = []
    thresholds = inp.thresholds
    routes = net.routes  # the link from a site to another, by (from, to)
    moved_gb = hours_sum = cost_sum = 0  # sum()'s start: no leg moves nothing (an int 0)
    linked = True
    for what, src, dst, gb, share, tier in plan:
        # A leg exists only between two different sites, and only when something moves.
        if src == dst or gb <= 0:
            continue
        moved = gb * share
        moved_gb += moved
        link = routes.get((src, dst))
        linked = linked and link is not None
        if link is None:
            legs.append(Leg(what, src, dst, moved, None, None, None))
            continue
        buffer = link.buffer
        if buffer is None:
            buffer = thresholds[_BUFFER_OF[tier]]
        # SPEC P: leg hours = gb × 8 / (bandwidth × 3600) × (1 + buffer); cost = gb × price.
        # SPEC 6.4: a staged input leg's GB and cost are per run (× share = ÷ rounds) while its
        # hours are the whole transfer: the first run waits for all of it.
        hours = gb * 8 / (link.bandwidth_gbps * 3600) * (1 + buffer)
        cost = moved * link.price_per_gb
        hours_sum += hours
        cost_sum += cost
        legs.append(Leg(what, src, dst, moved, hours, cost, link))
    return legs, moved_gb, hours_sum, cost_sum, linked


@dataclass(slots=True)
class SitePlan:
    """What running at one site means, the same for every offer there: worked out once per site
    and evaluation."""

    kind: str
    tier: str
    input_mode: str | None
    legs: list[Leg]
    reasons: list[str]  # the site's own reasons (compliance, eligibility, links), in REASONS order
    transfer_gb: float
    transfer_hours: float | None
    transfer_cost: float | None


def _compliance_reasons(
    task: Task, allowed: frozenset[str], site: str, legs: list[Leg]
) -> list[str]:
    """SPEC 6.1 X4: only at an allowed site, the input (and restricted results) moving only
    between allowed sites (a task with a list of allowed sites)."""
    reasons: list[str] = []
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
    return reasons


def site_plan(
    inp: EngineInput, net: Network, cross: CrossDomain, site: str, staged: bool
) -> SitePlan:
    """The raw plan at `site`, or with `staged` the SPEC 6.4 plan shipping the processed
    version (for a site other than the data site, when the task has processed_gb)."""
    task = inp.task
    # SPEC P: kind by where the offer sits.
    if site == task.home_site:
        kind = "wait_local"
    elif site == task.data_site:
        kind = "move_compute"
    else:
        kind = "move_data"
    # SPEC P: the tiers between the site and the data, home and result sites, and the widest.
    tiers = (
        net.tier(site, task.data_site),
        net.tier(site, task.home_site),
        net.tier(site, task.result_site),
    )
    tier = max(tiers, key=TIER_RANK.__getitem__)
    mode = input_mode(inp, site)
    legs, moved_gb, hours, cost, linked = _legs(inp, net, site, mode, staged, tiers)

    allowed = cross.allowed_sites  # SPEC 6.1 X4: None when the task may run anywhere
    reasons = [] if allowed is None else _compliance_reasons(task, allowed, site, legs)
    if cross.home_domain_only and kind != "wait_local" and not _in_home_domain(inp, site, legs):
        reasons.append("not_eligible")
    if not linked:
        reasons.append("no_link")
    # The transfer's hours and cost only when every leg has a link (never guessed).
    if not linked:
        hours = cost = None
    return SitePlan(kind, tier, mode, legs, reasons, moved_gb, hours, cost)


def _in_home_domain(inp: EngineInput, site: str, legs: list[Leg]) -> bool:
    """SPEC 6.1 ("留在本地或同域"): the option's site and both ends of every leg lie in
    home_site's datacenter."""
    home = inp.sites[inp.task.home_site]
    codes = {site}
    for leg in legs:
        codes.add(leg.from_site)
        codes.add(leg.to_site)
    return all(same_domain(inp.sites[code], home) for code in codes)


def transfer_segment(
    task: Task, plan: SitePlan, staged: bool, compute_hours: float
) -> tuple[float | None, bool]:
    """SPEC 7.5: the option's transfer segment (None without a link on some leg) and whether
    its input leg streams beside compute. SPEC 7.5 and 7.10: it streams when it reads its input
    leg while it computes: a streamed repeated scan (6.1), or `input_delivery: streamed`; a
    staged copy (6.1 or a 6.4 plan) ships in bulk."""
    mode = plan.input_mode
    if staged or mode == "staged" or (mode != "streamed" and task.input_delivery != "streamed"):
        return plan.transfer_hours, False
    if not any(leg.what == "input" for leg in plan.legs):
        return plan.transfer_hours, False
    if plan.transfer_hours is None:
        return None, True
    return overlapped_transfer_hours(plan.legs, compute_hours), True


def overlapped_transfer_hours(legs: list[Leg], compute_hours: float) -> float:
    """SPEC 7.5: the transfer segment of an option streaming its input: the other legs, plus
    what of the input leg outlasts compute (max(0, input-leg hours − compute hours))."""
    hours = 0.0
    for leg in legs:
        hours += (
            max(0.0, leg.hours - compute_hours)  # type: ignore[operator]
            if leg.what == "input"
            else leg.hours
        )
    return hours  # type: ignore[return-value]


def preprocessing(task: Task) -> tuple[float, float]:
    """SPEC 6.4: hours and cost of preprocessing at the data site for a staged plan, the cost
    shared by the runs that reuse the processed version."""
    cost = task.preprocess_hours * task.preprocess_cost_per_hour / task.rounds_per_refresh
    return task.preprocess_hours, cost


def plan_of_site(
    inp: EngineInput,
    net: Network,
    cross: CrossDomain,
    site: str,
    plans: dict[tuple[str, bool], SitePlan],
    staged: bool,
) -> SitePlan:
    """The site's plan (raw or staged), worked out once per site and evaluation: `plans` is
    the evaluation's memo."""
    # Keyed by (site, staged): a suffix on the code could name another site (codes are free text).
    key = (site, staged)
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = site_plan(inp, net, cross, site, staged)
    return plan
