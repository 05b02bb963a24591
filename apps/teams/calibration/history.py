"""Calibration, step 0: the team's history read from the database (the one module of this
package that queries), handed to the pure steps as plain values.

A fixed number of queries, whatever the number of snapshots or records.
"""

from __future__ import annotations

from apps.accounts.models import Team
from apps.actuals.selectors import comparisons
from apps.actuals.variance import over_plan
from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.snapshots.models import EvaluationSnapshot

from .. import thresholds
from .indicators import indicators
from .outcomes import MIN_LABELLED, UNKNOWN, TaskPoint, decisive_rank, task_point


def calibration_points(*, team: Team) -> list[TaskPoint]:
    """One point per task of the team with a snapshot: its figures and what happened after.

    The figures are those of the review that decided the task when there is one (the approved
    review's signed snapshot, else a rejected one), otherwise of the task's newest snapshot.
    """
    chosen = _deciding_snapshots(team)
    if not chosen:
        return []
    figures = {
        row["pk"]: row
        for row in EvaluationSnapshot.objects.filter(
            pk__in=[r["pk"] for r in chosen.values()]
        ).values("pk", "output__metrics", "input__task__interruption_cost_hours")
    }
    records = _records_by_task(team, list(chosen))
    # What the runs of each deciding approved review really cost, against its signed plan.
    actuals = comparisons(
        team=team,
        review_ids=[r["review_id"] for r in chosen.values() if r["review__state"] == "approved"],
    )
    points = []
    for task_id, row in sorted(chosen.items(), key=lambda item: item[1]["task__name"]):
        actual = actuals.get(row["review_id"])
        figure = figures.get(row["pk"], {})
        points.append(
            task_point(
                task_id=task_id,
                task_name=row["task__name"],
                review_id=row["review_id"],
                review_title=row["review__title"],
                review_state=row["review__state"],
                reference_time=row["review__decided_at"] or row["created_at"],
                chosen_offer=row["chosen_offer"],
                planned_hours=row["chosen_total_hours"],
                metrics=figure.get("output__metrics") or {},
                interruption_cost_hours=figure.get("input__task__interruption_cost_hours"),
                records=records.get(task_id, []),
                actual_runs=[{"over": over_plan(actual.plan, run)} for run in actual.runs]
                if actual else [],
            )
        )
    return points


def calibration_overview(*, team: Team) -> dict:
    points = calibration_points(team=team)
    current = thresholds.effective(team.thresholds)
    labelled = sum(1 for p in points if p.label != UNKNOWN)
    return {
        "points": points,
        "indicators": indicators(points, current),
        "labelled": labelled,
        "min_labelled": MIN_LABELLED,
        "needed": max(0, MIN_LABELLED - labelled),
    }


def _deciding_snapshots(team: Team) -> dict[int, dict]:
    """Per task, the snapshot whose figures count: the deciding review's (approved before
    rejected), else the newest."""
    rows = (
        EvaluationSnapshot.objects.filter(team=team)
        .values(
            "pk", "task_id", "task__name", "review_id", "review__title", "review__state",
            "review__decided_at", "created_at", "chosen_offer", "chosen_total_hours",
        )
        .order_by("task_id", "-created_at", "-pk")
    )
    chosen: dict[int, dict] = {}
    for row in rows:
        current = chosen.get(row["task_id"])
        if current is None or decisive_rank(row["review__state"]) < (
            decisive_rank(current["review__state"])
        ):
            chosen[row["task_id"]] = row
    return chosen


def _records_by_task(team: Team, task_ids: list[int]) -> dict[int, list[dict]]:
    """The timed and pilot benchmark records of these tasks, by task."""
    records: dict[int, list[dict]] = {}
    for record in BenchmarkRecord.objects.filter(
        team=team, task_id__in=task_ids, kind__in=("single", "multi", "pilot_migration")
    ).values(
        "task_id", "offer_id", "kind", "succeeded", "e2e_hours", "nodes", "gpus_per_node",
        "failure_reruns", "recovery", "recorded_at", "tier",
    ):
        records.setdefault(record["task_id"], []).append(record)
    return records
