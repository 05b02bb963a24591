"""SPEC X with the corrections of 6.1: exclusions X1–X5, gates G1–G3, the domains an ineligible or
compliance-restricted task may use, how far a job may be spread, and the hints D1, K1 and X3."""

from __future__ import annotations

from dataclasses import dataclass, field

from .findings import Finding, finding
from .schema import DATA_INTENSIVE, EngineInput, Site

# SPEC 6.1: exclusions that keep a task in its home domain (X3 is a finding, X4 has its own limit).
HOME_DOMAIN_EXCLUSIONS = ("X1", "X2", "X5")


@dataclass(slots=True)
class CrossDomain:
    eligible: bool
    exclusions: list[str]
    gates: dict[str, bool]
    # SPEC 6.1: any failed gate or exclusion but X4 keeps the task in home_site's datacenter.
    home_domain_only: bool
    # SPEC 6.1 X4: sites where the restricted data may be processed (None: not restricted).
    allowed_sites: frozenset[str] | None
    spread_tier: str  # the widest tier over which the job may be spread across pools
    findings: list[Finding] = field(default_factory=list)

    @property
    def compliance_restricted(self) -> bool:
        return self.allowed_sites is not None


def same_domain(a: Site, b: Site) -> bool:
    """SPEC 6.1: a domain is a datacenter (a blank datacenter is a domain of its own site)."""
    return a.code == b.code or bool(a.datacenter) and a.datacenter == b.datacenter


def spread_tier(inp: EngineInput) -> str:
    """SPEC 6.1 X3/coupling: tight → one pool; loose → up to same_city, cross_hub only for a
    resumable job of at least loose_cross_hub_hours; none → any tier."""
    task = inp.task
    if task.coupling == "tight":
        return "same_site"
    if task.coupling == "loose":
        long = task.compute_hours >= inp.thresholds["loose_cross_hub_hours"]
        return "cross_hub" if long and task.resumable else "same_city"
    return "cross_hub"


def compliance_sites(inp: EngineInput) -> frozenset[str]:
    """SPEC 6.1 X4: the profile's allowed sites; blank → the sites in the data site's datacenter."""
    task = inp.task
    if task.allowed_sites:
        return frozenset(task.allowed_sites)
    data = inp.sites[task.data_site]
    return frozenset(code for code, site in inp.sites.items() if same_domain(site, data))


def judge_cross_domain(inp: EngineInput) -> CrossDomain:
    exclusions, allowed, found = _exclusions(inp)
    gates, more = _gates(inp)
    found += more
    eligible = (
        not exclusions
        and gates["portability"]
        and gates["latency_tolerance"]
        and gates["interruption"]
    )
    home_only = any(rule in HOME_DOMAIN_EXCLUSIONS for rule in exclusions) or not all(
        gates.values()
    )
    if home_only and _contract_allows_sites(inp, exclusions, gates):
        # SPEC 7.8: the sites in allowed_sites are allowed by contract: X4's own limit stands in
        # for the home-datacenter limit when G1 fails only on offsite_allowed.
        home_only = False
    found += _data_and_coupling_hints(inp)
    return CrossDomain(eligible, exclusions, gates, home_only, allowed, spread_tier(inp), found)


def _contract_allows_sites(inp: EngineInput, exclusions: list[str], gates: dict[str, bool]) -> bool:
    """SPEC 7.8: X4 (its allowed sites: allowed_sites, else the data site's datacenter), no other
    exclusion that keeps the task home, the other gates passed, and G1 failing only because
    off-site execution is not allowed."""
    task = inp.task
    return (
        "X4" in exclusions
        and not any(rule in HOME_DOMAIN_EXCLUSIONS for rule in exclusions)
        and gates["latency_tolerance"]
        and gates["interruption"]
        and task.env_simple
        and task.image_packaged
        and not task.offsite_allowed
    )


def _exclusions(inp: EngineInput) -> tuple[list[str], frozenset[str] | None, list[Finding]]:
    """SPEC X1, X2, X4, X5 (and the info X3): the exclusions, X4's allowed sites, the findings."""
    task = inp.task
    found: list[Finding] = []
    exclusions: list[str] = []
    # SPEC X1: low-latency online service.
    if task.low_latency_online or task.workload == "online_service":
        exclusions.append("X1")
    # SPEC X2: stateful.
    if task.stateful:
        exclusions.append("X2")
    # SPEC X4: compliance restricted; checked before portability (G1).
    if task.compliance_restricted:
        exclusions.append("X4")
    # SPEC X5: strict consistency.
    if task.strict_consistency:
        exclusions.append("X5")
    allowed = compliance_sites(inp) if task.compliance_restricted else None
    for rule in exclusions:
        data = {"allowed_sites": sorted(allowed or ())} if rule == "X4" else {}
        key = "X4.results" if rule == "X4" and task.results_restricted else rule
        found.append(finding(rule, "warn", key, data))
    # SPEC 6.1 X3: tight coupling limits spreading, not where the whole job runs: info only.
    if task.coupling == "tight":
        found.append(finding("X3", "info", "X3", {}))
    return exclusions, allowed, found


def _gates(inp: EngineInput) -> tuple[dict[str, bool], list[Finding]]:
    """SPEC G1–G3: portability, latency tolerance, interruption."""
    task = inp.task
    found: list[Finding] = []
    # SPEC G1: portability.
    missing = [
        name
        for name, ok in (
            ("env_simple", task.env_simple),
            ("image_packaged", task.image_packaged),
            ("offsite_allowed", task.offsite_allowed),
        )
        if not ok
    ]
    portability = not missing
    if not portability:
        found.append(finding("G1", "warn", "G1", {"missing": missing}))
    # SPEC G2: latency tolerance: the transfer budget is blank or above zero.
    transfer_budget = task.latency_budget_hours.transfer
    latency_tolerance = transfer_budget is None or transfer_budget > 0
    if not latency_tolerance:
        found.append(finding("G2", "warn", "G2", {"transfer_budget": transfer_budget}))
    # SPEC G3: interruption: resumable, or one interruption costs at most the threshold.
    limit = inp.thresholds["interruption_cost_hours"]
    interruption = task.resumable or task.interruption_cost_hours <= limit
    if not interruption:
        data = {"interruption_cost_hours": task.interruption_cost_hours, "limit": limit}
        found.append(finding("G3", "warn", "G3", data))
    gates = {
        "portability": portability,
        "latency_tolerance": latency_tolerance,
        "interruption": interruption,
    }
    return gates, found


def _data_and_coupling_hints(inp: EngineInput) -> list[Finding]:
    """SPEC D1 and K1: info findings on data-heavy and tightly coupled work."""
    task = inp.task
    found: list[Finding] = []
    # SPEC D1: data-intensive work whose results are under a tenth of the input.
    if task.workload in DATA_INTENSIVE and task.result_gb < task.input_gb / 10:
        data = {"input_gb": task.input_gb, "result_gb": task.result_gb}
        found.append(finding("D1", "info", "D1", data))
    # SPEC K1 / 6.1: a tightly coupled job stays whole in one pool, reserved ahead.
    if task.coupling == "tight":
        found.append(finding("K1", "info", "K1", {}))
    return found


def preemption_warnings(inp: EngineInput) -> list[Finding]:
    """SPEC 6.3 G4: a task that cannot resume, on preemptible capacity, reruns from the start at
    every preemption: one warning per preemptible candidate."""
    task = inp.task
    if task.resumable:
        return []
    return [
        finding(
            "G4",
            "warn",
            "G4",
            {
                "offer": offer.id,
                "preemptions_per_day": offer.preemptions_per_day,
                "interruption_cost_hours": task.interruption_cost_hours,
            },
            offer.id,
        )
        for offer in inp.offers
        if offer.preemptible
    ]
