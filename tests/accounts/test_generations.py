"""Every write of a team's data moves the team's generation, whatever path it takes.

The models are found by walking the foreign keys to the team (apps.accounts.signals.team_models),
not listed here: a new model that belongs to a team is covered, or this test fails for it.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.db.models import ProtectedError, RestrictedError

from apps.accounts.generations import generation_key, team_id_of, team_path
from apps.accounts.models import Team
from apps.accounts.signals import team_models
from tests.factories import make_membership, make_team, make_user

pytestmark = pytest.mark.django_db


class _Rollback(Exception):
    pass


def _generation(team_id: int):
    return cache.get(generation_key(team_id))


def _moves(team_id: int, write) -> bool:
    """Whether `write()` moves the team's generation; whatever it wrote is rolled back."""
    before = _generation(team_id)
    try:
        with transaction.atomic():
            write()
            after = _generation(team_id)
            raise _Rollback
    except _Rollback:
        pass
    return after is not None and after != before


def _plain_field(model):
    """A column to write back unchanged: a plain one if the model has one, else a key."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    return next((f for f in fields if not f.is_relation), fields[0])


def _deletable(model):
    """A row of `model` that can be deleted (nothing protects it), or None."""
    for row in model._default_manager.order_by("-pk")[:50]:
        pk = row.pk
        try:
            with transaction.atomic():
                row.delete()
                raise _Rollback
        except (ProtectedError, RestrictedError, DatabaseError):
            continue  # protected, or a signed review's row (PostgreSQL's triggers refuse it)
        except _Rollback:
            return model._default_manager.get(pk=pk)
    return None


def _paths(model, row) -> dict:
    """Each way of writing the row, each on a fresh copy of it."""
    manager, pk, team_id = model._default_manager, row.pk, team_id_of(row)
    field = _plain_field(model)
    value = getattr(row, field.attname)

    def delete_then_bulk_create():
        copy = manager.get(pk=pk)
        manager.filter(pk=pk).delete()
        cache.delete(generation_key(team_id))  # only the re-insert may move it now
        manager.bulk_create([copy])

    return {
        "save": lambda: manager.get(pk=pk).save(),
        "update": lambda: manager.filter(pk=pk).update(**{field.attname: value}),
        "bulk_update": lambda: manager.bulk_update([manager.get(pk=pk)], [field.name]),
        "delete": lambda: manager.get(pk=pk).delete(),
        "queryset delete": lambda: manager.filter(pk=pk).delete(),
        "bulk_create": delete_then_bulk_create,
    }


def _append_only(model) -> bool:
    """Whether the database itself refuses to delete its rows (the audit trail's trigger on
    PostgreSQL): then only inserts can be tested."""
    row = model._default_manager.first()
    try:
        with transaction.atomic():
            model._default_manager.filter(pk=row.pk).delete()
            raise _Rollback
    except DatabaseError:
        return True
    except (_Rollback, ProtectedError, RestrictedError):
        return False


def _inserts(model, row) -> dict:
    manager = model._default_manager

    def copy():
        new = manager.get(pk=row.pk)
        new.pk = None
        return new

    return {"save": lambda: copy().save(), "bulk_create": lambda: manager.bulk_create([copy()])}


def _webhook_rows(team, author) -> None:
    from apps.notifications.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
    from apps.profiles.models import TaskProfile

    endpoint = WebhookEndpoint.objects.create(
        team=team, url="https://hooks.example.com/x", events=["review_submitted"], secret="s",
        created_by=author,
    )  # fmt: skip
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event="test", event_key="k")
    WebhookAttempt.objects.create(delivery=delivery, status_code=200)
    from apps.benchmarks.models import MlflowMapping

    MlflowMapping.objects.create(
        team=team, tracking_uri="https://mlflow.example.com", experiment="e",
        task=TaskProfile.objects.filter(team=team).first(), offer_tag="offer", nodes_key="n",
        gpus_per_node_key="g", compute_hours_metric="c",
    )  # fmt: skip


@pytest.fixture
def world(db):
    """The demo, and a bare team with a row of each model the demo leaves none of, or none that
    can be deleted (a review with no audit trail, a site nothing uses)."""
    from datetime import date, timedelta

    from django.utils import timezone

    from apps.accounts.models import Invitation
    from apps.accounts.tokens import api_token_create
    from apps.actuals.models import ActualCost, ActualsSettings, BillLine
    from apps.catalog.models import OfferPriceChange
    from apps.profiles.models import AllowedSite
    from apps.reviews.snapshots.models import SnapshotJob
    from tests.factories import make_offer, make_profile, make_review, make_site

    call_command("load_demo", verbosity=0)
    bare, author = make_team("Bare", "bare"), make_user("bare-author")
    make_membership(author, bare)
    site = make_site(bare)
    make_site(bare)
    profile = make_profile(bare, site=site)
    AllowedSite.objects.create(profile=profile, site=site)
    review = make_review(bare, author, task=profile)
    SnapshotJob.objects.create(team=bare, review=review)
    record = ActualCost.objects.create(team=bare, review=review, period=date(2026, 1, 5))
    BillLine.objects.create(
        team=bare, record=record, fingerprint="f", line=2, kind="compute", amount=1.0
    )
    make_review(bare, author, task=profile)  # one nothing refers to
    api_token_create(team=bare, name="probe")
    ActualsSettings.objects.create(team=bare)
    expires = timezone.now() + timedelta(days=1)
    Invitation.objects.create(team=bare, email="x@example.com", token_hash="x", expires_at=expires)
    offer = make_offer(bare, site)
    OfferPriceChange.objects.create(
        team=bare, offer=offer, price_before=2.0, price_after=1.5, source="catalog test"
    )
    _webhook_rows(bare, author)
    from apps.reviews.comments.services import comment_post

    comment_post(review=review, actor=author, text="a comment of the bare team")
    make_team("Empty", "empty")  # a team nothing protects
    return Team.objects.get(slug="aurora")


class GenerationTests:
    def test_the_walk_finds_the_models_that_reach_a_team_by_their_keys(self):
        labels = {model._meta.label for model in team_models()}
        assert {"accounts.Team", "accounts.Membership", "profiles.AllowedSite"} <= labels
        assert {"actuals.BillLine", "reviews.ChecklistAnswer", "reviews.SignOff"} <= labels
        assert "auth.User" not in labels and "accounts.OutgoingEmail" not in labels
        assert team_path(apps.get_model("reviews", "ChecklistAnswer")) == (
            "candidate__review__team"
        )

    def test_every_write_of_every_team_model_moves_its_generation(self, world):
        missed, untested = [], []
        for model in team_models():
            row, paths = _deletable(model), None
            if row is not None:
                paths = _paths(model, row)
            elif _append_only(model):  # the database refuses to change its rows: inserts only
                row = model._default_manager.first()
                paths = _inserts(model, row)
            if paths is None:
                untested.append(model._meta.label)
                continue
            team_id = team_id_of(row)
            assert team_id is not None, model
            for name, write in paths.items():
                if not _moves(team_id, write):
                    missed.append(f"{model._meta.label} {name}")
        assert missed == [], missed
        # Models the demo leaves without a deletable row are still written through each path.
        assert untested == [], untested

    def test_many_to_many_links_move_the_generation(self, world):
        review = apps.get_model("reviews", "Review").objects.filter(team=world).first()
        link = apps.get_model("catalog", "NetworkLink").objects.filter(team=world).first()
        assert _moves(world.pk, lambda: review.reserved_links.add(link))
        assert _moves(world.pk, lambda: review.reserved_links.clear())

    def test_a_renamed_user_moves_the_generations_of_each_of_their_teams(self):
        one, two = make_team("One", "one"), make_team("Two", "two")
        user = make_user("ann")
        make_membership(user, one)
        make_membership(user, two)

        def rename():
            user.first_name = "Ann"
            user.save()

        assert _moves(one.pk, rename) and _moves(two.pk, rename)

    def test_a_login_alone_moves_nothing(self, team):
        user = make_user("bo")
        make_membership(user, team)
        user.save()
        assert not _moves(team.pk, lambda: user.save(update_fields=["last_login"]))

    def test_another_teams_write_leaves_the_generation_alone(self, team, other_team):
        user = make_user("cy")
        make_membership(user, team)
        assert not _moves(other_team.pk, lambda: make_membership(make_user("di"), team))

    def test_the_commit_moves_it_again(self, team, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks() as callbacks:
            make_membership(make_user("ed"), team)
        between = _generation(team.pk)
        for callback in callbacks:
            callback()
        assert _generation(team.pk) != between
