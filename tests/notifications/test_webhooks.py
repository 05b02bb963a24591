"""Webhooks (issue 40) against a real HTTP receiver on 127.0.0.1 (tests/receiver.py): the
signature verifies with the secret, a receiver that fails twice gets the event exactly once, a
day of failures pauses the endpoint and tells its owner, and the address rule refuses internal
addresses (apps/web/outbound.py), at send time and on every redirect.

The receiver is on loopback, so the cases that must reach it allow 127.0.0.1 alone
(OUTBOUND_ALLOWED_NETWORKS) or private addresses (OUTBOUND_ALLOW_PRIVATE); a host name is pointed
at an address by `outbound.RESOLVER`, and the connection to that address is real.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from apps.notifications.models import (
    DeliveryStatus,
    Kind,
    Notification,
    WebhookDelivery,
    WebhookEndpoint,
)
from apps.notifications.services import notify
from apps.notifications.tasks import send_webhook_task
from apps.notifications.webhooks import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    webhook_endpoint_create,
    webhook_send_test,
    webhook_sweep,
)
from apps.web import outbound
from tests.receiver import start_receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def receiver():
    receiver = start_receiver()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


@pytest.fixture
def loopback_allowed(settings):
    settings.OUTBOUND_ALLOW_PRIVATE = False
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture
def resolve_to(monkeypatch):
    """Point every host name at one address (the socket-level answer of the DNS)."""

    def point(address: str) -> None:
        monkeypatch.setattr(outbound, "RESOLVER", lambda host, port: [address])

    return point


def endpoint_for(team, owner, url: str, shape: str = "json") -> WebhookEndpoint:
    return webhook_endpoint_create(
        team=team, url=url, events=[Kind.REVIEW_SUBMITTED], shape=shape, created_by=owner
    )


def submit_event(team, commit, key: str = "review-1-submitted") -> None:
    with commit(execute=True):
        notify(
            kind=Kind.REVIEW_SUBMITTED, team=team, recipients=[], url="/reviews/1/",
            params={"review": "Nightly batch", "actor": "alice"}, event_key=key,
        )  # fmt: skip


class WebhookDeliveryTests:
    def test_the_signature_verifies_with_the_secret(
        self, team, owner, receiver, loopback_allowed, django_capture_on_commit_callbacks
    ):
        endpoint = endpoint_for(team, owner, receiver.url())
        submit_event(team, django_capture_on_commit_callbacks)
        [got] = receiver.received
        timestamp = got.headers[TIMESTAMP_HEADER]
        expected = hmac.new(
            endpoint.secret.encode(), timestamp.encode() + b"." + got.body, hashlib.sha256
        ).hexdigest()
        assert got.headers[SIGNATURE_HEADER] == f"sha256={expected}"
        wrong = hmac.new(b"not-the-secret", timestamp.encode() + b"." + got.body, hashlib.sha256)
        assert got.headers[SIGNATURE_HEADER] != f"sha256={wrong.hexdigest()}"
        body = json.loads(got.body)
        assert body["event"] == "review_submitted" and body["team"] == team.slug
        assert body["text"] == "alice submitted “Nightly batch” for your decision."
        assert body["url"].endswith("/reviews/1/")

    def test_a_receiver_failing_twice_gets_the_event_exactly_once(
        self, team, owner, receiver, loopback_allowed, django_capture_on_commit_callbacks
    ):
        endpoint = endpoint_for(team, owner, receiver.url())
        receiver.answers = [(500, {}), (503, {})]
        submit_event(team, django_capture_on_commit_callbacks)
        delivery = WebhookDelivery.objects.get(endpoint=endpoint)
        assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 1
        # The retries a worker runs after the backoff (eager tasks here do not wait for them).
        for _ in range(5):
            if not WebhookDelivery.objects.filter(pk=delivery.pk, status="pending").exists():
                break
            send_webhook_task.apply(args=[delivery.pk], throw=False)
        assert [r.status for r in receiver.received] == [500, 503, 200]
        # The same event again queues nothing new; a duplicate task or a sweep sends nothing.
        submit_event(team, django_capture_on_commit_callbacks)
        send_webhook_task.apply(args=[delivery.pk], throw=False)
        assert webhook_sweep(now=timezone.now() + timedelta(hours=1)) == []
        assert len(receiver.accepted) == 1 and len(receiver.received) == 3
        delivery.refresh_from_db()
        assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 3
        codes = list(
            delivery.attempt_log.order_by("at", "id").values_list("status_code", flat=True)
        )
        assert codes == [500, 503, 200]
        endpoint.refresh_from_db()
        assert endpoint.failing_since is None and endpoint.active

    def test_slack_shape_has_text_and_blocks(
        self, team, owner, receiver, loopback_allowed, django_capture_on_commit_callbacks
    ):
        endpoint_for(team, owner, receiver.url(), shape="slack")
        submit_event(team, django_capture_on_commit_callbacks)
        body = json.loads(receiver.received[0].body)
        assert body["text"].startswith("alice submitted “Nightly batch” for your decision.")
        assert body["blocks"][0]["type"] == "section"
        assert "/reviews/1/" in body["blocks"][0]["text"]["text"]

    def test_a_day_of_failures_pauses_the_endpoint_and_tells_its_owner(
        self, team, owner, receiver, loopback_allowed, django_capture_on_commit_callbacks
    ):
        endpoint = endpoint_for(team, owner, receiver.url())
        day_ago = timezone.now() - timedelta(days=1, minutes=1)
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failing_since=day_ago)
        receiver.answers = [(500, {})] * 10
        submit_event(team, django_capture_on_commit_callbacks)
        assert [r.status for r in receiver.received] == [500]  # paused at once: no retry
        endpoint.refresh_from_db()
        assert not endpoint.active and endpoint.paused_at is not None
        told = Notification.objects.get(kind=Kind.WEBHOOK_PAUSED)
        assert told.recipient == owner and endpoint.url in told.text
        # A paused endpoint is sent nothing more.
        submit_event(team, django_capture_on_commit_callbacks, key="review-2-submitted")
        assert len(receiver.received) == 1

    def test_send_test_reaches_the_receiver(
        self, team, owner, receiver, loopback_allowed, django_capture_on_commit_callbacks
    ):
        endpoint = endpoint_for(team, owner, receiver.url())
        with django_capture_on_commit_callbacks(execute=True):
            webhook_send_test(endpoint=endpoint)
        assert json.loads(receiver.received[0].body)["event"] == "test"


class AddressRuleTests:
    """Refused: names resolving to loopback or private addresses, metadata, an IPv6-mapped
    private address, a redirect to a private address; checked when typed and when sent."""

    @pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.1", "::ffff:10.0.0.1"])
    def test_a_name_resolving_to_an_internal_address_is_refused_when_typed(
        self, team, owner, resolve_to, address, settings
    ):
        settings.OUTBOUND_ALLOW_PRIVATE = False
        resolve_to(address)
        with pytest.raises(ValidationError) as caught:
            endpoint_for(team, owner, "https://hooks.example.com/x")
        assert "url" in caught.value.error_dict
        assert WebhookEndpoint.objects.count() == 0

    @pytest.mark.parametrize(
        "url",
        [
            "http://169.254.169.254/latest/meta-data/",
            "http://[::ffff:10.0.0.1]/x",
            "http://[::ffff:7f00:1]/x",
            "http://10.0.0.1/x",
            "ftp://hooks.example.com/x",
            "file:///etc/passwd",
        ],
    )
    def test_internal_literals_and_other_schemes_are_refused(self, url, settings):
        settings.OUTBOUND_ALLOW_PRIVATE = False
        with pytest.raises(outbound.OutboundRefused):
            outbound.check_url(url)

    def test_metadata_stays_refused_when_private_addresses_are_allowed(self, settings, resolve_to):
        settings.OUTBOUND_ALLOW_PRIVATE = True
        resolve_to("169.254.169.254")
        with pytest.raises(outbound.OutboundRefused, match="metadata"):
            outbound.check_url("http://metadata.example/")
        outbound.check_url("http://10.0.0.1/x")  # allowed by the setting

    def test_the_address_is_checked_again_at_send_time(
        self, team, owner, receiver, resolve_to, settings, django_capture_on_commit_callbacks
    ):
        """Rebinding: the name was public when typed, resolves to loopback when sent."""
        settings.OUTBOUND_ALLOW_PRIVATE = False
        resolve_to("93.184.216.34")
        endpoint = endpoint_for(team, owner, receiver.url(host="hooks.example.com"))
        resolve_to("127.0.0.1")
        submit_event(team, django_capture_on_commit_callbacks)
        assert receiver.received == []
        attempt = WebhookDelivery.objects.get(endpoint=endpoint).attempt_log.first()
        assert attempt.status_code is None and "127.0.0.1 is a loopback address" in attempt.error

    def test_the_checked_address_is_the_one_connected_to(self, resolve_to, receiver, settings):
        """A name pointed at the receiver's address reaches it, with the name in Host."""
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        resolve_to("127.0.0.1")
        answer = outbound.request("GET", receiver.url("/ping", host="hooks.example.com"))
        assert answer.status == 200
        assert receiver.received[0].headers["Host"] == f"hooks.example.com:{receiver.port}"

    @pytest.mark.parametrize("location", ["http://10.0.0.1/x", "http://[::ffff:10.0.0.1]/x"])
    def test_a_redirect_to_a_private_address_is_refused(self, receiver, loopback_allowed, location):
        receiver.answers = [(302, {"Location": location})]
        with pytest.raises(outbound.OutboundRefused, match="10.0.0.1 is a private address"):
            outbound.request("POST", receiver.url(), body=b"{}")
        assert len(receiver.received) == 1  # the first hop only

    def test_a_redirect_to_a_name_resolving_to_a_private_address_is_refused(
        self, receiver, loopback_allowed, monkeypatch
    ):
        monkeypatch.setattr(
            outbound, "RESOLVER", lambda host, port: ["10.0.0.1" if host == "inner" else host]
        )
        receiver.answers = [(307, {"Location": "http://inner/admin"})]
        with pytest.raises(outbound.OutboundRefused, match="inner: 10.0.0.1"):
            outbound.request("GET", receiver.url())

    def test_an_allowed_redirect_is_followed(self, receiver, loopback_allowed):
        receiver.answers = [(302, {"Location": "/landed"})]
        answer = outbound.request("GET", receiver.url("/start"))
        assert answer.status == 200 and [r.path for r in receiver.received] == ["/start", "/landed"]


class WebhookEventTests:
    def test_a_real_submission_reaches_the_teams_webhook_and_not_another_teams(
        self, team, other_team, owner, member, outsider, receiver, loopback_allowed,
        django_capture_on_commit_callbacks,
    ):  # fmt: skip
        from tests.teams.helpers import moving_review, submit

        endpoint_for(team, owner, receiver.url())
        webhook_endpoint_create(
            team=other_team, url=receiver.url("/other"), events=[Kind.REVIEW_SUBMITTED],
            shape="json", created_by=outsider,
        )  # fmt: skip
        review = moving_review(team, member, ready=True, title="Plan A")
        with django_capture_on_commit_callbacks(execute=True):
            submit(review)
        bodies = [json.loads(r.body) for r in receiver.received]
        assert [r.path for r in receiver.received] == ["/hook"]
        assert bodies[0]["event"] == "review_submitted" and bodies[0]["team"] == team.slug
        assert "Plan A" in bodies[0]["text"]


@pytest.mark.django_db(transaction=True)
def test_eager_mode_logs_a_failed_send_as_such_not_as_a_broker_down(owner, team, settings, caplog):
    """Eager mode (no broker, the embedded default) runs the delivery at publishing: a refused
    connection is the send failing, said as a warning; "could not publish" is for a broker that
    is down (tests/scoring/test_broker_down.py)."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    endpoint = WebhookEndpoint.objects.create(
        team=team, url="http://127.0.0.1:9/x", events=["review_submitted"],  # port 9: refused
        secret="whsec_x", created_by=owner,
    )  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="apps.accounts.tasks"):
        delivery = webhook_send_test(endpoint=endpoint)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.PENDING, 1)
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "apps.accounts.tasks"]
    assert len(said) == 1 and said[0][0] == "WARNING", said
    assert f"webhook delivery {delivery.pk}: the attempt failed" in said[0][1]
    assert "Connection refused" in said[0][1]
    assert not any("could not publish" in r.getMessage() for r in caplog.records)
