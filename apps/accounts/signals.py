"""Cache invalidation only: a saved or deleted row of a team's data bumps the team's generation
and that of the row's model in the team (see pagecache.py). No business logic lives here."""

from __future__ import annotations

from functools import partial

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from .pagecache import bump_team_generation


def team_id_of(instance) -> int | None:
    """Follow the model's `team_path` ("review__team") to the team id of a row."""
    if instance._meta.label == "accounts.Team":
        return instance.pk
    path = getattr(type(instance), "team_path", None)
    if path is None:
        return getattr(instance, "team_id", None)
    obj = instance
    *hops, last = path.split("__")
    try:
        for hop in hops:
            obj = getattr(obj, hop)
    except ObjectDoesNotExist:
        return None
    return getattr(obj, f"{last}_id", None)


def _bump(sender, instance, **kwargs) -> None:
    """Bump now, and again once the write commits: a request that read the old rows between the
    two (the write not yet visible to it) cached them under the first new generation, which the
    second leaves behind."""
    label = sender._meta.label
    # post_delete has no `created`: a deleted row is a row removed.
    topics = (label, f"{label}:rows") if kwargs.get("created", True) else (label,)
    _bump_now_and_on_commit([team_id_of(instance)], topics)


def _bump_now_and_on_commit(team_ids, topics) -> None:
    for team_id in team_ids:
        bump_team_generation(team_id, *topics)
        if team_id is not None and transaction.get_connection().in_atomic_block:
            transaction.on_commit(partial(bump_team_generation, team_id, *topics))


def _bump_user(sender, instance, update_fields=None, **kwargs) -> None:
    """A user's name shows in their teams' pages (authors, reviewers): a saved user row bumps
    the generations of their teams and their "auth.User" topic (a login's last_login does not)."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    from .models import Membership

    teams = Membership.objects.filter(user_id=instance.pk).values_list("team_id", flat=True)
    _bump_now_and_on_commit(list(teams), ("auth.User",))


def connect_generation_bumps() -> None:
    for model in apps.get_models():
        if hasattr(model, "team_path") or model._meta.label in {
            "accounts.Team",
            "accounts.Membership",
        }:
            uid = f"teamgen-{model._meta.label}"
            post_save.connect(_bump, sender=model, dispatch_uid=f"{uid}-save")
            post_delete.connect(_bump, sender=model, dispatch_uid=f"{uid}-delete")
    post_save.connect(_bump_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="teamgen-user")
