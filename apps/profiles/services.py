"""Writes of task profiles. Any member of the team may create, edit and delete them; deleting a
profile that reviews, benchmarks or snapshots use is refused and nothing is deleted."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.catalog.services import delete_or_refuse

from .models import TaskProfile


def profile_create(*, team: Team, created_by=None, **fields: Any) -> TaskProfile:
    profile = TaskProfile(team=team, created_by=created_by)
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save()
    return profile


def profile_update(*, profile: TaskProfile, **fields: Any) -> TaskProfile:
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save()
    return profile


def profile_delete(*, profile: TaskProfile) -> None:
    """Raises apps.catalog.services.InUseError naming what uses the profile."""
    delete_or_refuse(profile, _("Profile %(name)s") % {"name": profile.name})
