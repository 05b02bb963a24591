"""Plan against actual, the arithmetic (pure: plain values in, plain values out).

The plan is one run of the chosen option of the snapshot a review was approved on (SPEC P):
compute = compute + scheduling + preprocessing cost, transfer = transfer cost, hours = the
option's total hours end to end, GPU-hours = its GPUs × compute hours. Each actual record is one
run, so a review with n records is compared with n × the plan:

    variance = actual − planned            (money, in the team's currency)
    variance % = variance ÷ planned × 100  (None when nothing was planned)

Hours are compared over the runs that recorded them only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

# Calibration (apps/teams/calibration): a run over 1.2 × its planned cost or hours is a bad outcome.
OVER_PLAN_FACTOR = 1.2
# The team threshold of the over-plan notice on the next review of the task, in %
# (models.ActualsSettings; the engine's thresholds are the method's, this one is the product's).
DEFAULT_OVER_PLAN_PCT = 20.0


@dataclass(frozen=True)
class Plan:
    compute_cost: float
    transfer_cost: float
    hours: float | None
    gpu_hours: float | None

    @property
    def total_cost(self) -> float:
        return self.compute_cost + self.transfer_cost


@dataclass(frozen=True)
class Run:
    id: int
    review_id: int
    period: dt.date
    compute_cost: float
    transfer_cost: float
    gpu_hours: float | None = None
    hours: float | None = None
    source: str = ""
    reference: str = ""

    @property
    def total_cost(self) -> float:
        return self.compute_cost + self.transfer_cost


def _matches(option: dict, chosen: dict) -> bool:
    return (option.get("kind"), option.get("site"), str(option.get("offer"))) == (
        chosen.get("kind"), chosen.get("site"), str(chosen.get("offer"))
    )


def plan_of(chosen: dict | None, options: list | None) -> Plan | None:
    """The plan of one run of the chosen option of an engine output; None without one."""
    if not chosen:
        return None
    option = next((o for o in options or [] if _matches(o, chosen)), None)
    if option is None:
        return None
    compute_hours, gpus = option.get("compute_hours"), option.get("gpus")
    return Plan(
        compute_cost=(option.get("compute_cost") or 0.0)
        + (option.get("scheduling_cost") or 0.0)
        + (option.get("preprocess_cost") or 0.0),
        transfer_cost=option.get("transfer_cost") or 0.0,
        hours=option.get("total_hours"),
        gpu_hours=compute_hours * gpus if compute_hours is not None and gpus else None,
    )


def pct(actual: float, planned: float | None) -> float | None:
    """(actual − planned) ÷ planned in %, None when nothing was planned."""
    if not planned:
        return None
    return (actual - planned) / planned * 100


@dataclass(frozen=True)
class Line:
    """One figure, planned against actual."""

    planned: float
    actual: float

    @property
    def variance(self) -> float:
        return self.actual - self.planned

    @property
    def variance_pct(self) -> float | None:
        return pct(self.actual, self.planned)


@dataclass
class Comparison:
    plan: Plan
    runs: list[Run] = field(default_factory=list)

    @property
    def compute(self) -> Line:
        n = len(self.runs)
        return Line(self.plan.compute_cost * n, sum(r.compute_cost for r in self.runs))

    @property
    def transfer(self) -> Line:
        n = len(self.runs)
        return Line(self.plan.transfer_cost * n, sum(r.transfer_cost for r in self.runs))

    @property
    def total(self) -> Line:
        return Line(self.compute.planned + self.transfer.planned,
                    self.compute.actual + self.transfer.actual)

    @property
    def hours(self) -> Line | None:
        timed = [r.hours for r in self.runs if r.hours is not None]
        if not timed or self.plan.hours is None:
            return None
        return Line(self.plan.hours * len(timed), sum(timed))

    @property
    def gpu_hours(self) -> Line | None:
        timed = [r.gpu_hours for r in self.runs if r.gpu_hours is not None]
        if not timed or self.plan.gpu_hours is None:
            return None
        return Line(self.plan.gpu_hours * len(timed), sum(timed))


def over_plan(plan: Plan, run: Run, factor: float = OVER_PLAN_FACTOR) -> list[str]:
    """What of one run went over `factor` × its plan: "cost", "hours" (empty: within it)."""
    over = []
    if plan.total_cost > 0 and run.total_cost > plan.total_cost * factor:
        over.append("cost")
    if plan.hours and run.hours is not None and run.hours > plan.hours * factor:
        over.append("hours")
    return over


def run_lines(plan: Plan, run: Run) -> dict[str, Line | None]:
    """One run against one plan, per figure."""
    return {
        "compute": Line(plan.compute_cost, run.compute_cost),
        "transfer": Line(plan.transfer_cost, run.transfer_cost),
        "total": Line(plan.total_cost, run.total_cost),
        "hours": Line(plan.hours, run.hours)
        if plan.hours is not None and run.hours is not None else None,
    }


def culprit(plan: Plan, run: Run) -> str:
    """The part of the bill that ran over most, in money: "transfer" or "compute"."""
    lines = run_lines(plan, run)
    return "transfer" if lines["transfer"].variance > lines["compute"].variance else "compute"
