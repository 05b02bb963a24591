"""POST/GET /api/v1/actuals with a team token: idempotency, scope, errors by field."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review
from tests.factories import make_membership, make_user

pytestmark = pytest.mark.django_db
URL = "/api/v1/actuals"


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


@pytest.fixture
def auth(team, owner):
    _token, raw = api_token_create(team=team, name="pipeline", created_by=owner)
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def post(client, auth, body, **headers):
    return client.post(URL, json.dumps(body), content_type="application/json", **auth, **headers)


def body(review, **kw):
    return {"review": getattr(review, "pk", review), "period": "2026-03-01",
            "compute_cost": 260.0, "transfer_cost": 90.0, **kw}


class ActualApiTests:
    def test_a_retry_with_its_key_creates_nothing(self, client, auth, review):
        first = post(client, auth, body(review), HTTP_IDEMPOTENCY_KEY="run-42")
        again = post(client, auth, body(review), HTTP_IDEMPOTENCY_KEY="run-42")
        assert (first.status_code, again.status_code) == (201, 200)
        assert first.json()["id"] == again.json()["id"]
        assert first.json()["source"] == "api"
        assert ActualCost.objects.count() == 1

    def test_the_same_key_with_other_values_is_a_409(self, client, auth, review):
        post(client, auth, body(review, idempotency_key="run-42"))
        conflict = post(client, auth, body(review, idempotency_key="run-42", compute_cost=300))
        assert conflict.status_code == 409
        assert conflict.json()["errors"][0]["field"] == "idempotency_key"
        assert "compute_cost" in conflict.json()["errors"][0]["message"]
        assert ActualCost.objects.get().compute_cost == 260

    def test_bad_values_answer_422_naming_each_field(self, client, auth, review):
        response = post(client, auth, body(review, currency="EUR", period="2026-13-01",
                                           compute_cost=-1))
        assert response.status_code == 422
        assert {e["field"] for e in response.json()["errors"]} == {
            "currency", "period", "compute_cost"}
        unknown = post(client, auth, body(review, cost=1))
        assert unknown.status_code == 422
        assert unknown.json()["errors"] == [{"field": "cost", "message": "unknown field"}]

    def test_another_teams_review_is_unknown(self, client, auth, other_team, outsider):
        theirs = approved_review(
            other_team, outsider, make_membership(make_user("rev-b"), other_team, "reviewer").user
        )
        response = post(client, auth, body(theirs))
        assert response.status_code == 422
        assert response.json()["errors"][0]["field"] == "review"
        assert not ActualCost.objects.exists()

    def test_a_reviewers_session_reads_but_does_not_write(self, client, reviewer, review):
        client.force_login(reviewer)
        csrf = client.get(reverse("actuals:list")).cookies["csrftoken"].value
        response = post(client, {"HTTP_X_CSRFTOKEN": csrf}, body(review))
        assert response.status_code == 403
        assert client.get(URL).json() == []
