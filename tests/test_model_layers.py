"""Foreign keys and migration dependencies point down the layers, as imports do (issue 31).

The layers are the import contract's (`.importlinter`, contract `layers`, top first; an app on
no floor of it, such as a Django contrib app, is below them all). A foreign key, one-to-one or
many-to-many field of an app's model may reach its own app or a lower one; a migration may
depend on its own app's migrations or a lower app's, and no two apps' migrations depend on each
other, however long the way round. `KNOWN_UPWARD` lists what still points up, each with why: the
test fails on anything new, and on a listed exception that has been fixed (so the list is never
larger than the truth).
"""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Empty since the snapshots are the reviews app's (issue 31): reviews.SignOff's snapshot is a key
# within the app, and no reviews migration depends on scoring.
KNOWN_UPWARD: set[str] = set()


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


def app_dependencies() -> dict[str, set[str]]:
    """App label -> the other apps that one of its migrations depends on."""
    graph: dict[str, set[str]] = {}
    for (app, _), migration in migration_graph().items():
        graph.setdefault(app, set())
        for dep_app, _ in migration.dependencies:
            if dep_app != app and dep_app != "__setting__":
                graph[app].add(dep_app)
    return graph


def app_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of two apps or more whose migrations reach one another (Tarjan's strongly
    connected components), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(app: str) -> None:
        index[app] = low[app] = len(index)
        stack.append(app)
        on_stack.add(app)
        for dep in graph.get(app, ()):
            if dep not in index:
                visit(dep)
                low[app] = min(low[app], low[dep])
            elif dep in on_stack:
                low[app] = min(low[app], index[dep])
        if low[app] == index[app]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == app:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for app in sorted(graph):
        if app not in index:
            visit(app)
    return sorted(groups)


def test_no_two_apps_migrations_form_a_cycle():
    assert app_cycles(app_dependencies()) == []


def test_the_cycle_check_bites():
    """A way round through three apps is found, as the old reviews <-> scoring pair would be."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert app_cycles(graph) == [["a", "b", "c"]]
    assert app_cycles({"reviews": {"scoring"}, "scoring": {"reviews"}}) == [["reviews", "scoring"]]
    assert app_cycles({"scoring": {"reviews"}, "reviews": set()}) == []


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
