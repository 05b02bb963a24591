"""Foreign keys and migration dependencies point down the layers, as imports do (issue 31).

The layers are the import contract's (`.importlinter`, contract `layers`, top first; an app on
no floor of it, such as a Django contrib app, is below them all). A foreign key, one-to-one or
many-to-many field of an app's model may reach its own app or a lower one; a migration may
depend on its own app's migrations or a lower app's. `KNOWN_UPWARD` lists what still points up,
each with why: the test fails on anything new, and on a listed exception that has been fixed
(so the list is never larger than the truth).
"""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# reviews.SignOff names the scoring snapshot it was signed on, and the reviews migration that adds
# that key depends on scoring's first migration: the reviews <-> scoring cycle that issue 31's
# "a review's life in one app" removes by moving snapshots under the review's app.
KNOWN_UPWARD = {
    "field reviews.SignOff.snapshot -> scoring",
    "migration reviews.0002_initial -> scoring",
}


def layer_ranks() -> dict[str, int]:
    """App label -> floor, higher is upper (apps on one floor share a number)."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter")
    floors = [f for f in parser["importlinter:contract:layers"]["layers"].split("\n") if f.strip()]
    ranks = {}
    for height, floor in enumerate(reversed(floors), start=1):
        for module in floor.split("|"):
            ranks[module.strip().rsplit(".", 1)[-1]] = height
    return ranks


def upward_fields(ranks: dict[str, int]) -> set[str]:
    from django.apps import apps

    found = set()
    for model in apps.get_models():
        source = model._meta.app_label
        for field in model._meta.get_fields():
            if not (field.is_relation and field.concrete and field.related_model):
                continue
            target = field.related_model._meta.app_label
            if target != source and ranks.get(target, 0) > ranks.get(source, 0):
                found.add(f"field {source}.{model.__name__}.{field.name} -> {target}")
    return found


def migration_graph():
    from django.db.migrations.loader import MigrationLoader

    return MigrationLoader(None, ignore_no_migrations=True).disk_migrations


def upward_migrations(ranks: dict[str, int]) -> set[str]:
    found = set()
    for (app, name), migration in migration_graph().items():
        for dep_app, _ in migration.dependencies:
            if dep_app != app and ranks.get(dep_app, 0) > ranks.get(app, 0):
                found.add(f"migration {app}.{name} -> {dep_app}")
    return found


def test_the_layers_are_read_from_the_import_contract():
    ranks = layer_ranks()
    assert ranks["method"] > ranks["scoring"] > ranks["reviews"] > ranks["catalog"]
    assert ranks["accounts"] == 1


@pytest.mark.parametrize("kind", ["field", "migration"])
def test_nothing_new_points_up_a_layer(kind):
    ranks = layer_ranks()
    found = upward_fields(ranks) if kind == "field" else upward_migrations(ranks)
    known = {k for k in KNOWN_UPWARD if k.startswith(kind)}
    assert found - known == set(), "points up a layer"
    assert known - found == set(), "fixed: take it off KNOWN_UPWARD"


def test_the_check_bites_on_an_upward_key():
    """A key from catalog (low) to reviews (higher) would be found."""
    from django.db import models

    class Upward(models.Model):
        review = models.ForeignKey("reviews.Review", on_delete=models.CASCADE)

        class Meta:
            app_label = "catalog"

        def __str__(self) -> str:
            return "upward"

    try:
        assert "field catalog.Upward.review -> reviews" in upward_fields(layer_ranks())
    finally:
        from django.apps import apps

        del apps.all_models["catalog"]["upward"]
        apps.clear_cache()
