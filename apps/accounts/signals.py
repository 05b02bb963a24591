"""Cache invalidation only: a saved or deleted row of a team's data, or a changed many-to-many
link between such rows, moves the team's generation (generations.py; bulk writes move it through
`TeamOwnedQuerySet`). Which models these are is found from the foreign keys, not listed. No
business logic lives here."""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from .generations import team_changed, team_id_of, team_path


def _bump(sender, instance, update_fields=None, **kwargs) -> None:
    team_changed([team_id_of(instance)], model=sender, fields=update_fields)


def _bump_linked(sender, instance, action, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        team_changed([team_id_of(instance)], model=sender)


def _teams_of_user(user_id) -> list[int]:
    from .models import Membership

    return list(Membership.objects.filter(user_id=user_id).values_list("team_id", flat=True))


def _bump_user(sender, instance, update_fields=None, **kwargs) -> None:
    """A user's name shows in their teams' pages (authors, reviewers) and no team owns it: a saved
    or deleted user row moves the generations of their teams (a login's last_login does not)."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    team_changed(_teams_of_user(instance.pk), model=sender, fields=update_fields)


def team_models() -> list:
    """Every model that reaches a team through its foreign keys, the team included."""
    return [model for model in apps.get_models() if team_path(model) is not None]


def connect_generation_bumps() -> None:
    for model in team_models():
        uid = f"teamgen-{model._meta.label}"
        post_save.connect(_bump, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_bump, sender=model, dispatch_uid=f"{uid}-delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                _bump_linked, sender=field.remote_field.through, dispatch_uid=f"{uid}-{field.name}"
            )
    user = settings.AUTH_USER_MODEL
    post_save.connect(_bump_user, sender=user, dispatch_uid="teamgen-user")
    pre_delete.connect(_bump_user, sender=user, dispatch_uid="teamgen-user-delete")
