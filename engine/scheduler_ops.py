"""SPEC 7.11: what running the distributed layer oneself costs in engineer time (seed A
"维护调度器的成本往往比算力本身还高"), and R1e's message with the managed alternative's
difference."""

from __future__ import annotations

from .findings import Finding, finding
from .placement import PlacementOption, tie_key
from .platform import NEEDS_SCHEDULER, PlatformChoice
from .schema import EngineInput

# A recurring run carries at most a year of upkeep (as the migration line spreads its effort
# over a year of runs, never fewer than one: SPEC 6.1): runs a month are at least 1 ÷ 12.
LEAST_RUNS_A_MONTH = 1 / 12


def runs_a_month(inp: EngineInput) -> float:
    """SPEC 7.11: runs_per_quarter ÷ 3 for a recurring job, at least one a year; a one-off job
    carries one month."""
    task = inp.task
    if task.cadence == "one_off":
        return 1.0
    return max(task.runs_per_quarter / 3, LEAST_RUNS_A_MONTH)


def scheduler_ops_cost(inp: EngineInput, platform: PlatformChoice) -> float:
    """SPEC 7.11: per run, scheduler_ops_hours_per_month × engineer_hour_cost ÷ runs a month,
    when the platform includes the distributed layer and the team hosts it itself; else 0."""
    if platform.platform not in NEEDS_SCHEDULER or platform.delivery != "self_hosted":
        return 0.0
    th = inp.thresholds
    return th["scheduler_ops_hours_per_month"] * th["engineer_hour_cost"] / runs_a_month(inp)


def self_hosting_note(
    inp: EngineInput, options: list[PlacementOption], ops: float, platform: PlatformChoice
) -> list[Finding]:
    """SPEC 7.11 R1e (info): self-hosting costs `ops` a run in engineer time; with a feasible
    managed candidate, what the cheapest of them costs against the cheapest self-hosted one."""
    costed = [o for o in options if o.feasible and o.total_cost is not None]
    own = [o for o in costed if o.offer.kind == "distributed"]
    managed = [o for o in costed if o.offer.kind == "managed"]
    th = inp.thresholds
    data = {
        "platform": platform.platform,
        "ops_cost": ops,
        "hours": th["scheduler_ops_hours_per_month"],
        "engineer_hour_cost": th["engineer_hour_cost"],
        "runs_a_month": runs_a_month(inp),
    }
    if not own or not managed:
        return [finding("R1e", "info", "R1e.self_hosted", data)]
    mine = min(own, key=lambda o: (o.total_cost, *tie_key(o)))
    theirs = min(managed, key=lambda o: (o.total_cost, *tie_key(o)))
    difference = theirs.total_cost - mine.total_cost  # type: ignore[operator]
    data |= {
        "offer": mine.offer.id,
        "total": mine.total_cost,
        "managed_offer": theirs.offer.id,
        "managed_total": theirs.total_cost,
        "difference": abs(difference),
    }
    key = "R1e.self_hosted.managed_dearer" if difference > 0 else "R1e.self_hosted.managed_cheaper"
    return [finding("R1e", "info", key, data)]
