"""Demo data of plan against actual (runs after the scoring demo; apps.teams.demo calls it).

Team Aurora's two approved "Clickstream cleaning" runs of earlier quarters (apps.teams.
demo_scoring: May and August, next to the data in Guangzhou) get what they really cost, as the
team would have entered it from the bill: the May run close to its plan (compute 3 % over,
transfer 2 % under, 2 % longer), the August run about 35 % over (the L40S pool was contended: 35 %
more compute and hours, transfer 10 % over). So the quarterly review counts both quarters from
actuals, and the calibration counts August as a bad outcome (over 1.2 × its plan). August still
nets a saving, a smaller one: shipping 5 TB home would have cost more than the overrun.

Every figure is a factor of the plan the review was signed on, so the demo follows the engine.
Idempotent: each record carries an idempotency key "demo-actual-…" and is looked up by it first.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from apps.accounts.demo import DemoContext
from apps.reviews.models import Review, ReviewState

from .models import ActualCost, Source
from .selectors import signed_plan
from .services import actual_create

log = logging.getLogger(__name__)

# (title of the history review, key, factors of the plan: compute, transfer, hours, the note).
RUNS = [
    (
        "Clickstream cleaning, May run: compute next to the data in Guangzhou",
        "demo-actual-clickstream-may",
        (1.03, 0.98, 1.02),
        "Ran as planned; the bill's egress line was slightly under the estimate.",
    ),
    (
        "Clickstream cleaning, August run: next to the data again",
        "demo-actual-clickstream-august",
        (1.35, 1.10, 1.35),
        "The Guangzhou L40S pool was shared with another team that week: 35 % more GPU time.",
    ),
]


def load(ctx: DemoContext) -> None:
    alice = ctx.users.get("alice")
    for title, key, (compute, transfer, hours), note in RUNS:
        if ActualCost.objects.filter(team=ctx.team1, idempotency_key=key).exists():
            continue
        review = Review.objects.filter(
            team=ctx.team1, title=title, state=ReviewState.APPROVED
        ).first()
        plan = signed_plan(review.pk) if review is not None else None
        if plan is None:
            log.warning("demo actual %s skipped: review %r not approved on a plan", key, title)
            continue
        actual_create(
            team=ctx.team1,
            source=Source.FORM,
            created_by=alice,
            data={
                "review": review.pk,
                "period": timezone.localdate(review.decided_at),
                "compute_cost": round(plan.compute_cost * compute, 2),
                "transfer_cost": round(plan.transfer_cost * transfer, 2),
                "gpu_hours": round(plan.gpu_hours * hours, 1) if plan.gpu_hours else None,
                "hours": round(plan.hours * hours, 1) if plan.hours else None,
                "reference": f"invoice {review.decided_at:%Y-%m} / review:{review.pk}",
                "idempotency_key": key,
                "notes": note,
            },
        )
