"""SPEC X: cross-domain eligibility (exclusions X1–X5, gates G1–G3), coupling tier limits,
and the placement hints D1, D2 and K1."""

from __future__ import annotations

from dataclasses import dataclass, field

from .findings import Finding, finding
from .schema import DATA_INTENSIVE, TIER_RANK, EngineInput


@dataclass(slots=True)
class CrossDomain:
    eligible: bool
    exclusions: list[str]
    gates: dict[str, bool]
    max_tier: str  # the widest tier the coupling allows
    findings: list[Finding] = field(default_factory=list)

    @property
    def compliance_restricted(self) -> bool:
        return "X4" in self.exclusions

    def allows_tier(self, tier: str) -> bool:
        return TIER_RANK[tier] <= TIER_RANK[self.max_tier]


def coupling_tier_limit(inp: EngineInput) -> str:
    """SPEC X: tight → same_site; loose → same_city, or cross_hub when the three budgets together
    allow at least loose_cross_hub_hours (a blank budget is unlimited, so it allows); none → any."""
    task = inp.task
    if task.coupling == "tight":
        return "same_site"
    if task.coupling == "loose":
        budget = task.latency_budget_hours
        parts = (budget.transfer, budget.queue, budget.compute)
        if any(p is None for p in parts):
            return "cross_hub"
        total = sum(p for p in parts if p is not None)
        return "cross_hub" if total >= inp.thresholds["loose_cross_hub_hours"] else "same_city"
    return "cross_hub"


def judge_cross_domain(inp: EngineInput) -> CrossDomain:
    task = inp.task
    found: list[Finding] = []
    exclusions: list[str] = []
    # SPEC X1: low-latency online service.
    if task.low_latency_online or task.workload == "online_service":
        exclusions.append("X1")
    # SPEC X2: stateful.
    if task.stateful:
        exclusions.append("X2")
    # SPEC X3: tightly coupled distributed training.
    if task.coupling == "tight":
        exclusions.append("X3")
    # SPEC X4: compliance restricted; checked before portability (G1).
    if task.compliance_restricted:
        exclusions.append("X4")
    # SPEC X5: strict consistency.
    if task.strict_consistency:
        exclusions.append("X5")
    for rule in exclusions:
        found.append(finding(rule, "warn", rule, {}))

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
    eligible = not exclusions and portability and latency_tolerance and interruption

    # SPEC D1: data-intensive work whose results are under a tenth of the input.
    if task.workload in DATA_INTENSIVE and task.result_gb < task.input_gb / 10:
        data = {"input_gb": task.input_gb, "result_gb": task.result_gb}
        found.append(finding("D1", "info", "D1", data))
    # SPEC D2: repeated full scans make transfers recur.
    if task.access_pattern == "repeated_full_scan":
        found.append(finding("D2", "info", "D2", {"data_passes": task.data_passes}))
    # SPEC K1: tightly coupled training stays whole in one pool, reserved ahead.
    if task.workload == "training" and task.coupling == "tight":
        found.append(finding("K1", "info", "K1", {}))

    return CrossDomain(eligible, exclusions, gates, coupling_tier_limit(inp), found)
