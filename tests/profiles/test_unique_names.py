"""Profile names once per team, in any case (issue 39): the form says so on the name field and
writes nothing, another team may use the name, the database refuses what slips past, and
migration 0009 renames the duplicates a database already holds."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from apps.profiles import services
from apps.profiles.models import TaskProfile
from tests.factories import make_profile, make_site
from tests.profiles.helpers import profile_data

TAKEN = "Your team already has a profile named “%s”: choose another name."


@pytest.fixture
def site(team):
    return make_site(team, "bj-a")


@pytest.mark.django_db
class UniqueNameTests:
    def test_the_form_says_the_name_is_taken_on_the_field(self, client, team, site, member):
        make_profile(team, site, name="Nightly 7B eval")
        client.force_login(member)
        data = profile_data(site, name="nightly 7b EVAL")
        response = client.post(reverse("profiles:create"), data)
        assert response.status_code == 200
        assert response.context["form"].errors == {"name": [TAKEN % "nightly 7b EVAL"]}
        assert "choose another name" in response.content.decode()
        assert TaskProfile.objects.count() == 1

    def test_renaming_onto_a_taken_name_is_refused_keeping_ones_own_is_not(
        self, client, team, site, member
    ):
        make_profile(team, site, name="Nightly 7B eval")
        other = make_profile(team, site, name="Weekly eval")
        client.force_login(member)
        url = reverse("profiles:edit", args=[other.pk])
        data = profile_data(site, name="Nightly 7B eval", version=other.version)
        response = client.post(url, data)
        assert response.context["form"].errors["name"] == [TAKEN % "Nightly 7B eval"]
        other.refresh_from_db()
        assert other.name == "Weekly eval"
        data = profile_data(site, name="WEEKLY eval", version=other.version)
        assert client.post(url, data).status_code == 302
        other.refresh_from_db()
        assert other.name == "WEEKLY eval"

    def test_another_team_may_use_the_name(self, team, other_team, site):
        make_profile(team, site, name="Nightly 7B eval")
        theirs = make_profile(other_team, name="Nightly 7B eval")
        theirs.full_clean()  # no error

    def test_the_service_names_the_field(self, team, site):
        make_profile(team, site, name="Nightly 7B eval")
        profile = make_profile(team, site, name="Other")
        with pytest.raises(ValidationError) as caught:
            services.profile_update(profile=profile, name="Nightly 7B eval")
        assert set(caught.value.message_dict) == {"name"}
        profile.refresh_from_db()
        assert profile.name == "Other"

    def test_the_database_refuses_a_duplicate_that_skips_validation(self, team, site):
        make_profile(team, site, name="Nightly 7B eval")
        with pytest.raises(IntegrityError), transaction.atomic():
            make_profile(team, site, name="NIGHTLY 7B EVAL")


BEFORE = [("profiles", "0008_attention_and_restart_hours")]
AFTER = [("profiles", "0009_profile_name_once_per_team")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
class DuplicateNamesMigrationTests:
    def test_it_renames_later_duplicates_with_the_first_free_suffix(self):
        apps = migrate(BEFORE)
        try:
            Team = apps.get_model("accounts", "Team")
            Site = apps.get_model("catalog", "Site")
            TaskProfile = apps.get_model("profiles", "TaskProfile")
            ids = {}
            for slug in ("one", "two"):
                team = Team.objects.create(name=slug, slug=slug)
                site = Site.objects.create(
                    team=team, code=f"s-{slug}", name="S", datacenter="d", city="c", hub="h"
                )
                for key, name in [
                    ("first", "Llama"), ("lower", "llama"), ("taken", "Llama (2)"),
                    ("third", "Llama"), ("long", "x" * 160), ("long2", "x" * 160),
                ]:
                    ids[slug, key] = TaskProfile.objects.create(
                        team=team, name=name, compute_hours=1,
                        data_site=site, home_site=site, result_site=site,
                    ).pk
            names = dict(migrate(AFTER).get_model("profiles", "TaskProfile").objects.values_list(
                "pk", "name"
            ))
            for slug in ("one", "two"):  # each team on its own: the same names, the same renames
                assert names[ids[slug, "first"]] == "Llama"  # the oldest keeps its name
                assert names[ids[slug, "taken"]] == "Llama (2)"  # a name already there stays
                assert names[ids[slug, "lower"]] == "llama (3)"  # the first free suffix
                assert names[ids[slug, "third"]] == "Llama (4)"
                assert names[ids[slug, "long"]] == "x" * 160
                assert names[ids[slug, "long2"]] == "x" * 156 + " (2)"  # within 160 characters
        finally:
            migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
