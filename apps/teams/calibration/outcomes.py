"""Calibration, step 1: what happened after each decision (an outcome label per task).

Outcome labels (written down in docs/decisions.md):
- bad: the review was rejected; a pilot migration of the task failed; a run on the chosen offer
  recorded after the decision took more than 1.2 × the plan's total hours; or such a run needed
  full reruns after failures; or an actual cost record of the review (apps.actuals: what a run of
  the approved plan really cost) is over 1.2 × the planned cost or hours.
- good (only when the review was approved and nothing bad is recorded): a pilot migration
  succeeded; a later run (a benchmark record or an actual cost) finished within 1.2 × the plan;
  or a later multi-machine run was faster than the fastest single-machine run.
- unknown: anything else. Unknown points are drawn but never used for a suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from apps.actuals.variance import OVER_PLAN_FACTOR

GOOD, BAD, UNKNOWN = "good", "bad", "unknown"
SLOWER_FACTOR = OVER_PLAN_FACTOR
MIN_LABELLED = 5


REASONS = {
    "rejected": gettext_lazy("review rejected"),
    "pilot_failed": gettext_lazy("a pilot migration failed"),
    "slower": gettext_lazy("a run took over 1.2 × the planned hours"),
    "over_cost": gettext_lazy("a run cost over 1.2 × the planned cost"),
    "full_reruns": gettext_lazy("a run needed full reruns after failures"),
    "pilot_succeeded": gettext_lazy("a pilot migration succeeded"),
    "on_plan": gettext_lazy("a run finished within the plan"),
    "multi_faster": gettext_lazy("multi-machine was faster than single"),
    "no_evidence": gettext_lazy("no outcome recorded yet"),
}


def decisive_rank(review_state: str) -> int:
    """Which review speaks for a task: an approved one first, then a rejected one, then any."""
    return {"approved": 0, "rejected": 1}.get(review_state, 2)


@dataclass
class TaskPoint:
    task_id: int
    task_name: str
    review_id: int
    review_title: str
    review_state: str
    label: str
    reasons: list[str]
    data_compute_ratio: float | None = None
    network_cost_share: float | None = None
    interruption_cost: float | None = None
    scheduling_benefit: float | None = None
    interruption_cost_hours: float | None = None
    over_budget: list[str] = field(default_factory=list)

    @property
    def reason_labels(self) -> list[str]:
        return [str(REASONS[r]) for r in self.reasons]


def _later(record: dict, reference_time) -> bool:
    recorded = record.get("recorded_at")
    return reference_time is None or (recorded is not None and recorded > reference_time)


def outcome(
    *,
    review_state: str,
    reference_time=None,
    chosen_offer: str | None = None,
    planned_hours: float | None = None,
    records: list[dict] = (),
    actual_runs: list[dict] = (),
) -> tuple[str, list[str]]:
    """(label, reason codes) of one task; see the module docstring for the rules.

    `actual_runs`: the actual cost records of the deciding review, each {"over": what went over
    1.2 × its plan: "cost" and/or "hours" (apps.actuals.variance.over_plan)}."""
    bad: list[str] = []
    good: list[str] = []
    for run in actual_runs:
        over = run.get("over") or []
        if "cost" in over:
            bad.append("over_cost")
        if "hours" in over:
            bad.append("slower")
        if not over:
            good.append("on_plan")
    if review_state == "rejected":
        bad.append("rejected")
    for record in records:
        if record["kind"] == "pilot_migration":
            if record.get("succeeded") is False:
                bad.append("pilot_failed")
            elif record.get("succeeded") is True:
                good.append("pilot_succeeded")
    runs = [
        r for r in records
        if r["kind"] in ("single", "multi")
        and chosen_offer
        and str(r.get("offer_id")) == str(chosen_offer)
    ]
    singles = [r["e2e_hours"] for r in runs if r["kind"] == "single" and r["e2e_hours"] > 0]
    best_single = min(singles) if singles else None
    for run in runs:
        if not _later(run, reference_time):
            continue
        e2e = run["e2e_hours"]
        if planned_hours:
            if e2e > planned_hours * SLOWER_FACTOR:
                bad.append("slower")
            else:
                good.append("on_plan")
        if run["kind"] == "multi" and best_single and e2e > 0 and best_single / e2e > 1:
            good.append("multi_faster")
        if run.get("failure_reruns", 0) > 0 and run.get("recovery") == "full_rerun":
            bad.append("full_reruns")
    if bad:
        return BAD, list(dict.fromkeys(bad))
    if review_state == "approved" and good:
        return GOOD, list(dict.fromkeys(good))
    return UNKNOWN, list(dict.fromkeys(good)) or ["no_evidence"]


def _float(value) -> float | None:
    return None if value is None else float(value)


def task_point(
    *,
    task_id: int,
    task_name: str,
    review_id: int,
    review_title: str,
    review_state: str,
    reference_time,
    chosen_offer: str | None,
    planned_hours: float | None,
    metrics: dict,
    interruption_cost_hours: float | None,
    records: list[dict],
    actual_runs: list[dict] = (),
) -> TaskPoint:
    label, reasons = outcome(
        review_state=review_state,
        reference_time=reference_time,
        chosen_offer=chosen_offer,
        planned_hours=planned_hours,
        records=records,
        actual_runs=actual_runs,
    )
    return TaskPoint(
        task_id=task_id,
        task_name=task_name,
        review_id=review_id,
        review_title=review_title,
        review_state=review_state,
        label=label,
        reasons=reasons,
        data_compute_ratio=_float(metrics.get("data_compute_ratio")),
        network_cost_share=_float(metrics.get("network_cost_share")),
        interruption_cost=_float(metrics.get("interruption_cost")),
        scheduling_benefit=_float(metrics.get("scheduling_benefit")),
        interruption_cost_hours=_float(interruption_cost_hours),
        over_budget=list(metrics.get("over_budget") or []),
    )
