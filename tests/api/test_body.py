"""Request bodies of the JSON API (apps/web/body.py, SPEC 6.2): over 2 MB is a 413 naming the
limit, whether Content-Length says so (nothing is read) or the body received turns out larger
(ASGI: chunked or understated); nothing is stored from a refused body."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.test import Client, override_settings

from apps.accounts.tokens import api_token_create
from apps.benchmarks.models import BenchmarkRecord
from apps.web.body import MAX_BODY_BYTES, capped
from tests.benchmarks.helpers import make_world, single_data

URLS = ["/api/v1/evaluate", "/api/v1/benchmarks"]
LIMIT = 2 * 1024 * 1024


class UnreadableStream:
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def padded(body: dict, size: int) -> bytes:
    """`body` as JSON, padded with trailing spaces (still valid JSON) to exactly `size` bytes."""
    raw = json.dumps(body).encode()
    return raw + b" " * (size - len(raw))


def asgi_post(path: str, chunks: list[bytes], headers: list[tuple[bytes, bytes]]):
    """POST through Django's ASGI handler, the body in `chunks` as a client would stream it."""
    messages = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]
    sent: list[dict] = []

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()  # no disconnect: Django cancels this when it has answered

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    async_to_sync(ASGIHandler())(scope, receive, send)
    status = sent[0]["status"]
    return status, b"".join(m.get("body", b"") for m in sent[1:])


def assert_too_large(status: int, content: bytes, limit: int = LIMIT) -> None:
    assert status == 413
    body = json.loads(content)
    assert body["limit_bytes"] == limit
    assert body["errors"] == [
        {
            "field": "",
            "message": f"request body is over the {limit / 2**20:g} MB limit ({limit} bytes)",
        }
    ]


class LimitTests:
    def test_the_limit_is_2_mb(self):
        assert MAX_BODY_BYTES == LIMIT

    def test_at_most_100_errors_then_a_count_of_the_rest(self):
        errors = [{"field": f"f{i}", "message": "bad"} for i in range(130)]
        out = capped(errors)
        assert len(out) == 101
        assert out[:100] == errors[:100]
        assert out[100] == {"field": "", "message": "… and 30 more"}
        assert capped(errors[:100]) == errors[:100]


@pytest.mark.django_db
class ContentLengthTests:
    @pytest.mark.parametrize("url", URLS)
    def test_a_declared_length_over_2_mb_is_413_without_reading_the_body(self, url, team):
        _, raw = api_token_create(team=team, name="pipeline")
        response = Client().post(
            url,
            b"",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
            CONTENT_LENGTH=str(LIMIT + 1),
            **{"wsgi.input": UnreadableStream()},
        )
        assert_too_large(response.status_code, response.content)
        assert response["Content-Type"] == "application/json"

    def test_it_answers_413_before_asking_who_is_calling(self):
        response = Client().post(
            "/api/v1/evaluate",
            b"",
            content_type="application/json",
            CONTENT_LENGTH=str(10 * LIMIT),
            **{"wsgi.input": UnreadableStream()},
        )
        assert_too_large(response.status_code, response.content)

    def test_a_body_of_exactly_2_mb_is_accepted_and_one_byte_more_is_413(self, team):
        world = make_world(team)
        _, raw = api_token_create(team=team, name="pipeline")
        client, auth = Client(), {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
        over = padded(single_data(world, idempotency_key="big"), LIMIT + 1)
        refused = client.post("/api/v1/benchmarks", over, content_type="application/json", **auth)
        assert_too_large(refused.status_code, refused.content)
        assert not BenchmarkRecord.objects.exists()
        # Nothing was stored under the key either: the same key records the run afterwards.
        exact = padded(single_data(world, idempotency_key="big"), LIMIT)
        response = client.post("/api/v1/benchmarks", exact, content_type="application/json", **auth)
        assert response.status_code == 201, response.content[:300]
        assert BenchmarkRecord.objects.get().idempotency_key == "big"

    @pytest.mark.parametrize("url", URLS)
    def test_wsgi_never_reads_past_the_declared_length(self, url, team):
        """The test client sends CONTENT_LENGTH = len(body); here it lies (too small, absent):
        Django's WSGI request reads only what was declared, so the rest never reaches memory."""
        world = make_world(team)
        _, raw = api_token_create(team=team, name="pipeline")
        big = padded(single_data(world), 3 * LIMIT)
        client, auth = Client(), {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
        for declared in ("100", ""):
            response = client.post(
                url, big, content_type="application/json", CONTENT_LENGTH=declared, **auth
            )
            assert response.status_code == 422, (declared, response.content)
            [error] = response.json()["errors"]
            assert error["field"] == ""
            assert error["message"].startswith(("body is not valid JSON", "body is empty"))
        assert not BenchmarkRecord.objects.exists()

    @pytest.mark.parametrize("url", URLS)
    def test_a_content_length_that_is_not_a_number_is_400_not_500(self, url):
        response = Client().post(url, b"{}", content_type="application/json", CONTENT_LENGTH="lots")
        assert response.status_code == 400
        assert response.json()["errors"][0]["message"] == "Content-Length is not a number"

    @override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024 * 1024)
    def test_a_smaller_django_upload_limit_becomes_the_limit_and_is_still_a_413(self, team):
        world = make_world(team)
        _, raw = api_token_create(team=team, name="pipeline")
        body = padded(single_data(world), 1024 * 1024 + 10)
        response = Client().post(
            "/api/v1/benchmarks",
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert_too_large(response.status_code, response.content, limit=1024 * 1024)
        assert not BenchmarkRecord.objects.exists()

    def test_only_the_api_is_held_to_2_mb(self):
        """Pages keep Django's own limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 10 MB)."""
        response = Client().post("/ping", b"x" * (LIMIT + 1), content_type="text/plain")
        assert response.status_code == 405


@pytest.mark.django_db
class ReceivedSizeTests:
    """ASGI hands Django the whole body received, whatever Content-Length said."""

    @pytest.mark.parametrize("url", URLS)
    def test_a_chunked_body_over_2_mb_without_a_length_is_413(self, url):
        chunks = [b'{"notes": "', b"x" * LIMIT, b'"}']
        status, content = asgi_post(url, chunks, headers=[])
        assert_too_large(status, content)

    @pytest.mark.parametrize("url", URLS)
    def test_a_body_larger_than_its_declared_length_is_413(self, url):
        chunks = [b'{"notes": "', b"x" * LIMIT, b'"}']
        status, content = asgi_post(url, chunks, headers=[(b"content-length", b"100")])
        assert_too_large(status, content)

    def test_a_body_over_djangos_upload_limit_is_413_not_400(self):
        chunks = [b"x" * (4 * 1024 * 1024)] * 3  # 12 MB, over DATA_UPLOAD_MAX_MEMORY_SIZE
        status, content = asgi_post("/api/v1/evaluate", chunks, headers=[])
        assert_too_large(status, content)


@pytest.mark.django_db
class OpenApiTests:
    @pytest.mark.parametrize("path", URLS)
    def test_every_post_documents_413_and_422(self, client, path):
        schema = client.get("/api/v1/openapi.json").json()
        responses = schema["paths"][path]["post"]["responses"]
        assert {"413", "422"} <= set(responses)
        too_large = responses["413"]["content"]["application/json"]["schema"]["$ref"]
        fields = schema["components"]["schemas"][too_large.rsplit("/", 1)[-1]]["properties"]
        assert {"errors", "limit_bytes"} <= set(fields)

    def test_the_description_states_the_limits(self, client):
        description = client.get("/api/v1/openapi.json").json()["info"]["description"]
        assert "2 MB (2097152 bytes)" in description
        assert "**413**" in description and "**unknown field**" in description
        assert "at most 100 errors" in description


@pytest.mark.django_db
class TextThatNoFieldMayHoldTests:
    """Issue 17 hole 4: a lone UTF-16 surrogate in a text field was a 500 (PostgreSQL cannot
    store it). Every JSON body is read through one reader, which refuses such text, and control
    characters, by field path before anything is stored."""

    def post(self, team, body: str):
        _, raw = api_token_create(team=team, name="pipeline")
        return Client().post(
            "/api/v1/benchmarks", body, content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )

    def test_a_lone_surrogate_is_422_naming_the_field_and_nothing_is_stored(self, team):
        world = make_world(team)
        body = json.dumps(single_data(world, idempotency_key="s1", notes="run \ud800 one"))
        assert "\\ud800" in body  # JSON spells the surrogate as an escape, as the probe sent it
        response = self.post(team, body)
        assert response.status_code == 422
        (error,) = response.json()["errors"]
        assert error["field"] == "notes" and "surrogate" in error["message"]
        assert not BenchmarkRecord.objects.exists()

    def test_a_control_character_is_422_naming_the_field(self, team):
        world = make_world(team)
        body = json.dumps(single_data(world, idempotency_key="c1", notes="bell \u0007"))
        response = self.post(team, body)
        assert response.status_code == 422
        (error,) = response.json()["errors"]
        assert error["field"] == "notes" and "U+0007" in error["message"]

    def test_tabs_and_line_breaks_are_text(self, team):
        world = make_world(team)
        body = json.dumps(single_data(world, idempotency_key="t1", notes="a\tb\nc\r\nd"))
        assert self.post(team, body).status_code == 201

    def test_the_evaluate_endpoint_names_every_such_field_by_path(self, team):
        _, raw = api_token_create(team=team, name="pipeline")
        body = json.dumps({"task": {"name": "x\udfff"}, "offers": [{"id": "a\u0001"}]})
        response = Client().post(
            "/api/v1/evaluate", body, content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert response.status_code == 422
        fields = [e["field"] for e in response.json()["errors"]]
        assert fields == ["offers[0].id", "task.name"]
