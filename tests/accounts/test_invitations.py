"""Invitations (issue 20): an owner invites, the link's lifecycle (expired, reused, revoked, wrong
email, already a member), sign-up from the link, joining with an existing account."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from apps.accounts.invitations import invitation_create
from apps.accounts.models import Invitation, Membership, OutgoingEmail
from tests.factories import PASSWORD, make_membership, make_user

pytestmark = pytest.mark.django_db
LIST = reverse("accounts:invitations")


def invite(team, email="new@example.com", role="reviewer", by=None):
    return invitation_create(
        team=team, email=email, role=role, invited_by=by, base_url="http://testserver"
    )


def accept_url(token: str) -> str:
    return reverse("accounts:invitation_accept", args=[token])


class InvitationListTests:
    def test_an_owner_invites_and_the_email_carries_a_working_link(
        self, client, team, owner, django_capture_on_commit_callbacks
    ):
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(LIST, {"email": " New@Example.com ", "role": "reviewer"})
        assert response.status_code == 302
        invitation = Invitation.objects.get()
        assert (invitation.team, invitation.email, invitation.role) == (
            team,
            "new@example.com",
            "reviewer",
        )
        assert invitation.invited_by == owner
        [message] = mail.outbox
        assert message.to == ["new@example.com"] and team.name in message.subject
        link = re.search(r"http://testserver(/accounts/invitations/accept/[^/\s]+/)", message.body)
        assert link, message.body
        page = client.get(LIST)
        assert "new@example.com" in page.content.decode()

    def test_the_plain_text_email_is_not_html_escaped(
        self, client, team, owner, django_capture_on_commit_callbacks
    ):
        type(team).objects.filter(pk=team.pk).update(name="R&D <GPU> team")
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(LIST, {"email": "rd@example.com", "role": "member"})
        [message] = mail.outbox
        assert "R&D <GPU> team" in message.subject and "R&D <GPU> team" in message.body
        assert "&amp;" not in message.subject + message.body
        html = message.alternatives[0][0]
        assert "R&amp;D &lt;GPU&gt; team" in html

    @pytest.mark.parametrize(
        ("data", "field"),
        [
            ({"email": "not-an-address", "role": "member"}, "email"),
            ({"email": "x@example.com", "role": "admin"}, "role"),
        ],
    )
    def test_bad_input_is_a_422_on_the_field(self, client, owner, data, field):
        client.force_login(owner)
        response = client.post(LIST, data)
        assert response.status_code == 422
        assert response.context["form"].errors[field]
        assert Invitation.objects.count() == 0

    def test_a_member_or_a_second_pending_invitation_is_refused(self, client, team, owner, member):
        client.force_login(owner)
        response = client.post(LIST, {"email": member.email.upper(), "role": "member"})
        assert response.status_code == 422
        assert "member of the team already" in str(response.context["form"].errors["email"])
        invite(team, "twice@example.com")
        response = client.post(LIST, {"email": "twice@example.com", "role": "member"})
        assert response.status_code == 422
        assert "pending invitation" in str(response.context["form"].errors["email"])
        assert Invitation.objects.count() == 1

    def test_an_expired_invitation_gives_way_to_a_new_one(self, team):
        old, _token = invite(team, "again@example.com")
        Invitation.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(days=1))
        new, _token = invite(team, "again@example.com")
        old.refresh_from_db()
        assert old.revoked_at is not None and new.is_open

    def test_only_owners_see_the_page(self, client, member, reviewer):
        for user in (member, reviewer):
            client.force_login(user)
            assert client.get(LIST).status_code == 403
            assert client.post(LIST, {"email": "a@example.com", "role": "owner"}).status_code == 403
        client.logout()
        assert client.get(LIST)["Location"].startswith(reverse("accounts:login"))
        assert Invitation.objects.count() == 0

    def test_an_owner_revokes_and_the_link_stops_working(self, client, team, owner):
        invitation, token = invite(team)
        client.force_login(owner)
        response = client.post(reverse("accounts:invitation_revoke", args=[invitation.pk]))
        assert response.status_code == 302
        invitation.refresh_from_db()
        assert invitation.revoked_at is not None
        client.logout()
        page = client.get(accept_url(token))
        assert page.status_code == 410 and b'data-problem="revoked"' in page.content

    def test_an_owner_cannot_revoke_another_teams_invitation(self, client, owner, other_team):
        theirs, _token = invite(other_team)
        client.force_login(owner)
        response = client.post(reverse("accounts:invitation_revoke", args=[theirs.pk]))
        assert response.status_code == 404
        theirs.refresh_from_db()
        assert theirs.revoked_at is None


class SignUpFromInvitationTests:
    def test_a_new_person_signs_up_with_the_invited_address_and_joins(self, client, team):
        invitation, token = invite(team, "new@example.com", "reviewer")
        response = client.get(accept_url(token))
        assert response.status_code == 302 and response["Location"] == reverse("account_signup")
        page = client.get(reverse("account_signup"))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'value="new@example.com"' in html and "disabled" in html
        response = client.post(
            reverse("account_signup"),
            {
                # A changed address is ignored: the field is the invitation's.
                "email": "someone-else@example.com",
                "username": "newbie",
                "password1": "a-long-pass-phrase-9",
                "password2": "a-long-pass-phrase-9",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        user = get_user_model().objects.get(username="newbie")
        assert user.email == "new@example.com"
        assert Membership.objects.get(user=user).team == team
        assert Membership.objects.get(user=user).role == "reviewer"
        assert EmailAddress.objects.get(user=user).verified is True
        invitation.refresh_from_db()
        assert invitation.accepted_by == user and invitation.accepted_at is not None
        assert int(client.session["_auth_user_id"]) == user.pk  # signed in, no email round trip
        # No verification email: the link verified the address (the invitation is the only one).
        assert list(OutgoingEmail.objects.values_list("key", flat=True)) == [
            f"invitation-{invitation.pk}"
        ]

    def test_sign_up_is_closed_without_an_invitation(self, client):
        page = client.get(reverse("account_signup"))
        assert page.status_code == 200 and b'id="signup-closed"' in page.content
        client.post(
            reverse("account_signup"),
            {
                "email": "x@example.com",
                "username": "x",
                "password1": "pw-9-long-x",
                "password2": "pw-9-long-x",
            },
        )
        assert not get_user_model().objects.filter(username="x").exists()

    def test_a_used_link_cannot_sign_up_a_second_account(self, client, team):
        _invitation, token = invite(team)
        client.get(accept_url(token))
        client.post(
            reverse("account_signup"),
            {
                "username": "first",
                "password1": "a-long-pass-phrase-9",
                "password2": "a-long-pass-phrase-9",
            },
        )
        client.logout()
        page = client.get(accept_url(token))
        assert page.status_code == 410 and b'data-problem="used"' in page.content
        assert b'id="signup-closed"' in client.get(reverse("account_signup")).content


class AcceptLinkTests:
    def test_an_expired_link_says_so(self, client, team):
        invitation, token = invite(team)
        Invitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(minutes=1)
        )
        page = client.get(accept_url(token))
        assert page.status_code == 410 and b'data-problem="expired"' in page.content
        assert "invitation_token" not in client.session

    def test_an_unknown_token_is_a_404(self, client):
        page = client.get(accept_url("not-a-real-token"))
        assert page.status_code == 404 and b'data-problem="not_found"' in page.content

    def test_a_signed_in_user_with_another_address_is_refused(self, client, team):
        _invitation, token = invite(team, "invited@example.com")
        intruder = make_user("intruder", email="intruder@example.com")
        client.force_login(intruder)
        for method in (client.get, client.post):
            page = method(accept_url(token))
            assert page.status_code == 403 and b'data-problem="wrong_email"' in page.content
        assert not Membership.objects.filter(user=intruder).exists()

    def test_an_existing_account_signs_in_then_joins(self, client, team):
        invitation, token = invite(team, "known@example.com", "member")
        known = make_user("known", email="known@example.com")
        page = client.get(accept_url(token))
        assert page.status_code == 200 and b'id="invitation-sign-in"' in page.content
        response = client.post(
            reverse("accounts:login") + f"?next={accept_url(token)}",
            {"username": "known@example.com", "password": PASSWORD, "next": accept_url(token)},
        )
        assert response.status_code == 302 and response["Location"] == accept_url(token)
        assert b'id="invitation-accept"' in client.get(accept_url(token)).content
        response = client.post(accept_url(token))
        assert response.status_code == 302
        assert Membership.objects.get(user=known, team=team).role == "member"
        invitation.refresh_from_db()
        assert invitation.accepted_by == known
        assert client.session["current_team_id"] == team.pk

    def test_a_member_already_is_told_so_and_gets_no_second_membership(self, client, team, member):
        _invitation, token = invite(team, "fresh@example.com")
        Membership.objects.filter(user=member).update(role="member")
        member.email = "fresh@example.com"
        member.save()
        client.force_login(member)
        for method in (client.get, client.post):
            page = method(accept_url(token))
            assert page.status_code == 200 and b'id="invitation-already-member"' in page.content
        assert Membership.objects.filter(user=member, team=team).count() == 1
        assert Membership.objects.get(user=member, team=team).role == "member"

    def test_an_invitation_for_team_a_never_grants_team_b(self, client, team, other_team):
        _invitation, token = invite(team, "a-only@example.com")
        person = make_user("aonly", email="a-only@example.com")
        make_membership(make_user("bowner"), other_team, "owner")
        client.force_login(person)
        client.post(accept_url(token))
        assert list(Membership.objects.filter(user=person).values_list("team", flat=True)) == [
            team.pk
        ]
        # Switching to team B is refused; B's pages do not open.
        client.post(reverse("accounts:team_switch"), {"team": other_team.pk})
        assert client.session["current_team_id"] == team.pk


class SignUpRaceTests:
    def test_an_invitation_revoked_while_the_form_is_submitted_writes_nothing(self, client, team):
        """The owner revokes between the form's check and the save: no account, a clear page."""
        from apps.accounts.forms import InvitationSignupForm

        invitation, token = invite(team, "late@example.com")
        client.get(accept_url(token))
        original = InvitationSignupForm.clean

        def clean_then_revoke(form):
            cleaned = original(form)
            Invitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())
            return cleaned

        InvitationSignupForm.clean = clean_then_revoke
        try:
            page = client.post(
                reverse("account_signup"),
                {
                    "username": "late",
                    "password1": "a-long-pass-phrase-9",
                    "password2": "a-long-pass-phrase-9",
                },
            )
        finally:
            InvitationSignupForm.clean = original
        assert page.status_code == 410 and b'data-problem="revoked"' in page.content
        assert not get_user_model().objects.filter(username="late").exists()

    def test_an_address_verified_on_another_account_is_asked_to_sign_in(self, client, team):
        holder = make_user("holder", email="first@example.com")
        EmailAddress.objects.create(user=holder, email="second@example.com", verified=True)
        _invitation, token = invite(team, "second@example.com")
        page = client.get(accept_url(token))
        assert page.status_code == 200 and b'id="invitation-sign-in"' in page.content


@pytest.mark.django_db(transaction=True)
class InvitationRaceTests:
    def test_two_owners_inviting_one_address_at_once_make_one_invitation(self, team):
        """Two owners invite the same address at the same moment (two PostgreSQL connections):
        the second meets the database's one-open-invitation constraint and gets a field error."""
        import threading

        from django.core.exceptions import ValidationError
        from django.db import connection, transaction

        from tests.services import need_postgres

        need_postgres()
        inserted, release, outcome = threading.Event(), threading.Event(), {}

        def first_owner():
            try:
                with transaction.atomic():
                    invite(team, "both@example.com")
                    inserted.set()
                    release.wait(10)  # still uncommitted while the second owner checks
            finally:
                connection.close()

        thread = threading.Thread(target=first_owner)
        thread.start()
        assert inserted.wait(10)
        timer = threading.Timer(1.0, release.set)  # commits while the second insert waits
        timer.start()
        try:
            invite(team, "Both@Example.com")
        except ValidationError as exc:
            outcome["error"] = exc.message_dict["email"]
        thread.join(10)
        timer.cancel()
        assert "pending invitation" in " ".join(outcome["error"])
        assert Invitation.objects.filter(team=team).count() == 1
