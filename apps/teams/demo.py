"""The demo data of the whole product, in dependency order.

Each domain app builds its part in `apps/<app>/demo.py` (a function `load(ctx: DemoContext)`,
idempotent); this module is the one place that knows them all, which is why it lives in the top
app. The team history of the dashboard and the calibration page comes last: it is built on all
of the above.
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.accounts.demo import DemoContext, load_accounts
from apps.actuals import demo as actuals_demo
from apps.benchmarks import demo as benchmarks_demo
from apps.catalog import demo as catalog_demo
from apps.profiles import demo as profiles_demo
from apps.reviews import demo as reviews_demo
from apps.scoring.services import quarterly_refresh

from . import demo_history, demo_scoring, demo_staged
from .services import team_threshold_set, team_tier_validate

log = logging.getLogger(__name__)

# SPEC 6.1 T: what one engineer hour costs Team Aurora (USD, salary and overhead), so migration
# effort gets its own line on the bill; Team Borealis leaves it unpriced (the default 0).
AURORA_ENGINEER_HOUR_COST = 100.0


# SPEC 7.11: the engineer hours a month Team Aurora's self-hosted scheduler takes (upgrades,
# node drains, queue tuning: about a day a week of one engineer).
AURORA_SCHEDULER_OPS_HOURS = 32.0


def _price_engineer_hours(ctx: DemoContext) -> None:
    """Through the settings service, as an owner would (audited; a second load changes nothing)."""
    team_threshold_set(
        team=ctx.team1, actor=ctx.users.get("alice"), key="engineer_hour_cost",
        value=AURORA_ENGINEER_HOUR_COST,
    )
    team_threshold_set(
        team=ctx.team1, actor=ctx.users.get("alice"), key="scheduler_ops_hours_per_month",
        value=AURORA_SCHEDULER_OPS_HOURS,
    )


def _validate_tiers(ctx: DemoContext) -> None:
    """Team Aurora's same-datacenter pilots (benchmarks demo) validate that tier, through the
    settings service, before any review is evaluated, so the demo's snapshots already see it."""
    team, owner = ctx.team1, ctx.users.get("alice")
    try:
        team_tier_validate(team=team, actor=owner, tier="same_datacenter")
    except ValidationError as exc:
        log.warning("demo: same_datacenter of %s not validated: %s", team, exc.messages)


@transaction.atomic
def load_demo() -> DemoContext:
    ctx = load_accounts()
    catalog_demo.load(ctx)
    profiles_demo.load(ctx)
    benchmarks_demo.load(ctx)
    _validate_tiers(ctx)
    _price_engineer_hours(ctx)
    reviews_demo.load(ctx)
    demo_staged.load(ctx)
    demo_scoring.load(ctx)
    demo_history.load(ctx)
    # What the history runs really cost, then Team Aurora's quarters counted again from them.
    actuals_demo.load(ctx)
    quarterly_refresh(team=ctx.team1)
    return ctx
