"""The API and the exports for a member of two teams (issue 36's blind spots): a signed-in write
that names no team lands in the team the session switched to; a team token reads its own team
only, whoever made it; every export of a snapshot or a decision record reaches the member of
both teams and nobody of one team only."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.actuals.models import ActualCost
from apps.actuals.services import actual_create
from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.snapshots.models import EvaluationSnapshot
from tests.actuals.helpers import approved_review
from tests.benchmarks.helpers import make_world, single_data
from tests.factories import make_benchmark, make_membership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def both(team, other_team):
    person = make_user("both")
    make_membership(person, team, "member")
    make_membership(person, other_team, "member")
    return person


def _reviewer(team, name):
    person = make_user(name)
    make_membership(person, team, "reviewer")
    return person


def _switch(client, team) -> None:
    assert client.post(reverse("accounts:team_switch"), {"team": team.pk}).status_code == 302


def _post(client, url: str, body: dict):
    return client.post(url, data=json.dumps(body), content_type="application/json")


class SignedInWriteTests:
    def test_an_actual_cost_without_a_team_lands_in_the_team_switched_to(
        self, client, team, other_team, both
    ):
        review = approved_review(other_team, both, _reviewer(other_team, "rev-two"))
        client.force_login(both)
        _switch(client, other_team)
        body = {"review": review.pk, "period": "2026-02-03", "compute_cost": 260.0}
        response = _post(client, "/api/v1/actuals", body)
        assert response.status_code == 201, response.content
        saved = ActualCost.objects.get()
        assert (saved.team_id, response.json()["team"]) == (other_team.pk, other_team.pk)

    def test_a_benchmark_without_a_team_lands_in_the_team_switched_to(
        self, client, team, other_team, both
    ):
        make_world(team)
        theirs = make_world(other_team, prefix="b-")
        client.force_login(both)
        _switch(client, other_team)
        response = _post(client, "/api/v1/benchmarks", single_data(theirs))
        assert response.status_code == 201, response.content
        saved = BenchmarkRecord.objects.get()
        assert (saved.team_id, saved.task_id) == (other_team.pk, theirs.task.pk)


def test_a_team_token_lists_its_own_team_only_whoever_made_it(client, team, other_team, both):
    """The member of both teams makes team two's token: the lists through it hold team two's
    records, never team one's (the maker's other team)."""
    ours, theirs = make_world(team), make_world(other_team, prefix="b-")
    make_benchmark(team, ours.task, offer=ours.offer)
    kept = make_benchmark(other_team, theirs.task, offer=theirs.offer)
    first = approved_review(team, both, _reviewer(team, "rev-one"))
    second = approved_review(other_team, both, _reviewer(other_team, "rev-two"))
    for review in (first, second):
        data = {"review": review.pk, "period": "2026-02-03", "compute_cost": "10"}
        actual_create(team=review.team, data=data)
    _, raw = api_token_create(team=other_team, name="two", created_by=both)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    benchmarks = client.get("/api/v1/benchmarks", **auth).json()
    actuals = client.get("/api/v1/actuals", **auth).json()
    assert [b["id"] for b in benchmarks] == [kept.pk]
    assert [a["review"] for a in actuals] == [second.pk]
    snapshot = EvaluationSnapshot.objects.filter(review=first).latest("pk")
    assert client.get(f"/api/v1/snapshots/{snapshot.pk}/skypilot", **auth).status_code == 404


EXPORTS = [
    ("scoring:snapshot_csv", "snapshot"),
    ("scoring:snapshot_xlsx", "snapshot"),
    ("scoring:snapshot_skypilot", "snapshot"),
    ("scoring:snapshot_detail", "snapshot"),
    ("scoring:review_record", "review"),
]


@pytest.mark.parametrize(("name", "of"), EXPORTS, ids=[n for n, _ in EXPORTS])
def test_an_export_reaches_the_member_of_both_teams_and_nobody_of_the_other(
    client, team, other_team, both, name, of
):
    review = approved_review(other_team, both, _reviewer(other_team, "rev-two"))
    snapshot = EvaluationSnapshot.objects.filter(review=review).latest("pk")
    url = reverse(name, args=[snapshot.pk if of == "snapshot" else review.pk])
    client.force_login(both)
    _switch(client, team)  # working in team one, reading team two's
    assert client.get(url).status_code in (200, 302)
    only_one = make_user("only-one")
    make_membership(only_one, team, "owner")
    client.force_login(only_one)
    assert client.get(url).status_code == 404
