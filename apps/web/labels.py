"""The words for the engine's codes, in the user's language: the one table of each.

The engine answers in codes (`compute_platform`, `move_data`, `pool_too_small`, …) and ships its
finding messages in both languages itself (engine/messages.py). The other codes get their words
here, once, for every page: the profile panel, the comparison table, the review page, exports.
Rollout tiers are named by their model choices (apps.catalog.models.Tier).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

PLATFORMS = {
    "compute_platform": _("Compute platform"),
    "distributed_platform": _("Distributed computing platform"),
    "both": _("Both layers: compute and distributed"),
    "baseline_first": _("Run a single-machine baseline first"),
    "not_feasible": _("Not feasible"),
}
PLATFORM_BADGES = {
    "compute_platform": "ok",
    "distributed_platform": "info",
    "both": "info",
    "baseline_first": "warn",
    "not_feasible": "block",
}
OPTION_KINDS = {
    "wait_local": _("Wait locally"),
    "move_compute": _("Move compute to the data"),
    "move_data": _("Move the data"),
}
# The comparison table's rows: the three option kinds and the two kinds of benchmark run.
PLACEMENTS = {
    **OPTION_KINDS,
    "single": _("Benchmark: single machine"),
    "multi": _("Benchmark: multi-machine"),
}
# The two kinds of row of the comparison table (exports name them; the page shows them apart).
ROW_TYPES = {
    "option": _("Placement option"),
    "benchmark": _("Benchmark run"),
}
# A finding's severity, as components/finding.html words it.
SEVERITIES = {
    "block": _("block"),
    "warn": _("warning"),
    "info": _("info"),
}
VERDICTS = {
    "chosen": _("chosen"),
    "feasible": _("feasible"),
    "infeasible": _("not feasible"),
    "over_budget": _("over the latency budget"),
    "over_cost_budget": _("over the cost budget"),
    "net_gain": _("net gain"),
    "no_net_gain": _("no net gain"),
    "baseline": _("baseline"),
}
# Why an option is infeasible (engine output options[].reason).
REASONS = {
    # Engine 2.x reasons (SPEC 6.1).
    "pool_too_small": _("the pool has fewer GPUs than the plan (max machines × GPUs)"),
    "no_shared_parallelism": _("no strategy in common with the task to split or spread it"),
    "compliance_site": _("compliance: the data may not be processed at this site"),
    "compliance_moves_data": _("compliance: the input data may not move here"),
    "compliance_moves_results": _("compliance: the results may not leave the allowed sites"),
    "not_eligible": _("outside the home datacenter, and the task must stay in its domain"),
    "no_link": _("no network link recorded for a transfer"),
    # Engine 3.0 reasons (SPEC 7.1, 7.3).
    "too_few_gpus": _("the planned GPUs cannot hold one replica on this offer"),
    "preempted_before_done": _("preempted more than twice on average before it could finish"),
    # Engine 3.1 reason (SPEC 7.4).
    "no_fast_interconnect": _("a tightly coupled job over machines joined only by Ethernet"),
    # Engine 1.x reasons, still shown on snapshots signed under 1.x.
    "exceeds_max_machines": _("needs more machines than the offer has"),
    "tier_not_allowed": _("the task's coupling does not allow this tier"),
}
EXCLUSIONS = {
    "X1": _("Low-latency online service"),
    "X2": _("Stateful"),
    "X3": _("Tightly coupled distributed training"),
    "X4": _("Compliance restricted"),
    "X5": _("Strict consistency"),
}
# (rule, key in the output's cross_domain.gates, name)
GATES = (
    ("G1", "portability", _("Portability")),
    ("G2", "latency_tolerance", _("Latency tolerance")),
    ("G3", "interruption", _("Interruption")),
)
SEGMENTS = {"transfer": _("transfer"), "queue": _("queue"), "compute": _("compute")}
SIZING_SOURCES = {
    "estimate": _("estimated from parameters and precision"),
    "measured": _("measured peak"),
    "none": _("no memory figure: memory limits nothing"),
}


def label(table: dict, value) -> str:
    """The words for `value` in `table`; the code itself when the table does not know it."""
    if value in (None, ""):
        return ""
    return str(table.get(str(value), value))
