"""One client address for everything that keys on it (apps/accounts/client_ip.py, issue 34).

Before: allauth's rate limits and its sessions list read REMOTE_ADDR, which behind the proxy is the
proxy's for every client, so 30 sign-in attempts from 30 clients got everyone a 429 and 20 resets
blocked everybody's reset; axes read a second setting. Each test below fails on that code.
"""

from __future__ import annotations

import pytest
from allauth.usersessions.models import UserSession
from django.test import RequestFactory
from django.urls import reverse

from apps.accounts.client_ip import client_ip
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

PROXY = "10.9.9.9"


@pytest.fixture(autouse=True)
def _behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.AXES_FAILURE_LIMIT = 5


def sign_in(client, username: str, password: str, address: str):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=address,
    )


def signed_in(response) -> bool:
    return response.status_code == 302 and "/accounts/login" not in response["Location"]


class ThirtyClientsTests:
    def test_thirty_attempts_from_thirty_addresses_never_lock_out_a_correct_password(self, client):
        make_user("alice")
        for i in range(30):
            response = sign_in(client, f"guess{i}", "Summer2026!", address=f"198.51.100.{i}")
            assert response.status_code == 200  # a form error, never a 429
        assert signed_in(sign_in(client, "alice", PASSWORD, address="203.0.113.77"))

    def test_thirty_attempts_from_one_address_are_limited(self, client):
        make_user("alice")
        answers = [
            sign_in(client, f"guess{i}", "Summer2026!", address="198.51.100.1").status_code
            for i in range(30)
        ]
        assert answers.count(429) >= 25
        # That address is held back, even with a correct password; another address is not.
        assert sign_in(client, "alice", PASSWORD, address="198.51.100.1").status_code == 429
        assert signed_in(sign_in(client, "alice", PASSWORD, address="203.0.113.77"))

    def test_many_addresses_against_one_account_are_limited(self, client):
        make_user("bob")
        make_user("alice")
        answers = [
            sign_in(client, "bob", "wrong", address=f"198.51.100.{i}").status_code
            for i in range(30)
        ]
        assert answers.count(429) >= 25
        assert sign_in(client, "bob", PASSWORD, address="203.0.113.77").status_code == 429
        # Somebody else's account is untouched by it.
        assert signed_in(sign_in(client, "alice", PASSWORD, address="203.0.113.78"))

    def test_resets_for_others_from_many_addresses_do_not_block_a_reset(self, client):
        carol = make_user("carol")
        for i in range(25):
            response = client.post(
                reverse("account_reset_password"),
                {"email": f"someone{i}@example.com"},
                REMOTE_ADDR=PROXY,
                HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
            )
            assert response.status_code == 302
        response = client.post(
            reverse("account_reset_password"),
            {"email": carol.email},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="203.0.113.5",
        )
        assert response.status_code == 302

    def test_the_sessions_list_shows_the_clients_address(self, client):
        alice = make_user("alice")
        assert signed_in(sign_in(client, "alice", PASSWORD, address="203.0.113.9"))
        assert list(UserSession.objects.filter(user=alice).values_list("ip", flat=True)) == [
            "203.0.113.9"
        ]


class ClientAddressTests:
    def request(self, remote: str, forwarded: str | None = None):
        extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
        return RequestFactory().get("/", REMOTE_ADDR=remote, **extra)

    def test_without_a_trusted_proxy_the_header_is_the_clients_own_words(self, settings):
        settings.TRUSTED_PROXY_COUNT = 0
        assert client_ip(self.request("192.0.2.1", "198.51.100.1")) == "192.0.2.1"

    def test_it_takes_the_nth_address_from_the_right(self, settings):
        settings.TRUSTED_PROXY_COUNT = 2
        forwarded = "6.6.6.6, 198.51.100.1, 10.0.0.2"  # spoofed, the client, the load balancer
        assert client_ip(self.request(PROXY, forwarded)) == "198.51.100.1"

    def test_too_few_entries_or_garbage_fall_back_to_the_peer(self, settings):
        settings.TRUSTED_PROXY_COUNT = 2
        assert client_ip(self.request(PROXY, "198.51.100.1")) == PROXY
        assert client_ip(self.request(PROXY, "not-an-address, 10.0.0.2")) == PROXY
