"""Sign-in lockout (apps/accounts/lockout.py, issue 17 hole 9).

Before: failures were counted per username + address, so behind a proxy (every client has the
proxy's address) anyone could lock out any user, and one password tried across many usernames
from one address was never throttled. Each test below fails on that configuration.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def _limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


def sign_in(client, username: str, password: str, address: str = "10.0.0.1", **headers):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def locked(response) -> bool:
    return response.status_code == 429


class PerAddressTests:
    def test_one_password_across_many_usernames_from_one_address_is_throttled(self, client):
        for i in range(LIMIT - 1):
            assert not locked(sign_in(client, f"user{i}", "Summer2026!"))
        assert locked(sign_in(client, "user-last", "Summer2026!"))
        # And the address stays locked for a username it never tried.
        make_user("carol")
        assert locked(sign_in(client, "carol", PASSWORD))


class PerUsernameTests:
    def test_guesses_for_one_user_from_many_addresses_lock_that_user(self, client):
        make_user("alice")
        for i in range(LIMIT - 1):
            assert not locked(sign_in(client, "alice", "wrong", address=f"203.0.113.{i}"))
        assert locked(sign_in(client, "alice", "wrong", address="203.0.113.99"))
        # A fresh address with the right password is refused while the username is locked.
        assert locked(sign_in(client, "alice", PASSWORD, address="198.51.100.7"))

    def test_strangers_cannot_lock_the_owner_out_of_an_address_she_used_before(self, client):
        make_user("alice")
        assert sign_in(client, "alice", PASSWORD, address="192.0.2.10").status_code == 302
        client.logout()
        for i in range(LIMIT + 2):
            sign_in(client, "alice", "wrong", address=f"203.0.113.{i}")
        assert locked(sign_in(client, "alice", PASSWORD, address="203.0.113.50"))
        # From her usual address she still gets in.
        response = sign_in(client, "alice", PASSWORD, address="192.0.2.10")
        assert response.status_code == 302 and "/accounts/login" not in response["Location"]

    def test_her_usual_address_still_limits_guesses_made_from_it(self, client):
        make_user("alice")
        assert sign_in(client, "alice", PASSWORD, address="192.0.2.10").status_code == 302
        client.logout()
        for _ in range(LIMIT - 1):
            assert not locked(sign_in(client, "alice", "wrong", address="192.0.2.10"))
        assert locked(sign_in(client, "alice", "wrong", address="192.0.2.10"))


class ClientAddressTests:
    def test_a_forwarded_header_is_ignored_unless_the_deployment_trusts_it(self, client):
        make_user("alice")
        # Without a configured header, X-Forwarded-For is the client's own words: every guess
        # below comes from one REMOTE_ADDR, so the address lock applies whatever it claims.
        for i in range(LIMIT - 1):
            sign_in(client, f"u{i}", "x", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
        assert locked(sign_in(client, "u-last", "x", HTTP_X_FORWARDED_FOR="198.51.100.200"))

    def test_behind_a_trusted_proxy_each_client_counts_on_its_own(self, client, settings):
        settings.TRUSTED_PROXY_COUNT = 1
        proxy = "10.9.9.9"
        # Four failures from one client behind the proxy do not lock another client out.
        for i in range(LIMIT - 1):
            sign_in(client, f"u{i}", "x", address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.1")
        make_user("bob")
        ok = sign_in(client, "bob", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.2")
        assert ok.status_code == 302
        client.logout()
        # A client cannot pick its own address: what it wrote before the proxy's entry is ignored.
        spoofed = "203.0.113.1, 198.51.100.1"
        assert locked(sign_in(client, "u-last", "x", address=proxy, HTTP_X_FORWARDED_FOR=spoofed))


class SpellingTests:
    """Issue 34: with `dave` locked, `DAVE` and `dave@example.com` each got five more guesses."""

    def test_every_spelling_of_the_account_counts_against_it(self, client):
        make_user("dave", email="dave@example.com")
        guesses = ["dave", "DAVE", " Dave ", "dave@example.com"]
        for i in range(LIMIT - 1):
            typed = guesses[i % len(guesses)]
            assert not locked(sign_in(client, typed, "wrong", address=f"203.0.113.{i}"))
        assert locked(sign_in(client, "DAVE@EXAMPLE.COM", "wrong", address="203.0.113.99"))

    def test_with_dave_locked_other_spellings_are_locked_too(self, client):
        make_user("dave", email="dave@example.com")
        for i in range(LIMIT):
            sign_in(client, "dave", "wrong", address=f"203.0.113.{i}")
        assert locked(sign_in(client, "DAVE", PASSWORD, address="198.51.100.1"))
        assert locked(sign_in(client, "dave@example.com", PASSWORD, address="198.51.100.2"))

    def test_another_account_is_not_touched(self, client):
        make_user("dave", email="dave@example.com")
        make_user("davey", email="davey@example.com")
        for i in range(LIMIT):
            sign_in(client, "DAVE", "wrong", address=f"203.0.113.{i}")
        response = sign_in(client, "davey@example.com", PASSWORD, address="198.51.100.3")
        assert response.status_code == 302 and "/accounts/login" not in response["Location"]
