"""The JSON API under generated input: schemathesis against its own OpenAPI schema, and
hypothesis bodies with what JSON schemas cannot express (NaN, Infinity, 1e309, other teams' ids).

No 5xx, ever; a benchmark record is written whole or not at all. The WSGI app runs in this thread,
so it sees the test's transaction (and the token created in it); Django's request signals would
close that connection between requests, so they are detached while the test calls the app.
"""

from __future__ import annotations

import json
import math
import os
from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from apps.actuals.models import ActualCost
from apps.benchmarks.models import BenchmarkRecord
from tests.security.fuzzing import approved_of
from tests.security.helpers import World, build_world, rolled_back

pytestmark = pytest.mark.django_db

OPERATIONS = [
    "POST /api/v1/evaluate", "POST /api/v1/benchmarks", "GET /api/v1/benchmarks",
    "POST /api/v1/actuals", "GET /api/v1/actuals", "GET /api/v1/snapshots/{snapshot_id}/skypilot",
    "POST /api/v1/bills", "GET /api/v1/reviews/{review_id}/summary",
]
EXAMPLES = int(os.environ.get("SECURITY_FUZZ_EXAMPLES", "30"))
# Bounded and reproducible in CI (see test_fuzz_forms for the variables that widen the hunt).
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=os.environ.get("SECURITY_FUZZ_RANDOM") != "1",
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


@pytest.fixture
def world(db) -> World:
    return build_world()


@contextmanager
def app_in_this_transaction():
    """Keep Django from closing the test's connection at each WSGI request."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def schema(world):
    with app_in_this_transaction() as application:
        yield schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


class SchemathesisTests:
    def test_the_schema_lists_the_operations_fuzzed_here(self, schema):
        labels = sorted(result.ok().label for result in schema.get_all_operations())
        assert labels == sorted(OPERATIONS)

    @pytest.mark.parametrize("mode", ["positive", "negative"])
    @pytest.mark.parametrize("label", OPERATIONS)
    def test_it_never_answers_a_server_error(self, schema, world, label, mode):
        method, path = label.split(" ")
        operation = schema[path][method]
        strategy = operation.as_strategy(generation_mode=schemathesis.GenerationMode(mode))
        real_ids = {"task": world.a.profile.pk, "offer": world.a.offer.pk}
        approved = approved_of(world).pk
        headers = {"Authorization": f"Bearer {world.a.token_raw}"}
        statuses: list[int] = []

        @SETTINGS
        @given(case=strategy, use_real_ids=st.booleans())
        def fuzz(case, use_real_ids):
            if use_real_ids and isinstance(case.body, dict) and "kind" in case.body:
                case.body.update(real_ids)  # past the id checks, into the record's own rules
            if use_real_ids and isinstance(case.body, dict) and "review" in case.body:
                case.body["review"] = approved  # an actual cost of an approved review
            with rolled_back():
                response = case.call(headers=headers)
                statuses.append(response.status_code)
                case.validate_response(response, checks=[not_a_server_error])

        fuzz()
        assert statuses and max(statuses) < 500
        assert set(statuses) - {401}, "every call was unauthenticated: the token was not sent"


# Hand-written bodies: what a JSON schema cannot say ----------------------------------------

HOSTILE_NUMBERS = st.sampled_from(
    [math.nan, math.inf, -math.inf, 1e309, -1e309, 1e308, 1e13, -1, -0.0, 0, 10**40, -(10**40)]
)
HOSTILE_TEXT = st.sampled_from(
    ["<script>alert(1)</script>", "nan", "Infinity", "", "x" * 10_000, "\x00", "🚀", "二", "1e309"]
)


def hostile(world: World) -> st.SearchStrategy:
    return st.one_of(
        HOSTILE_NUMBERS,
        HOSTILE_TEXT,
        st.booleans(),
        st.none(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
        st.sampled_from([world.b.profile.pk, world.b.offer.pk, world.b.home.code]),
    )


def benchmark_bodies(world: World) -> st.SearchStrategy[dict]:
    a = world.a
    base = {
        "task": a.profile.pk, "offer": a.offer.pk, "kind": "single", "nodes": 1,
        "gpus_per_node": 8, "e2e_hours": 3.0, "compute_hours": 2.0, "cost": 10.0,
        "notes": "<script>alert(1)</script>", "from_site": a.home.code, "to_site": a.far.code,
        "bandwidth_gbps": 5.0, "rtt_ms": 10.0, "tier": "same_city", "succeeded": True,
        "idempotency_key": "k-1",
    }
    kinds = st.sampled_from(["single", "multi", "network_probe", "pilot_migration"])
    return st.tuples(
        kinds, st.dictionaries(st.sampled_from(sorted(base)), hostile(world), max_size=4)
    ).map(lambda pair: {**base, "kind": pair[0], **pair[1]})


def post_json(client: Client, url: str, body, token: str):
    raw = json.dumps(body, allow_nan=True)  # NaN and Infinity as Python's json writes them
    return client.post(
        url, raw, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


class HostileBodyTests:
    def test_benchmark_records_are_whole_or_absent(self, world):
        client = Client(raise_request_exception=False)

        @SETTINGS
        @given(body=benchmark_bodies(world))
        def fuzz(body):
            with rolled_back():
                before = BenchmarkRecord.objects.count()
                response = post_json(client, "/api/v1/benchmarks", body, world.a.token_raw)
                assert response.status_code in (200, 201, 422), (response.status_code, body)
                made = BenchmarkRecord.objects.count() - before
                assert made == (1 if response.status_code == 201 else 0)
                if made:
                    record = BenchmarkRecord.objects.latest("pk")
                    record.full_clean()
                    assert record.team_id == world.a.team.pk
                    assert record.task.team_id == world.a.team.pk
                    for name in ("e2e_hours", "compute_hours", "cost", "bandwidth_gbps"):
                        value = getattr(record, name)
                        assert value is None or (math.isfinite(value) and abs(value) <= 1e12)
                    out = json.loads(response.content)
                    assert out["notes"] == record.notes  # JSON, not HTML: escaped by the page

        fuzz()

    def test_evaluate_answers_422_to_non_finite_input(self, world):
        client = Client(raise_request_exception=False)

        @SETTINGS
        @given(
            path=st.sampled_from(["task.compute_hours", "task.params_b", "task.input_gb",
                                  "offers.0.price", "links.0.bandwidth_gbps", "sites.0"]),
            value=hostile(world),
        )
        def fuzz(path, value):
            body = json.loads(json.dumps(EVALUATE_INPUT))
            target = body
            *parents, leaf = path.split(".")
            for part in parents:
                target = target[int(part)] if part.isdigit() else target[part]
            if leaf.isdigit():
                target[int(leaf)] = value
            else:
                target[leaf] = value
            response = post_json(client, "/api/v1/evaluate", body, world.a.token_raw)
            assert response.status_code in (200, 422), (response.status_code, path, value)
            if isinstance(value, float) and not math.isfinite(value) and leaf != "0":
                assert response.status_code == 422
                fields = [e["field"] for e in json.loads(response.content)["errors"]]
                assert any(leaf in f for f in fields), fields

        fuzz()

    def test_actual_costs_are_whole_or_absent(self, world):
        client = Client(raise_request_exception=False)
        review = approved_of(world)

        @SETTINGS
        @given(body=actual_bodies(world, review.pk))
        def fuzz(body):
            with rolled_back():
                before = ActualCost.objects.count()
                response = post_json(client, "/api/v1/actuals", body, world.a.token_raw)
                assert response.status_code in (200, 201, 409, 422), (response.status_code, body)
                made = ActualCost.objects.count() - before
                assert made == (1 if response.status_code == 201 else 0)
                if made:
                    record = ActualCost.objects.latest("pk")
                    record.full_clean()
                    assert record.team_id == record.review.team_id == world.a.team.pk
                    for name in ("compute_cost", "transfer_cost", "gpu_hours", "hours"):
                        value = getattr(record, name)
                        assert value is None or (math.isfinite(value) and value >= 0)
                    assert json.loads(response.content)["notes"] == record.notes

        fuzz()


EVALUATE_INPUT = {
    "task": {
        "name": "t", "workload": "inference", "params_b": 7, "precision": "bf16",
        "compute_hours": 10, "gpus": 1, "input_gb": 100, "result_gb": 5, "data_site": "a",
        "home_site": "a", "result_site": "a",
        "team": {"has_machines": True, "has_scheduler": False, "can_maintain_scheduler": False,
                 "pain": "none", "validated_tiers": ["same_site"]},
    },
    "sites": [
        {"code": "a", "datacenter": "d", "city": "c", "hub": "h", "queue_hours": 0},
        {"code": "b", "datacenter": "e", "city": "c", "hub": "h", "queue_hours": 2},
    ],
    "links": [{"from": "a", "to": "b", "bandwidth_gbps": 10, "rtt_ms": 1, "price_per_gb": 0}],
    "offers": [{"id": "1", "kind": "compute", "site": "a", "gpu_mem_gb": 80,
                "gpus_per_machine": 8, "billing_basis": "gpu_hour", "price": 2,
                "scheduling_fee_pct": 0, "parallelism": ["data"], "relative_speed": 1}],
    "benchmarks": [],
    "checklists": {"1": {f"q{i}": "answered" for i in range(1, 7)}},
}

def actual_bodies(world: World, review: int) -> st.SearchStrategy[dict]:
    base = {
        "review": review, "period": "2026-04-01", "compute_cost": 260.0, "transfer_cost": 90.0,
        "gpu_hours": 80.0, "hours": 12.5, "currency": "USD", "reference": "line 1",
        "notes": "<script>alert(1)</script>", "idempotency_key": "k-1",
    }
    extra = st.sampled_from([world.b.review.pk, world.a.review.pk, "2026-02-30", "#1", 0])
    return st.dictionaries(
        st.sampled_from(sorted(base) + ["team"]), st.one_of(hostile(world), extra), max_size=4
    ).map(lambda changes: {**base, **changes})


class HugeInputTests:
    """DoS by size: bodies over 2 MB (SPEC 6.2) and JSON nested thousands deep are refused."""

    def test_a_body_over_2_mb_is_413_and_stores_nothing(self, world):
        client = Client(raise_request_exception=False)
        for size in (2 * 1024 * 1024, 11 * 1024 * 1024):  # over the API's and Django's limits
            big = json.dumps({"notes": "x" * size, "idempotency_key": "k-big"})
            for url in ("/api/v1/benchmarks", "/api/v1/evaluate"):
                with rolled_back():
                    before = BenchmarkRecord.objects.count()
                    response = post_raw(client, url, big, world.a.token_raw)
                    assert response.status_code == 413, (url, size)
                    assert json.loads(response.content)["limit_bytes"] == 2 * 1024 * 1024
                    assert BenchmarkRecord.objects.count() == before
                    assert not BenchmarkRecord.objects.filter(idempotency_key="k-big").exists()

    def test_json_nested_thousands_deep_is_refused(self, world):
        client = Client(raise_request_exception=False)
        deep = "[" * 100_000 + "]" * 100_000
        for url in ("/api/v1/evaluate", "/api/v1/benchmarks"):
            response = post_raw(client, url, deep, world.a.token_raw)
            assert response.status_code == 422, url
            message = json.loads(response.content)["errors"][0]["message"]
            assert message == "body is nested too deeply"


def post_raw(client: Client, url: str, raw: str, token: str):
    return client.post(
        url, raw, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
