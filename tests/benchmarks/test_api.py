from __future__ import annotations

import json

import pytest
from django.test import Client

from apps.accounts.tokens import api_token_create, api_token_revoke
from apps.benchmarks.models import BenchmarkRecord
from tests.benchmarks.helpers import api_post, make_world, probe_data, single_data
from tests.factories import make_benchmark

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


@pytest.fixture
def raw_token(team, owner):
    return api_token_create(team=team, name="pipeline", created_by=owner)[1]


def _fields(response) -> set[str]:
    return {e["field"] for e in response.json()["errors"]}


class AuthenticationTests:
    def test_it_requires_authentication(self, client, world):
        response = api_post(client, single_data(world))
        assert response.status_code == 401
        assert not BenchmarkRecord.objects.exists()

    def test_a_bad_token_is_refused(self, client, world, raw_token):
        response = api_post(client, single_data(world), token=raw_token + "x")
        assert response.status_code == 401
        assert api_post(client, single_data(world), token="nonsense").status_code == 401

    def test_a_bad_token_is_401_for_a_client_that_enforces_csrf(self, world, raw_token):
        client = Client(enforce_csrf_checks=True)
        assert api_post(client, single_data(world)).status_code == 401
        assert api_post(client, single_data(world), token=raw_token[:-1]).status_code == 401

    def test_a_revoked_token_is_refused(self, client, world, team, owner):
        token, raw = api_token_create(team=team, name="old", created_by=owner)
        api_token_revoke(token=token)
        assert api_post(client, single_data(world), token=raw).status_code == 401
        assert not BenchmarkRecord.objects.exists()

    def test_another_teams_token_cannot_write_to_this_teams_task(
        self, client, world, other_team, outsider
    ):
        _, theirs = api_token_create(team=other_team, name="theirs", created_by=outsider)
        response = api_post(client, single_data(world), token=theirs)
        assert response.status_code == 422
        assert _fields(response) == {"task", "offer"}
        assert not BenchmarkRecord.objects.exists()

    def test_a_token_cannot_choose_another_team(self, client, world, other_team, raw_token):
        response = api_post(client, single_data(world, team=other_team.pk), token=raw_token)
        assert response.status_code == 422
        assert _fields(response) == {"team"}

    def test_a_token_call_needs_no_csrf_token(self, world, raw_token):
        client = Client(enforce_csrf_checks=True)
        response = api_post(client, single_data(world), token=raw_token)
        assert response.status_code == 201

    def test_a_signed_in_member_posts_with_the_session_and_a_csrf_token(self, world, member):
        client = Client(enforce_csrf_checks=True)
        client.force_login(member)
        refused = api_post(client, single_data(world))
        assert refused.status_code == 403  # a session POST without the CSRF token is refused
        client.get("/benchmarks/")  # sets the CSRF cookie, as any page does
        csrf = client.cookies["csrftoken"].value
        response = api_post(client, single_data(world), HTTP_X_CSRFTOKEN=csrf)
        assert response.status_code == 201
        record = BenchmarkRecord.objects.get()
        assert (record.source, record.created_by) == ("api", member)

    def test_a_reviewer_session_cannot_write(self, world, reviewer):
        client = Client(enforce_csrf_checks=True)
        client.force_login(reviewer)
        client.get("/benchmarks/")
        response = api_post(
            client, single_data(world), HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value
        )
        assert response.status_code == 403
        assert not BenchmarkRecord.objects.exists()


class CreateTests:
    def test_it_creates_a_record_and_answers_201(self, client, world, team, raw_token):
        response = api_post(client, single_data(world, idempotency_key="run-1"), token=raw_token)
        assert response.status_code == 201
        body = response.json()
        record = BenchmarkRecord.objects.get()
        assert body["id"] == record.pk
        assert (body["team"], body["task"], body["offer"]) == (team.pk, world.task.pk, world.offer.pk)
        assert (body["kind"], body["gpus"], body["e2e_hours"]) == ("single", 8, 10.0)
        assert body["source"] == "api"
        assert body["url"] == f"/benchmarks/{record.pk}/"

    def test_a_retry_with_the_same_key_creates_one_record_and_answers_200(
        self, client, world, raw_token
    ):
        data = single_data(world, idempotency_key="run-42")
        first = api_post(client, data, token=raw_token)
        second = api_post(client, data, token=raw_token)
        assert (first.status_code, second.status_code) == (201, 200)
        assert first.json()["id"] == second.json()["id"]
        assert BenchmarkRecord.objects.count() == 1

    def test_the_same_key_with_other_values_is_409_and_drops_nothing_silently(
        self, client, world, raw_token
    ):
        """Issue 17 hole 6: the second measurement under a used key answered 200 and was lost."""
        first = api_post(client, single_data(world, idempotency_key="run-9"), token=raw_token)
        other = single_data(world, idempotency_key="run-9", e2e_hours=12, compute_hours=11)
        second = api_post(client, other, token=raw_token)
        assert (first.status_code, second.status_code) == (201, 409)
        body = second.json()
        (error,) = body["errors"]
        assert error["field"] == "idempotency_key"
        assert "run-9" in error["message"] and f"#{first.json()['id']}" in error["message"]
        assert "compute_hours, e2e_hours" in error["message"]
        assert body["record"]["id"] == first.json()["id"] and body["record"]["e2e_hours"] == 10.0
        record = BenchmarkRecord.objects.get()
        assert (record.e2e_hours, record.compute_hours) == (10.0, 9.0)  # nothing overwritten

    def test_the_same_key_and_body_sent_as_text_or_numbers_is_the_same_request(
        self, client, world, raw_token
    ):
        data = single_data(world, idempotency_key="run-10")
        assert api_post(client, data, token=raw_token).status_code == 201
        again = {**data, "e2e_hours": 10.0, "nodes": 1}
        assert api_post(client, again, token=raw_token).status_code == 200

    def test_the_key_may_come_in_the_idempotency_key_header(self, client, world, raw_token):
        first = api_post(client, single_data(world), token=raw_token, HTTP_IDEMPOTENCY_KEY="h-1")
        second = api_post(client, single_data(world), token=raw_token, HTTP_IDEMPOTENCY_KEY="h-1")
        assert (first.status_code, second.status_code) == (201, 200)
        assert BenchmarkRecord.objects.get().idempotency_key == "h-1"

    def test_it_records_a_network_probe_by_site_codes(self, client, world, raw_token):
        response = api_post(client, probe_data(world), token=raw_token)
        assert response.status_code == 201
        body = response.json()
        assert (body["from_site"], body["to_site"], body["bandwidth_gbps"]) == (
            world.site_a.code, world.site_b.code, 25.5,
        )


class ValidationTests:
    def test_rule_errors_answer_422_naming_each_field(self, client, world, raw_token):
        response = api_post(
            client,
            single_data(world, e2e_hours=5, compute_hours=6, queue_hours=-1, gpus_per_node=0),
            token=raw_token,
        )
        assert response.status_code == 422
        assert _fields(response) == {"e2e_hours", "queue_hours", "gpus_per_node"}
        assert not BenchmarkRecord.objects.exists()

    def test_type_errors_answer_422_naming_each_field(self, client, world, raw_token):
        response = api_post(
            client, single_data(world, nodes="two", kind="triple", e2e_hours=[1]), token=raw_token
        )
        assert response.status_code == 422
        assert _fields(response) == {"nodes", "kind", "e2e_hours"}

    def test_a_missing_task_is_named(self, client, world, raw_token):
        data = single_data(world)
        del data["task"]
        response = api_post(client, data, token=raw_token)
        assert response.status_code == 422
        assert _fields(response) == {"task"}

    def test_nan_and_infinity_are_refused(self, client, world, raw_token):
        raw = json.dumps(single_data(world)).replace('"e2e_hours": 10', '"e2e_hours": NaN')
        raw = raw.replace('"compute_hours": 9', '"compute_hours": Infinity')
        response = api_post(client, None, token=raw_token, raw=raw)
        assert response.status_code == 422
        assert {"e2e_hours", "compute_hours"} <= _fields(response)
        assert not BenchmarkRecord.objects.exists()

    def test_a_probe_without_sites_is_refused(self, client, world, raw_token):
        response = api_post(
            client, {"task": world.task.pk, "kind": "network_probe", "bandwidth_gbps": 1},
            token=raw_token,
        )
        assert response.status_code == 422
        assert _fields(response) == {"from_site", "to_site", "rtt_ms"}


class StrictBodyTests:
    """SPEC 6.2: a typo is never ignored, at most 100 errors are listed, a refused body stores
    nothing (the idempotency key is a column of the record: no row, no key)."""

    def test_an_unknown_field_is_422_naming_it_and_nothing_is_stored(
        self, client, world, raw_token
    ):
        data = single_data(world, compute_hour=9, idempotency_key="run-7")
        response = api_post(client, data, token=raw_token)
        assert response.status_code == 422
        assert response.json()["errors"] == [{"field": "compute_hour", "message": "unknown field"}]
        assert not BenchmarkRecord.objects.exists()
        # The key was not used up by the refused call.
        retry = api_post(client, single_data(world, idempotency_key="run-7"), token=raw_token)
        assert retry.status_code == 201

    def test_unknown_and_wrong_fields_are_named_together(self, client, world, raw_token):
        response = api_post(
            client, single_data(world, nodes="two", gpus_per_nod=8), token=raw_token
        )
        assert response.status_code == 422
        assert _fields(response) == {"nodes", "gpus_per_nod"}

    def test_at_most_100_errors_are_listed_then_how_many_more(self, client, world, raw_token):
        data = single_data(world, **{f"typo_{i:03}": 1 for i in range(130)})
        response = api_post(client, data, token=raw_token)
        assert response.status_code == 422
        errors = response.json()["errors"]
        assert len(errors) == 101
        assert all(e["message"] == "unknown field" for e in errors[:100])
        assert errors[-1] == {"field": "", "message": "… and 30 more"}
        assert not BenchmarkRecord.objects.exists()

    @pytest.mark.parametrize(
        ("raw", "message"),
        [
            ("{not json", "body is not valid JSON: Expecting property name enclosed in double "
                          "quotes at line 1 column 2"),
            ("[1, 2]", "body must be a JSON object, not an array"),
            ("[" * 100_000 + "]" * 100_000, "body is nested too deeply"),
        ],
    )
    def test_a_body_that_is_not_a_json_object_is_422(
        self, client, world, raw_token, raw, message
    ):
        response = api_post(client, None, token=raw_token, raw=raw)
        assert response.status_code == 422
        assert response.json() == {"errors": [{"field": "", "message": message}]}
        assert not BenchmarkRecord.objects.exists()

    def test_the_session_path_refuses_unknown_fields_too(self, world, member):
        client = Client(enforce_csrf_checks=True)
        client.force_login(member)
        client.get("/benchmarks/")
        response = api_post(
            client, single_data(world, e2e_hour=3),
            HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        )
        assert response.status_code == 422
        assert _fields(response) == {"e2e_hour"}
        assert not BenchmarkRecord.objects.exists()


class ListTests:
    def test_it_lists_only_the_callers_team_records(
        self, client, world, team, other_team, raw_token
    ):
        theirs = make_world(other_team, prefix="x-")
        mine = make_benchmark(team, world.task, world.offer)
        make_benchmark(other_team, theirs.task, theirs.offer)
        response = client.get("/api/v1/benchmarks", HTTP_AUTHORIZATION=f"Bearer {raw_token}")
        assert response.status_code == 200
        assert [r["id"] for r in response.json()] == [mine.pk]

    def test_it_filters_by_task(self, client, world, team, raw_token):
        other_task = make_world(team, prefix="b-").task
        make_benchmark(team, world.task, world.offer)
        make_benchmark(team, other_task, world.offer)
        response = client.get(
            f"/api/v1/benchmarks?task={other_task.pk}", HTTP_AUTHORIZATION=f"Bearer {raw_token}"
        )
        assert [r["task"] for r in response.json()] == [other_task.pk]

    def test_listing_requires_authentication(self, client):
        assert client.get("/api/v1/benchmarks").status_code == 401


class OpenApiTests:
    def test_the_schema_documents_the_body(self, client):
        schema = client.get("/api/v1/openapi.json").json()
        post = schema["paths"]["/api/v1/benchmarks"]["post"]
        ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        body = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        assert {"task", "kind", "e2e_hours", "idempotency_key"} <= set(body["properties"])
        assert body["additionalProperties"] is False  # unknown fields are refused
        assert {"201", "200", "413", "422"} <= set(post["responses"])
