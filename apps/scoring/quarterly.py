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
"""

from __future__ import annotations

from django.utils import timezone

from apps.accounts.models import Team
from apps.reviews.models import Decision, Review, ReviewState, SignOff
from apps.scoring.models import EvaluationSnapshot


def quarter_of(moment) -> str:
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return f"{local.year}Q{(local.month - 1) // 3 + 1}"


def _matches(option: dict, chosen: dict) -> bool:
    return (option["kind"], option["site"], str(option["offer"])) == (
        chosen["kind"], chosen["site"], str(chosen["offer"])
    )


def review_figures(output: dict) -> tuple[float, float] | None:
    """(compute saved, transfer fees) of one approved snapshot's output; None when not counted."""
    chosen = output.get("chosen")
    if not chosen:
        return None
    options = output.get("options", [])
    c = next((o for o in options if _matches(o, chosen)), None)
    if c is None:
        return None
    locals_ = [o for o in options if o["kind"] == "wait_local" and o["feasible"]]
    if not locals_:
        return 0.0, c.get("transfer_cost") or 0.0
    if c["kind"] == "wait_local":
        return 0.0, 0.0  # C is the best wait-local option: the baseline itself
    w = min(locals_, key=lambda o: (o["objective"] is None, o["objective"] or 0.0))
    saved = (w["compute_cost"] + w["scheduling_cost"]) - (c["compute_cost"] + c["scheduling_cost"])
    fees = (c.get("transfer_cost") or 0.0) - (w.get("transfer_cost") or 0.0)
    return saved, fees


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


def team_quarters(team: Team) -> dict[str, dict]:
    """{quarter: {compute_saved, transfer_fees, net, reviews_counted}} for the team."""
    quarters: dict[str, dict] = {}
    for review, snapshot in approved_snapshots(team):
        figures = review_figures(snapshot.output)
        if figures is None:
            continue
        saved, fees = figures
        row = quarters.setdefault(
            quarter_of(review.decided_at),
            {"compute_saved": 0.0, "transfer_fees": 0.0, "net": 0.0, "reviews_counted": 0},
        )
        row["compute_saved"] += saved
        row["transfer_fees"] += fees
        row["reviews_counted"] += 1
    for row in quarters.values():
        row["compute_saved"] = round(row["compute_saved"], 6)
        row["transfer_fees"] = round(row["transfer_fees"], 6)
        row["net"] = round(row["compute_saved"] - row["transfer_fees"], 6)
    return dict(sorted(quarters.items()))
