"""The webhooks pages: an owner adds an endpoint and sees its secret once, sends a test and reads
the delivery log; a member is refused, another team's endpoint does not exist; both languages."""

from __future__ import annotations

import pytest

from apps.accounts.middleware import SESSION_TEAM_KEY
from apps.notifications.models import WebhookEndpoint
from apps.reviews.models import AuditEvent
from tests.factories import make_membership
from tests.receiver import start_receiver

pytestmark = pytest.mark.django_db
LIST = "/notifications/webhooks/"


@pytest.fixture
def receiver(settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    receiver = start_receiver()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


def add(client, url: str, **extra):
    data = {"url": url, "events": ["review_submitted", "decision_taken"], "shape": "json", **extra}
    return client.post(LIST, data)


class WebhookPageTests:
    def test_the_owner_adds_one_sees_the_secret_once_and_sends_a_test(
        self, client, owner, receiver, django_capture_on_commit_callbacks
    ):
        client.force_login(owner)
        response = add(client, receiver.url())
        endpoint = WebhookEndpoint.objects.get()
        assert response.status_code == 200
        assert endpoint.secret in response.content.decode()
        assert endpoint.events == ["review_submitted", "decision_taken"]
        detail = f"{LIST}{endpoint.pk}/"
        assert endpoint.secret not in client.get(detail).content.decode()
        assert endpoint.secret not in client.get(LIST).content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"{detail}test/")
        page = client.get(detail).content.decode()
        assert len(receiver.received) == 1
        assert '<td class="num">200</td>' in page and "<td>test</td>" in page

    @pytest.mark.parametrize(
        ("url", "words"),
        [
            ("ftp://example.com/x", "only http and https URLs are allowed"),
            ("http://10.0.0.1/x", "10.0.0.1 is a private address"),
            ("http://169.254.169.254/", "metadata"),
        ],
    )
    def test_a_refused_url_is_an_error_on_the_field(self, client, owner, url, words, settings):
        settings.OUTBOUND_ALLOW_PRIVATE = False
        client.force_login(owner)
        response = add(client, url)
        assert response.status_code == 422
        assert words in str(response.context["form"].errors["url"])
        assert not WebhookEndpoint.objects.exists()

    def test_an_unknown_field_or_event_is_refused(self, client, owner):
        client.force_login(owner)
        assert add(client, "https://93.184.216.34/x", colour="red").status_code == 422
        response = client.post(LIST, {"url": "https://93.184.216.34/x", "events": ["nope"]})
        assert response.status_code == 422 and "events" in response.context["form"].errors
        assert not WebhookEndpoint.objects.exists()

    def test_members_are_refused_and_other_teams_see_nothing(
        self, client, team, owner, member, outsider, other_team
    ):
        endpoint = WebhookEndpoint.objects.create(
            team=team, url="https://hooks.example.com/a", events=["review_submitted"],
            secret="whsec_x", created_by=owner,
        )  # fmt: skip
        client.force_login(member)
        assert client.get(LIST).status_code == 403
        assert client.get(f"{LIST}{endpoint.pk}/").status_code == 403
        client.force_login(outsider)
        assert client.get(f"{LIST}{endpoint.pk}/").status_code == 404
        # An owner of both teams, switched to the other team, does not reach it from there.
        make_membership(owner, other_team, "owner")
        client.force_login(owner)
        session = client.session
        session[SESSION_TEAM_KEY] = other_team.pk
        session.save()
        assert client.get(f"{LIST}{endpoint.pk}/").status_code == 404
        assert client.post(f"{LIST}{endpoint.pk}/delete/").status_code == 404
        assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()

    def test_the_page_reads_in_chinese(self, client, owner):
        client.force_login(owner)
        client.cookies["django_language"] = "zh-hans"
        page = client.get(LIST, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "添加 Webhook" in page


class SettingsLinkTests:
    def test_owners_find_the_webhooks_from_the_team_settings(self, client, owner, member):
        client.force_login(owner)
        assert 'href="/notifications/webhooks/"' in client.get("/settings/").content.decode()
        client.force_login(member)
        assert 'href="/notifications/webhooks/"' not in client.get("/settings/").content.decode()


class WebhookAuditTests:
    """Adding, resuming and deleting a webhook are settings changes: each is in the settings'
    "Recent changes" with who did it, in both languages; the secret never is."""

    def test_each_change_is_audited_without_the_secret(self, client, owner, team, settings):
        settings.OUTBOUND_ALLOW_PRIVATE = True
        client.force_login(owner)
        url = "https://93.184.216.34/ours"  # a public address: no name to resolve offline
        assert add(client, url).status_code == 200
        endpoint = WebhookEndpoint.objects.get()
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False)
        client.post(f"{LIST}{endpoint.pk}/resume/")
        client.post(f"{LIST}{endpoint.pk}/delete/")
        assert not WebhookEndpoint.objects.exists()

        events = AuditEvent.objects.filter(team=team, review=None).order_by("id")
        assert [(e.action, e.target, e.actor) for e in events] == [
            ("team.webhook_added", url, owner),
            ("team.webhook_resumed", url, owner),
            ("team.webhook_deleted", url, owner),
        ]
        assert events[0].changes["events"] == [[], ["review_submitted", "decision_taken"]]
        assert events[1].changes["active"] == [False, True]
        assert all(endpoint.secret not in str(e.changes) for e in events)

        page = client.get("/settings/").content.decode()
        for words in ("added the webhook", "resumed the webhook", "deleted the webhook"):
            assert f"{words} {url}" in page
        assert endpoint.secret not in page
        client.cookies["django_language"] = "zh-hans"
        page = client.get("/settings/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        for words in ("添加了 webhook", "恢复了 webhook", "删除了 webhook"):
            assert f"{words} {url}" in page

    def test_a_refused_address_writes_no_audit(self, client, owner, team, settings):
        settings.OUTBOUND_ALLOW_PRIVATE = False
        client.force_login(owner)
        assert add(client, "http://10.0.0.1/x").status_code == 422
        assert not AuditEvent.objects.filter(team=team, action__startswith="team.webhook").exists()
