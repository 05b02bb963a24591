"""Reads of actual costs: the list, each review's plan against its runs, the notice on the next
review of a task whose last run went over plan. A fixed number of queries, whatever the rows.

The plan is read from the snapshot a review was approved on through the review's own relations
(`SignOff.snapshot`, `Review.snapshots`): this app sits below scoring (docs/architecture.md) and
never imports it.
"""

from __future__ import annotations

from django.db.models import QuerySet

from apps.accounts.models import Team
from apps.reviews.models import Decision, Review, ReviewState, SignOff

from .models import ActualCost, ActualsSettings
from .variance import (
    DEFAULT_OVER_PLAN_PCT,
    Comparison,
    Plan,
    Run,
    culprit,
    pct,
    plan_of,
)

RUN_FIELDS = (
    "id", "review_id", "period", "compute_cost", "transfer_cost", "gpu_hours", "hours", "source",
    "reference",
)


def actual_list(*, team: Team, review: int | None = None, source: str | None = None) -> QuerySet:
    records = ActualCost.objects.filter(team=team).select_related("review")
    if review is not None:
        records = records.filter(review_id=review)
    if source is not None:
        records = records.filter(source=source)
    return records.order_by("-period", "-id")


def actual_detail(*, record_id: int, user) -> ActualCost:
    return ActualCost.objects.for_user(user).select_related("team", "review").get(pk=record_id)


def approved_reviews(*, team: Team) -> QuerySet:
    """The reviews an actual may attach to: the team's approved ones, newest first."""
    return (
        Review.objects.filter(team=team, state=ReviewState.APPROVED)
        .only("id", "title", "decided_at", "task_id")
        .order_by("-decided_at", "-id")
    )


def signed_plans(review_ids) -> dict[int, Plan]:
    """{review id: the plan of one run} from the snapshot each review was last approved on.
    Two queries."""
    ids = list(review_ids)
    if not ids:
        return {}
    signed: dict[int, int] = {}
    for review_id, snapshot_id in (
        SignOff.objects.filter(review_id__in=ids, decision=Decision.APPROVE)
        .order_by("review_id", "created_at", "id")
        .values_list("review_id", "snapshot_id")
    ):
        signed[review_id] = snapshot_id  # the last approval wins
    outputs = {
        snapshot_id: plan_of(chosen, options)
        for snapshot_id, chosen, options in Review.objects.filter(
            snapshots__id__in=set(signed.values())
        ).values_list("snapshots__id", "snapshots__output__chosen", "snapshots__output__options")
    }
    return {
        review_id: outputs[snapshot_id]
        for review_id, snapshot_id in signed.items()
        if outputs.get(snapshot_id) is not None
    }


def runs_by_review(*, team: Team, review_ids=None) -> dict[int, list[Run]]:
    """{review id: its runs, oldest first}. One query."""
    records = ActualCost.objects.filter(team=team)
    if review_ids is not None:
        records = records.filter(review_id__in=list(review_ids))
    out: dict[int, list[Run]] = {}
    for row in records.order_by("period", "id").values(*RUN_FIELDS):
        out.setdefault(row["review_id"], []).append(Run(**row))
    return out


def comparisons(*, team: Team, review_ids=None) -> dict[int, Comparison]:
    """{review id: its plan against its runs} for the reviews with runs and a signed plan."""
    runs = runs_by_review(team=team, review_ids=review_ids)
    plans = signed_plans(runs)
    return {rid: Comparison(plan=plans[rid], runs=rs) for rid, rs in runs.items() if rid in plans}


def signed_plan(review_id: int) -> Plan | None:
    """The plan of one run of one review, from the snapshot it was last approved on. One query."""
    row = (
        SignOff.objects.filter(review_id=review_id, decision=Decision.APPROVE)
        .order_by("-created_at", "-id")
        .values_list("snapshot__output__chosen", "snapshot__output__options")
        .first()
    )
    return plan_of(*row) if row else None


def plan_vs_actual(review: Review) -> dict:
    """The review page's section: its plan, each run against it, and the totals. One query
    without runs, two with."""
    runs = runs_by_review(team=review.team, review_ids=[review.pk]).get(review.pk, [])
    plan = signed_plan(review.pk) if runs else None
    if plan is None:
        return {"plan": None, "runs": runs, "comparison": None}
    comparison = Comparison(plan=plan, runs=runs)
    rows = [
        {
            "run": run,
            "variance": run.total_cost - plan.total_cost,
            "variance_pct": pct(run.total_cost, plan.total_cost),
            "hours_pct": pct(run.hours, plan.hours) if run.hours is not None else None,
        }
        for run in runs
    ]
    return {"plan": plan, "runs": runs, "rows": rows, "comparison": comparison}


def over_plan_threshold(team: Team) -> float:
    """The team's threshold of the over-plan notice, in % (default 20)."""
    value = (
        ActualsSettings.objects.filter(team=team).values_list("over_plan_pct", flat=True).first()
    )
    return DEFAULT_OVER_PLAN_PCT if value is None else value


def last_run_notice(review: Review) -> dict | None:
    """The over-plan notice on a later review of the same task: the task's last recorded run
    (under another, approved review decided before this one was opened) cost more than the
    team's threshold over its plan. None otherwise. At most three queries."""
    last = (
        ActualCost.objects.filter(
            team_id=review.team_id,
            review__task_id=review.task_id,
            review__decided_at__lt=review.created_at,
        )
        .exclude(review_id=review.pk)
        .order_by("-period", "-id")
        .values(*RUN_FIELDS)
        .first()
    )
    if last is None:
        return None
    run = Run(**last)
    plan = signed_plan(run.review_id)
    if plan is None:
        return None
    over = pct(run.total_cost, plan.total_cost)
    threshold = over_plan_threshold(review.team)
    if over is None or over <= threshold:
        return None
    return {
        "run": run,
        "plan": plan,
        "over_pct": over,
        "threshold": threshold,
        "culprit": culprit(plan, run),
        "hours_pct": pct(run.hours, plan.hours) if run.hours is not None else None,
    }
