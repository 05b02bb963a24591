"""Addresses (issue 34): an address that is unverified on one account never blocks the invitation
or sign-up of its owner, and a confirmation mail verifies only the account that asked for it.

Before: any signed-in user could add an invitee's address, unverified, to their own account; the
invitee's sign-up then created nothing, and the confirmation mail sent to the invitee verified the
address on the other account.
"""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.contrib.auth import get_user_model
from django.urls import reverse

from apps.accounts.invitations import invitation_create
from apps.accounts.models import Membership
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db
INVITEE = "invitee@example.com"


def squat(username: str = "mallory"):
    """Another account claims the invitee's address without verifying it."""
    mallory = make_user(username, email=f"{username}@example.com")
    return EmailAddress.objects.create(user=mallory, email=INVITEE, verified=False, primary=False)


def sign_up(client, team, owner):
    _invitation, token = invitation_create(
        team=team, email=INVITEE, role="member", invited_by=owner, base_url="http://testserver"
    )
    client.get(reverse("accounts:invitation_accept", args=[token]))
    return client.post(
        reverse("account_signup"),
        {"username": "ivy", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"},
    )


class SquattedAddressTests:
    def test_a_squatted_address_does_not_block_the_invitee(self, client, team, owner):
        claim = squat()
        response = sign_up(client, team, owner)
        assert response.status_code == 302
        ivy = get_user_model().objects.get(username="ivy")
        assert Membership.objects.filter(user=ivy, team=team).exists()
        assert EmailAddress.objects.get(email__iexact=INVITEE).user == ivy  # verified, hers
        assert EmailAddress.objects.get(email__iexact=INVITEE).verified
        assert not EmailAddress.objects.filter(pk=claim.pk).exists()  # the claim is dropped

    def test_a_verified_owner_is_still_told_to_sign_in(self, client, team, owner):
        make_user("ivy-already", email=INVITEE)
        _invitation, token = invitation_create(
            team=team, email=INVITEE, role="member", invited_by=owner,
            base_url="http://testserver",
        )
        page = client.get(reverse("accounts:invitation_accept", args=[token]))
        assert page.status_code == 200 and "accounts/login" in page.content.decode()


class ConfirmationTests:
    def confirm(self, client, address):
        key = EmailConfirmationHMAC(address).key
        return client.post(reverse("account_confirm_email", args=[key]))

    def test_the_confirmation_mail_does_not_verify_the_squatters_claim_for_someone_else(
        self, client
    ):
        claim = squat()
        # The invitee, not signed in, opens the mail's link: a refusal, never an error.
        assert self.confirm(client, claim).status_code < 500
        claim.refresh_from_db()
        assert not claim.verified
        client.force_login(make_user("ivy", email="ivy@example.com"))
        self.confirm(client, claim)  # nor signed in as another account
        claim.refresh_from_db()
        assert not claim.verified

    def test_the_account_that_asked_confirms_its_own_address(self, client):
        claim = squat()
        client.force_login(claim.user)
        self.confirm(client, claim)
        claim.refresh_from_db()
        assert claim.verified

    def test_a_person_signing_in_confirms_their_own_address(
        self, client, team, django_capture_on_commit_callbacks
    ):
        import re

        from django.core import mail

        from tests.factories import make_membership

        make_membership(make_user("newcomer", verified=False), team)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("accounts:login"), {"username": "newcomer", "password": PASSWORD})
        [message] = mail.outbox
        path = re.search(r"http://testserver(/accounts/confirm-email/[^/\s]+/)", message.body)
        assert path, message.body
        client.post(path.group(1))
        assert EmailAddress.objects.get(user__username="newcomer").verified
