"""Writes of task profiles. Any member of the team may create, edit and delete them; deleting a
profile that reviews, benchmarks or snapshots use is refused and nothing is deleted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.accounts.models import Team
from apps.catalog.models import Site
from apps.catalog.services import delete_or_refuse
from apps.web.concurrency import claim

from .models import TaskProfile
from .preprocess import fill_values, preprocess_records


def _validate(profile: TaskProfile, allowed_sites: list[Site] | None) -> None:
    """full_clean() plus the allowed sites (a many-to-many the model cannot check before saving):
    every error at once, each on its field."""
    errors: dict[str, list] = {}
    try:
        profile.full_clean()
    except ValidationError as exc:
        errors = exc.update_error_dict(errors)
    if allowed_sites is not None and any(s.team_id != profile.team_id for s in allowed_sites):
        errors.setdefault("allowed_sites", []).append(
            ValidationError(_("Choose sites of this team."), code="other_team")
        )
    if errors:
        raise ValidationError(errors)


def _save(profile: TaskProfile, allowed_sites: Iterable[Site] | None) -> TaskProfile:
    sites = list(allowed_sites) if allowed_sites is not None else None
    _validate(profile, sites)
    profile.save()
    if sites is not None:
        profile.allowed_sites.set(sites)
    return profile


@transaction.atomic
def profile_create(
    *,
    team: Team,
    created_by=None,
    allowed_sites: Iterable[Site] | None = None,
    **fields: Any,
) -> TaskProfile:
    profile = TaskProfile(team=team, created_by=created_by, updated_by=created_by)
    for name, value in fields.items():
        setattr(profile, name, value)
    return _save(profile, allowed_sites if allowed_sites is not None else [])


@transaction.atomic
def profile_update(
    *,
    profile: TaskProfile,
    actor=None,
    allowed_sites: Iterable[Site] | None = None,
    version: int | None = None,
    **fields: Any,
) -> TaskProfile:
    """`allowed_sites`: None leaves them as they are; a list (possibly empty) replaces them.
    `actor` becomes the profile's latest editor (None: unknown), which the reviews' four-eyes
    rule reads. StaleVersion (nothing written) when `version` is not the stored one."""
    claim(profile, version)
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.updated_by = actor
    return _save(profile, allowed_sites)


class NothingToFill(Exception):
    """The record is not a preprocessing run of this profile's task and team."""


NOTHING_TO_FILL = gettext_lazy("No preprocessing run of this task has that number.")


@transaction.atomic
def profile_fill_from_preprocess(
    *, profile: TaskProfile, record_id: int, actor=None, version: int | None = None
) -> TaskProfile:
    """SPEC 6.4 one-click fill: the processed size, preprocessing hours and cost per hour of the
    profile from one of its task's preprocessing runs (`preprocess.FILLED_FROM`). A record of
    another task or team is NothingToFill; an older `version` is StaleVersion (nothing written),
    as for any profile edit."""
    record = preprocess_records(profile).filter(pk=record_id).first()
    if record is None:
        raise NothingToFill(NOTHING_TO_FILL)
    return profile_update(profile=profile, actor=actor, version=version, **fill_values(record))


def profile_delete(*, profile: TaskProfile) -> None:
    """Raises apps.catalog.services.InUseError naming what uses the profile."""
    delete_or_refuse(profile, _("Profile %(name)s") % {"name": profile.name})
