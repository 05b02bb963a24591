"""The rollout tiers in their order (SPEC H, 6.1 "rollout order") and what validating one needs:
the tier below it validated, and PILOTS_TO_VALIDATE successful pilots on it. Reads only; the
writes (team_tier_validate, team_tier_unvalidate) are in services.py, and the settings page and
those writes ask the same tier_validation_problems."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Tier

PILOTS_TO_VALIDATE = 2
ALWAYS_VALIDATED = Tier.SAME_SITE.value
TIER_ORDER = [t.value for t in Tier]


def successful_pilots(team: Team, tier: str) -> int:
    return BenchmarkRecord.objects.filter(
        team=team, kind="pilot_migration", tier=tier, succeeded=True
    ).count()


def tier_label(tier: str) -> str:
    return str(dict(Tier.choices).get(tier, tier))


def validated_set(team: Team) -> set[str]:
    return set(team.validated_tiers or []) | {ALWAYS_VALIDATED}


def tier_below(tier: str) -> str | None:
    """The next narrower tier (None for the same site)."""
    index = TIER_ORDER.index(tier)
    return TIER_ORDER[index - 1] if index > 0 else None


def tiers_wider_than(tier: str) -> list[str]:
    return TIER_ORDER[TIER_ORDER.index(tier) + 1 :]


def tier_validation_problems(*, validated: set[str], tier: str, succeeded: int) -> list[str]:
    """Why `tier` cannot be marked validated now ([] when it can), in the user's language.

    SPEC 6.1: a tier is validated only on top of the tier below it (same_site → same_datacenter →
    same_city → cross_hub), and only after PILOTS_TO_VALIDATE successful pilots on itself, the
    same datacenter included. The settings page and team_tier_validate both ask this function.
    """
    if tier == ALWAYS_VALIDATED:
        return []
    problems = []
    below = tier_below(tier)
    if below is not None and below not in validated:
        problems.append(
            _("Validate %(below)s first: %(tier)s can be marked validated only once the tier "
              "below it is.") % {"below": tier_label(below), "tier": tier_label(tier)}
        )
    if succeeded < PILOTS_TO_VALIDATE:
        problems.append(
            _("%(tier)s needs %(need)d successful pilot migrations on it; %(count)d recorded so "
              "far, %(missing)d more needed.")
            % {
                "tier": tier_label(tier),
                "need": PILOTS_TO_VALIDATE,
                "count": succeeded,
                "missing": PILOTS_TO_VALIDATE - succeeded,
            }
        )
    return problems
