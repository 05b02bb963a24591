"""Writes of team settings: members and roles, approvals and currency, validated tiers, thresholds.

Every change is audited (`AuditEvent`, review=None). A change of a threshold or of the validated
tiers also bumps `team.settings_generation`; the engine input of every open review includes both,
so their snapshots no longer match and their next view recomputes, while an approved review is
evaluated on its frozen input and keeps the figures it was signed on.

Each write locks the team row first, so two owners acting at once cannot, say, demote each other
and leave the team without an owner.
"""

from __future__ import annotations

import math
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from apps.accounts.invitations import invitation_for_person
from apps.accounts.models import Membership, Role, Team
from apps.notifications.webhooks import (
    webhook_endpoint_create,
    webhook_endpoint_delete,
    webhook_endpoint_resume,
)
from apps.reviews.models import AuditEvent
from apps.web.concurrency import claim

from . import thresholds
from .tiers import (
    ALWAYS_VALIDATED,
    TIER_ORDER,
    successful_pilots,
    tier_validation_problems,
    tiers_wider_than,
    validated_set,
)

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")
MAX_APPROVALS = 10


def _audit(*, team: Team, actor, action: str, target: str = "", changes: dict | None = None):
    return AuditEvent.objects.create(
        team=team, review=None, actor=actor, action=action, target=target, changes=changes or {}
    )


def _lock(team: Team) -> Team:
    """The team row, locked until the end of the transaction."""
    return Team.objects.select_for_update().get(pk=team.pk)


def _copy_back(locked: Team, team: Team, fields: list[str]) -> None:
    """Keep the caller's Team object (often request.team) in step with what was saved."""
    for name in fields:
        setattr(team, name, getattr(locked, name))


# Members


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise ValidationError({"role": _("Choose member, reviewer or owner.")})


def _other_owners(team: Team, membership: Membership) -> int:
    return (
        Membership.objects.filter(team=team, role=Role.OWNER).exclude(pk=membership.pk).count()
    )


def _own(team: Team, membership: Membership) -> None:
    if membership.team_id != team.pk:
        # Views look memberships up within request.team; this guards any other caller.
        raise ValidationError(_("This person is not a member of the team."))


def team_member_invite(
    *, team: Team, actor, username_or_email: str, role: str, base_url: str,
    language: str | None = None,
) -> None:
    """Add someone by invitation only: they join when they accept it, nothing changes before,
    and the owner learns nothing about whether the name has an account (same answer, same row;
    apps.accounts.invitations.invitation_for_person). Audited as `team.member_invited`."""
    _check_role(role)
    try:
        with transaction.atomic():
            locked = _lock(team)
            invitation_for_person(
                team=locked, username_or_email=username_or_email, role=role, invited_by=actor,
                base_url=base_url, language=language,
            )
            _audit(
                team=locked, actor=actor, action="team.member_invited",
                target=(username_or_email or "").strip()[:200], changes={"role": [None, role]},
            )
    except ValidationError as exc:
        errors = exc.message_dict
        raise ValidationError(
            {("username_or_email" if name == "email" else name): messages
             for name, messages in errors.items()}
        ) from None


@transaction.atomic
def team_member_set_role(*, team: Team, actor, membership: Membership, role: str) -> Membership:
    _own(team, membership)
    _check_role(role)
    locked = _lock(team)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    old = membership.role
    if old == role:
        return membership
    if old == Role.OWNER and _other_owners(locked, membership) == 0:
        raise ValidationError(
            {"role": _("%(user)s is the last owner: make someone else an owner first.")
             % {"user": membership.user.get_username()}}
        )
    membership.role = role
    membership.full_clean()
    membership.save(update_fields=["role"])
    _audit(
        team=locked, actor=actor, action="team.member_role_changed",
        target=membership.user.get_username(), changes={"role": [old, role]},
    )
    return membership


@transaction.atomic
def team_member_remove(*, team: Team, actor, membership: Membership) -> None:
    _own(team, membership)
    locked = _lock(team)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Role.OWNER and _other_owners(locked, membership) == 0:
        raise ValidationError(
            _("%(user)s is the last owner and cannot be removed: make someone else an owner "
              "first.") % {"user": membership.user.get_username()}
        )
    username = membership.user.get_username()
    role = membership.role
    membership.delete()
    _audit(
        team=locked, actor=actor, action="team.member_removed", target=username,
        changes={"role": [role, None]},
    )


# Approvals and currency


@transaction.atomic
def team_settings_update(
    *,
    team: Team,
    actor,
    approvals_required: int,
    currency: str,
    version: int | None = None,
    approvals_from_two_roles: bool | None = None,
    sso_only: bool | None = None,
) -> Team:
    """StaleVersion (nothing written) when `version` is not the stored one of the settings."""
    errors = {}
    if (
        isinstance(approvals_required, bool)
        or not isinstance(approvals_required, int)
        or not 1 <= approvals_required <= MAX_APPROVALS
    ):
        errors["approvals_required"] = _("Enter a whole number from 1 to %(max)d.") % {
            "max": MAX_APPROVALS
        }
    if not isinstance(currency, str) or not CURRENCY_RE.match(currency):
        errors["currency"] = _("Enter an ISO 4217 code: three capital letters, e.g. USD or CNY.")
    if sso_only and not settings.SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]:
        # Nobody could sign in: passwords refused and no identity provider to go to.
        errors["sso_only"] = _("Single sign-on is not configured here (OIDC_ISSUER).")
    if errors:
        raise ValidationError(errors)
    locked = _lock(team)
    changes = {}
    values = [("approvals_required", approvals_required), ("currency", currency)]
    if approvals_from_two_roles is not None:  # None: left as it is (older callers)
        values.append(("approvals_from_two_roles", bool(approvals_from_two_roles)))
    if sso_only is not None:
        values.append(("sso_only", bool(sso_only)))
    for name, value in values:
        old = getattr(locked, name)
        if old != value:
            changes[name] = [old, value]
            setattr(locked, name, value)
    if changes or version is not None:
        claim(locked, version)  # a save on an older version is refused, even an unchanged one
    if changes:
        locked.full_clean()
        locked.save(update_fields=[*changes, "version"])
        _audit(team=locked, actor=actor, action="team.settings_updated", changes=changes)
    _copy_back(
        locked,
        team,
        ["approvals_required", "approvals_from_two_roles", "sso_only", "currency", "version"],
    )
    return team


# Validated rollout tiers (SPEC H, 6.1 "rollout order"); the order itself is in tiers.py


def _check_tier(tier: str) -> None:
    if tier not in TIER_ORDER:
        raise ValidationError({"tier": _("Unknown rollout tier.")})


def _set_tiers(locked: Team, team: Team, actor, tiers: set[str], action: str, tier: str) -> Team:
    old = sorted(validated_set(locked), key=TIER_ORDER.index)
    new = sorted(tiers | {ALWAYS_VALIDATED}, key=TIER_ORDER.index)
    if old != new:
        locked.validated_tiers = new
        locked.settings_generation = F("settings_generation") + 1
        locked.save(update_fields=["validated_tiers", "settings_generation"])
        locked.refresh_from_db(fields=["settings_generation"])
        _audit(
            team=locked, actor=actor, action=action, target=tier,
            changes={"validated_tiers": [old, new]},
        )
    _copy_back(locked, team, ["validated_tiers", "settings_generation"])
    return team


@transaction.atomic
def team_tier_validate(*, team: Team, actor, tier: str) -> Team:
    """Mark `tier` validated: only on top of the tier below it, and once two or more pilots on it
    succeeded (SPEC H, 6.1). A tier already validated stays as it is."""
    _check_tier(tier)
    locked = _lock(team)
    validated = validated_set(locked)
    if tier not in validated:
        problems = tier_validation_problems(
            validated=validated, tier=tier, succeeded=successful_pilots(locked, tier)
        )
        if problems:
            raise ValidationError({"tier": problems})
    return _set_tiers(locked, team, actor, validated | {tier}, "team.tier_validated", tier)


@transaction.atomic
def team_tier_unvalidate(*, team: Team, actor, tier: str) -> Team:
    """Withdraw the validation of `tier` and of every wider tier: each rests on the one below it
    (SPEC 6.1), so a wider tier never stays validated over a gap. One audit event records the
    whole change."""
    _check_tier(tier)
    if tier == ALWAYS_VALIDATED:
        raise ValidationError({"tier": _("The same site is always validated.")})
    locked = _lock(team)
    tiers = validated_set(locked) - {tier, *tiers_wider_than(tier)}
    return _set_tiers(locked, team, actor, tiers, "team.tier_unvalidated", tier)


# Thresholds (SPEC M/A/X/P)


def _check_threshold(key: str, value) -> float:
    if key not in thresholds.SPECS:
        raise ValidationError({"key": _("Unknown threshold.")})
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError({"value": _("Enter a number.")})
    value = float(value)
    if not math.isfinite(value):
        raise ValidationError({"value": _("Enter a finite number (not NaN or infinity).")})
    problem = thresholds.range_error(key, value)
    if problem:
        raise ValidationError({"value": problem})
    return value


def _save_thresholds(
    locked: Team, team: Team, actor, overrides: dict, *, key: str, action: str
) -> Team:
    before = thresholds.effective(locked.thresholds)
    after = thresholds.effective(overrides)
    if after["data_compute_high"] <= after["data_compute_low"]:
        field_message = _(
            "The data-heavy ratio (%(high)s) must be above the light ratio (%(low)s)."
        ) % {
            "high": thresholds.show(after["data_compute_high"]),
            "low": thresholds.show(after["data_compute_low"]),
        }
        raise ValidationError({"value": field_message})
    if overrides == (locked.thresholds or {}):
        _copy_back(locked, team, ["thresholds", "settings_generation"])
        return team
    locked.thresholds = overrides
    locked.settings_generation = F("settings_generation") + 1
    locked.save(update_fields=["thresholds", "settings_generation"])
    locked.refresh_from_db(fields=["settings_generation"])
    _audit(
        team=locked, actor=actor, action=action, target=key,
        changes={key: [before[key], after[key]]},
    )
    _copy_back(locked, team, ["thresholds", "settings_generation"])
    return team


@transaction.atomic
def team_threshold_set(
    *, team: Team, actor, key: str, value: float, action: str = "team.threshold_set"
) -> Team:
    """Override one engine threshold. Setting a key back to its default drops the override, so
    the engine input (and the snapshot it matches) is the same as if it had never changed."""
    value = _check_threshold(key, value)
    locked = _lock(team)
    overrides = dict(locked.thresholds or {})
    if value == thresholds.default(key):
        overrides.pop(key, None)
    else:
        overrides[key] = value
    return _save_thresholds(locked, team, actor, overrides, key=key, action=action)


@transaction.atomic
def team_threshold_reset(*, team: Team, actor, key: str) -> Team:
    if key not in thresholds.SPECS:
        raise ValidationError({"key": _("Unknown threshold.")})
    locked = _lock(team)
    overrides = dict(locked.thresholds or {})
    overrides.pop(key, None)
    return _save_thresholds(locked, team, actor, overrides, key=key, action="team.threshold_reset")


# The team's webhooks: their rows and deliveries live in apps.notifications; adding, resuming or
# deleting one is a change of the team's settings like any other, so it is audited here (the
# secret never goes into the audit: only the address and the events).


@transaction.atomic
def team_webhook_add(*, team: Team, actor, url: str, events: list[str], shape: str):
    endpoint = webhook_endpoint_create(
        team=team, url=url, events=events, shape=shape, created_by=actor
    )
    _audit(
        team=team, actor=actor, action="team.webhook_added", target=endpoint.url,
        changes={"events": [[], endpoint.events], "shape": [None, endpoint.shape]},
    )  # fmt: skip
    return endpoint


@transaction.atomic
def team_webhook_resume(*, team: Team, actor, endpoint) -> None:
    webhook_endpoint_resume(endpoint=endpoint)
    _audit(
        team=team, actor=actor, action="team.webhook_resumed", target=endpoint.url,
        changes={"active": [endpoint.active, True]},
    )  # fmt: skip


@transaction.atomic
def team_webhook_delete(*, team: Team, actor, endpoint) -> None:
    url, events = endpoint.url, list(endpoint.events)
    webhook_endpoint_delete(endpoint=endpoint)
    _audit(
        team=team, actor=actor, action="team.webhook_deleted", target=url,
        changes={"events": [events, []]},
    )  # fmt: skip
