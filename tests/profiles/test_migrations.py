"""profiles 0003: v1's "fine_tuning" (adapter tuning) becomes "adapter_tuning" (SPEC 6.1)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("profiles", "0002_allowed_sites_adapter_tuning")]
AFTER = [("profiles", "0003_fine_tuning_becomes_adapter_tuning")]


def migrate(targets):
    """The historical app registry at `targets`, after migrating the test database there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def make_v1_profiles(apps) -> dict[str, int]:
    """Profiles as v1 stored them: one per workload that matters here."""
    Team = apps.get_model("accounts", "Team")
    Site = apps.get_model("catalog", "Site")
    TaskProfile = apps.get_model("profiles", "TaskProfile")
    team = Team.objects.create(name="Migrating", slug="migrating")
    site = Site.objects.create(
        team=team, code="bj-a", name="BJ-A", datacenter="bj", city="Beijing", hub="north"
    )
    ids = {}
    for workload in ("fine_tuning", "training", "inference"):
        ids[workload] = TaskProfile.objects.create(
            team=team,
            name=f"v1 {workload}",
            workload=workload,
            compute_hours=10,
            data_site=site,
            home_site=site,
            result_site=site,
        ).pk
    return ids


@pytest.fixture
def at_previous_state():
    apps = migrate(BEFORE)
    yield apps
    migrate(latest())  # leave the database as every other test expects it


class FineTuningMigrationTests:
    def test_it_turns_every_v1_fine_tuning_profile_into_adapter_tuning(self, at_previous_state):
        ids = make_v1_profiles(at_previous_state)
        TaskProfile = migrate(AFTER).get_model("profiles", "TaskProfile")
        workloads = dict(TaskProfile.objects.values_list("pk", "workload"))
        assert workloads == {
            ids["fine_tuning"]: "adapter_tuning",
            ids["training"]: "training",
            ids["inference"]: "inference",
        }

    def test_it_reverses_adapter_tuning_into_the_v1_spelling(self, at_previous_state):
        ids = make_v1_profiles(at_previous_state)
        migrate(AFTER)
        TaskProfile = migrate(BEFORE).get_model("profiles", "TaskProfile")
        assert TaskProfile.objects.get(pk=ids["fine_tuning"]).workload == "fine_tuning"
        assert TaskProfile.objects.get(pk=ids["training"]).workload == "training"

    def test_it_refuses_to_reverse_while_a_full_fine_tuning_profile_exists(self, at_previous_state):
        ids = make_v1_profiles(at_previous_state)
        TaskProfile = migrate(AFTER).get_model("profiles", "TaskProfile")
        full = TaskProfile.objects.get(pk=ids["training"])
        full.workload = "fine_tuning"  # saved as full fine-tuning after the migration
        full.save()
        with pytest.raises(RuntimeError, match=f"full fine-tuning \\(ids {full.pk}\\)"):
            migrate(BEFORE)
        # Nothing changed meaning: the adapter profile is still adapter tuning.
        assert TaskProfile.objects.get(pk=ids["fine_tuning"]).workload == "adapter_tuning"
