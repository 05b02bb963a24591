"""The quarterly cost review (按季对账, SPEC 5): did the placements we approved save more compute
cost than they paid in transfer fees?

Per approved review (quarter = the quarter of its `decided_at`, in the project's time zone), on
the snapshot it was approved on (the latest approving sign-off's snapshot; the review's latest
snapshot when it has none):

- chosen = the chosen option C; baseline = the best feasible `wait_local` option W (least
  objective, SPEC M2's "best wait_local"). C is a wait-local option: nothing moved, the review
  counts zero for everything.
- compute saved = (W.compute_cost + W.scheduling_cost) − (C.compute_cost + C.scheduling_cost):
  negative when the pool the work moved to is dearer per job.
- transfer fees = C.transfer_cost − W.transfer_cost: the fees the move paid on top of what waiting
  locally would have paid (negative when moving compute to the data avoided shipping it home).
- without W (no offer at the home site): nothing to compare with; saved 0, fees C.transfer_cost.
- no chosen option: not counted.
net = compute saved − transfer fees = W.total_cost − C.total_cost: what the placement decision
saved. All figures in the team's currency, SPEC P costs (the expected rerun loss of SPEC T is left
out: it does not depend on the site).

Plan against actual (SPEC 6.3): where a review has actual cost records (apps.actuals), each
record is one run and counts in the quarter of its period instead of the plan: compute saved =
(W.compute_cost + W.scheduling_cost) − the run's actual compute, transfer fees = the run's
actual transfer − W.transfer_cost (W: the baseline above, per run; a wait-local choice is its
own baseline, so an overrun shows as a negative saving; without W, saved 0 and the fees the run
paid). A review without actuals counts its plan in the quarter of its decision, and the row says
how many of its reviews are planned figures only. Each row also carries the plan against the
actuals of the runs it counts (planned and actual compute and transfer).
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.db.models import Count, Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.actuals.models import ActualCost
from apps.actuals.selectors import runs_by_review
from apps.actuals.variance import plan_of
from apps.reviews.models import Decision, Review, ReviewState, SignOff
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.web.charts import PALETTE, layout


def quarter_of(moment) -> str:
    """The quarter of a moment (in the project's time zone) or of a date."""
    aware = isinstance(moment, datetime) and timezone.is_aware(moment)
    local = timezone.localtime(moment) if aware else moment
    return f"{local.year}Q{(local.month - 1) // 3 + 1}"


def _matches(option: dict, chosen: dict) -> bool:
    return (option["kind"], option["site"], str(option["offer"])) == (
        chosen["kind"], chosen["site"], str(chosen["offer"])
    )


def _baseline(output: dict) -> tuple[dict, dict | None] | None:
    """(C, W) of one approved snapshot's output: the chosen option and the best feasible
    wait-local one (C itself when it waits locally; None without one). None: not counted."""
    chosen = output.get("chosen")
    if not chosen:
        return None
    options = output.get("options", [])
    c = next((o for o in options if _matches(o, chosen)), None)
    if c is None:
        return None
    if c["kind"] == "wait_local":
        return c, c
    locals_ = [o for o in options if o["kind"] == "wait_local" and o["feasible"]]
    if not locals_:
        return c, None
    return c, min(locals_, key=lambda o: (o["objective"] is None, o["objective"] or 0.0))


def _compute(option: dict) -> float:
    return option["compute_cost"] + option["scheduling_cost"]


def review_figures(output: dict) -> tuple[float, float] | None:
    """(compute saved, transfer fees) of one approved snapshot's output; None when not counted."""
    pair = _baseline(output)
    if pair is None:
        return None
    c, w = pair
    if w is None:
        return 0.0, c.get("transfer_cost") or 0.0
    saved = _compute(w) - _compute(c)
    fees = (c.get("transfer_cost") or 0.0) - (w.get("transfer_cost") or 0.0)
    return saved, fees


def run_figures(output: dict, run) -> tuple[float, float] | None:
    """(compute saved, transfer fees) of one actual run of the review: its actual compute and
    transfer against the wait-local baseline per run; None when the review is not counted."""
    pair = _baseline(output)
    if pair is None:
        return None
    _c, w = pair
    if w is None:
        return 0.0, run.transfer_cost
    return _compute(w) - run.compute_cost, run.transfer_cost - (w.get("transfer_cost") or 0.0)


def approved_snapshots(team: Team) -> list[tuple[Review, EvaluationSnapshot]]:
    """Each approved, decided review of the team with the snapshot it was approved on."""
    reviews = list(
        Review.objects.filter(
            team=team, state=ReviewState.APPROVED, decided_at__isnull=False
        ).only("id", "decided_at", "team_id")
    )
    if not reviews:
        return []
    ids = [r.pk for r in reviews]
    signed: dict[int, int] = {}
    for review_id, snapshot_id in (
        SignOff.objects.filter(review_id__in=ids, decision=Decision.APPROVE)
        .order_by("review_id", "created_at", "id")
        .values_list("review_id", "snapshot_id")
    ):
        signed[review_id] = snapshot_id  # the last approval wins
    wanted = set(signed.values())
    latest: dict[int, int] = {}
    for review_id, snapshot_id in (
        EvaluationSnapshot.objects.filter(review_id__in=[i for i in ids if i not in signed])
        .order_by("review_id", "-created_at", "-id")
        .values_list("review_id", "id")
    ):
        latest.setdefault(review_id, snapshot_id)
    wanted |= set(latest.values())
    snapshots = EvaluationSnapshot.objects.only("id", "output").in_bulk(wanted)
    out = []
    for review in reviews:
        snapshot = snapshots.get(signed.get(review.pk) or latest.get(review.pk))
        if snapshot is not None:
            out.append((review, snapshot))
    return out


FIGURES = (
    "compute_saved", "transfer_fees", "net", "planned_compute", "planned_transfer",
    "actual_compute", "actual_transfer",
)


def figures_inputs(team: Team) -> str:
    """What the team's quarterly figures are computed from, in short: its actual cost records
    (which, their versions and sums) and its reviews' sign-offs (which reviews are approved, on
    which snapshot). Saving, importing or deleting a record, or a new sign-off, changes it."""
    actuals = ActualCost.objects.filter(team=team).aggregate(
        n=Count("pk"), ids=Sum("pk"), versions=Sum("version"), compute=Sum("compute_cost"),
        transfer=Sum("transfer_cost"),
    )
    signoffs = SignOff.objects.filter(review__team=team).aggregate(n=Count("pk"), last=Max("pk"))
    text = repr((sorted(actuals.items()), sorted(signoffs.items())))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _row(quarters: dict, quarter: str) -> dict:
    return quarters.setdefault(
        quarter,
        {**dict.fromkeys(FIGURES, 0.0), "reviews_counted": 0, "planned_reviews": 0,
         "runs_counted": 0, "_reviews": set()},
    )


def team_quarters(team: Team) -> dict[str, dict]:
    """{quarter: {compute_saved, transfer_fees, net, reviews_counted, planned_reviews,
    runs_counted, planned_compute, planned_transfer, actual_compute, actual_transfer}}."""
    quarters: dict[str, dict] = {}
    approved = approved_snapshots(team)
    runs = runs_by_review(team=team, review_ids=[review.pk for review, _s in approved])
    for review, snapshot in approved:
        figures = review_figures(snapshot.output)
        if figures is None:
            continue
        if review.pk not in runs:
            row = _row(quarters, quarter_of(review.decided_at))
            row["compute_saved"] += figures[0]
            row["transfer_fees"] += figures[1]
            row["planned_reviews"] += 1
            row["_reviews"].add(review.pk)
            continue
        plan = plan_of(snapshot.output.get("chosen"), snapshot.output.get("options"))
        for run in runs[review.pk]:
            saved, fees = run_figures(snapshot.output, run)
            row = _row(quarters, quarter_of(run.period))
            row["compute_saved"] += saved
            row["transfer_fees"] += fees
            row["planned_compute"] += plan.compute_cost
            row["planned_transfer"] += plan.transfer_cost
            row["actual_compute"] += run.compute_cost
            row["actual_transfer"] += run.transfer_cost
            row["runs_counted"] += 1
            row["_reviews"].add(review.pk)
    for row in quarters.values():
        row["reviews_counted"] = len(row.pop("_reviews"))
        for name in FIGURES:
            row[name] = round(row[name], 6)
        row["net"] = round(row["compute_saved"] - row["transfer_fees"], 6)
    return dict(sorted(quarters.items()))


def actuals_summary(rows: list) -> dict:
    """The quarterly page's plan-against-actual part: totals of the rows counted from actuals
    and the planned-against-actual chart (apps.web.charts style)."""
    counted = [r for r in rows if r.runs_counted]
    totals = {name: sum(getattr(r, name) for r in counted) for name in (
        "planned_compute", "planned_transfer", "actual_compute", "actual_transfer",
        "runs_counted")}
    planned = totals["planned_compute"] + totals["planned_transfer"]
    actual = totals["actual_compute"] + totals["actual_transfer"]
    totals.update(planned=planned, actual=actual, variance=actual - planned,
                  variance_pct=(actual - planned) / planned * 100 if planned else None)
    return {"actual_totals": totals, "actual_figure": _plan_actual_figure(counted)}


def _plan_actual_figure(rows: list) -> dict | None:
    if not rows:
        return None
    quarters = [r.quarter for r in rows]

    def bar(name, values, color, pattern=""):
        return {"type": "bar", "name": name, "x": quarters, "y": values,
                "marker": {"color": color, "pattern": {"shape": pattern}},
                "hovertemplate": "%{y:,.2f}<extra>%{fullData.name}</extra>"}

    return {
        "title": _("Planned against actual, per quarter"),
        "data": [
            bar(_("planned compute"), [r.planned_compute for r in rows], PALETTE["compute"], "/"),
            bar(_("actual compute"), [r.actual_compute for r in rows], PALETTE["compute"]),
            bar(_("planned transfer"), [r.planned_transfer for r in rows], PALETTE["transfer"],
                "/"),
            bar(_("actual transfer"), [r.actual_transfer for r in rows], PALETTE["transfer"]),
        ],
        "layout": layout(barmode="group", xaxis={"type": "category"},
                         yaxis={"title": {"text": _("cost")}, "rangemode": "tozero"}),
    }
