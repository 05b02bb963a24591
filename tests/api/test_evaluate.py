"""POST /api/v1/evaluate: the engine over HTTP, with session or team-token auth."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest
from django.test import Client

import engine
from apps.accounts.tokens import api_token_create, api_token_revoke
from engine.fields import json_schema
from tests.engine.engine_fixtures import make_input, offer, task

pytestmark = pytest.mark.django_db
URL = "/api/v1/evaluate"


def post(client, body, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(URL, data=data, content_type="application/json", **headers)


class EvaluateApiTests:
    def test_it_needs_authentication(self, client):
        response = post(client, make_input(task(), offers=[offer("a")]))
        assert response.status_code == 401

    def test_an_anonymous_browser_like_call_is_401_not_a_csrf_403(self):
        client = Client(enforce_csrf_checks=True)
        response = post(client, make_input(task(), offers=[offer("a")]))
        assert response.status_code == 401

    def test_it_evaluates_with_a_team_token(self, client, team):
        _, raw = api_token_create(team=team, name="pipeline")
        body = make_input(task(), offers=[offer("a")])
        response = post(client, body, HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert response.status_code == 200
        assert response.json() == engine.evaluate(body)
        # 7B bf16 inference: 7 × 2 × 1.2 = 16.8 GB, one GPU (SPEC A).
        assert response.json()["sizing"]["estimated_gpu_mem_gb"] == 16.8

    def test_a_revoked_or_unknown_token_is_refused(self, client, team):
        token, raw = api_token_create(team=team, name="old")
        api_token_revoke(token=token)
        body = make_input(task(), offers=[offer("a")])
        assert post(client, body, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
        assert post(client, body, HTTP_AUTHORIZATION="Bearer csr_nope").status_code == 401

    def test_it_evaluates_for_a_signed_in_user_with_csrf(self, member):
        client = Client(enforce_csrf_checks=True)
        client.force_login(member)
        body = make_input(task(), offers=[offer("a")])
        assert post(client, body).status_code == 403  # no CSRF token: refused
        client.get("/")
        token = client.cookies["csrftoken"].value
        response = post(client, body, HTTP_X_CSRFTOKEN=token)
        assert response.status_code == 200
        assert response.json()["platform"] == "compute_platform"

    def test_bad_input_is_422_naming_every_field(self, client, team):
        _, raw = api_token_create(team=team, name="pipeline")
        body = make_input(task(compress_ratio=1.5, compute_hours=-1), offers=[offer("a", price="x")])
        response = post(client, body, HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert response.status_code == 422
        fields = {e["field"] for e in response.json()["errors"]}
        assert {"task.compress_ratio", "task.compute_hours", "offers[0].price"} <= fields

    def test_a_body_that_is_not_json_is_422(self, client, team):
        _, raw = api_token_create(team=team, name="pipeline")
        response = post(client, "{not json", HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert response.status_code == 422
        assert response.json()["errors"][0]["field"] == ""

    def test_nan_in_the_body_is_422_not_500(self, client, team):
        _, raw = api_token_create(team=team, name="pipeline")
        text = json.dumps(make_input(task(), offers=[offer("a")])).replace(
            '"compute_hours": 10', '"compute_hours": NaN'
        )
        response = post(client, text, HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert response.status_code == 422
        assert "task.compute_hours" in {e["field"] for e in response.json()["errors"]}

    def test_it_publishes_an_openapi_schema(self, client):
        schema = client.get("/api/v1/openapi.json").json()
        assert schema["openapi"].startswith("3.")
        assert "/api/v1/evaluate" in schema["paths"]

    def test_the_evaluate_body_is_the_engine_inputs_json_schema(self, client, team):
        """SPEC 7.9: the OpenAPI document publishes the input as the engine's field table
        states it: every field, its range, and no other."""
        schema = client.get("/api/v1/openapi.json").json()
        body = schema["paths"]["/api/v1/evaluate"]["post"]["requestBody"]["content"]
        published = body["application/json"]["schema"]
        # The same schema but for the rulebook's section numbers, which the reader does not have
        # (the method guide explains each rule): every field, type and range kept.
        assert "SPEC" not in json.dumps(published)
        assert _without_descriptions(published) == _without_descriptions(json_schema())
        task_fields = published["properties"]["task"]["properties"]
        assert task_fields["attention"]["anyOf"] == [{"enum": ["flash", "eager"]}, {"type": "null"}]
        assert task_fields["attention"]["description"].startswith("3.0: how attention is computed")
        offers = published["properties"]["offers"]["anyOf"][0]  # a list, or null (= [])
        # SPEC 7.4, 7.5, 7.11 (engine 3.1): the new fields are published with their choices.
        assert task_fields["input_delivery"]["anyOf"][0] == {"enum": ["bulk", "streamed"]}
        fabric = offers["items"]["properties"]["interconnect"]
        assert {"enum": ["infiniband", "roce", "ethernet"]} in fabric["anyOf"]
        ops = published["properties"]["thresholds"]["anyOf"][0]["properties"]
        assert ops["scheduler_ops_hours_per_month"]["anyOf"][0]["minimum"] == 0
        speed = offers["items"]["properties"]["relative_speed"]
        assert speed["anyOf"][0]["minimum"] == 0.01 and speed["anyOf"][0]["maximum"] == 100
        assert published["properties"]["task"]["additionalProperties"] is False
        # What the schema accepts, the engine evaluates: the same input passes both.
        data = make_input(task(), offers=[offer("a")])
        assert jsonschema_rs.validator_for(published).is_valid(data)
        data["task"]["atention"] = "eager"  # a typo: refused by both, named by the engine
        assert not jsonschema_rs.validator_for(published).is_valid(data)
        _, raw = api_token_create(team=team, name="pipeline")
        response = post(client, data, HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert response.status_code == 422
        assert response.json()["errors"] == [{"field": "task.atention", "message": "unknown field"}]


class StrictInputTests:
    """SPEC 6.2 at the HTTP edge: the engine's refusals come back as 422 naming each path."""

    @pytest.fixture
    def auth(self, team):
        _, raw = api_token_create(team=team, name="pipeline")
        return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}

    @pytest.mark.parametrize(
        ("raw", "message"),
        [
            ("[]", "body must be a JSON object, not an array"),
            ('"task"', "body must be a JSON object, not a string"),
            ("null", "body must be a JSON object, not null"),
            ("  ", "body is empty: send a JSON object"),
            (b"\xff\xfe{", "body is not valid JSON: it is not UTF-8 text"),
        ],
    )
    def test_a_body_that_is_not_a_json_object_is_422(self, client, auth, raw, message):
        response = post(client, raw, **auth)
        assert response.status_code == 422
        assert response.json() == {"errors": [{"field": "", "message": message}]}

    def test_an_unknown_field_is_422_naming_its_path(self, client, auth):
        body = make_input(task(offsite_alowed=True), offers=[offer("a", prise=2)])
        response = post(client, body, **auth)
        assert response.status_code == 422
        errors = {e["field"]: e["message"] for e in response.json()["errors"]}
        assert errors["task.offsite_alowed"] == "unknown field"
        assert errors["offers[0].prise"] == "unknown field"

    def test_bad_values_of_the_engine_3_1_fields_are_422_naming_each(self, client, auth):
        """SPEC 7.4, 7.5, 7.11: interconnect, input_delivery, scheduler_ops_hours_per_month."""
        body = make_input(
            task(input_delivery=3),
            offers=[offer("a", interconnect="token ring")],
            thresholds={"scheduler_ops_hours_per_month": "forty"},
        )
        response = post(client, body, **auth)
        assert response.status_code == 422
        errors = {e["field"]: e["message"] for e in response.json()["errors"]}
        assert errors == {
            "task.input_delivery": "must be one of bulk, streamed",
            "offers[0].interconnect": "must be one of infiniband, roce, ethernet",
            "thresholds.scheduler_ops_hours_per_month": errors[
                "thresholds.scheduler_ops_hours_per_month"
            ],
        }
        assert "number" in errors["thresholds.scheduler_ops_hours_per_month"]

    def test_at_most_100_errors_are_listed_then_how_many_more(self, client, auth):
        body = make_input(task(**{f"typo_{i}": 1 for i in range(130)}), offers=[offer("a")])
        response = post(client, body, **auth)
        assert response.status_code == 422
        errors = response.json()["errors"]
        assert len(errors) == 101
        assert errors[-1] == {"field": "", "message": "… and 30 more"}


def _without_descriptions(value):
    if isinstance(value, dict):
        return {k: _without_descriptions(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [_without_descriptions(v) for v in value]
    return value
