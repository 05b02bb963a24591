"""Benchmark records for a member of two teams who has switched team (issue 36's blind spots):
the CSV import lands in the team switched to, and the other team's task is not found."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.benchmarks.models import BenchmarkRecord
from tests.benchmarks.helpers import make_world
from tests.factories import make_membership

pytestmark = pytest.mark.django_db


def row(world) -> str:
    return (
        "task,offer,kind,nodes,gpus_per_node,e2e_hours,compute_hours\n"
        f"{world.task.pk},{world.offer.pk},single,1,8,10,9\n"
    )


@pytest.fixture
def worlds(team, other_team, member):
    make_membership(member, other_team, "member")
    return make_world(team), make_world(other_team, prefix="b-")


def test_a_csv_import_lands_in_the_team_switched_to(client, member, other_team, worlds):
    client.force_login(member)
    client.post(reverse("accounts:team_switch"), {"team": other_team.pk})
    done = client.post(reverse("benchmarks:import"), {"content": row(worlds[1]), "confirm": "1"})
    assert done.status_code == 302
    saved = BenchmarkRecord.objects.get()
    assert (saved.team_id, saved.task_id) == (other_team.pk, worlds[1].task.pk)


def test_the_first_teams_task_is_not_found_after_the_switch(client, member, other_team, worlds):
    client.force_login(member)
    client.post(reverse("accounts:team_switch"), {"team": other_team.pk})
    preview = client.post(reverse("benchmarks:import"), {"content": row(worlds[0]), "confirm": "1"})
    assert preview.status_code == 200
    assert 'id="line-2"' in preview.content.decode()
    assert not BenchmarkRecord.objects.exists()
