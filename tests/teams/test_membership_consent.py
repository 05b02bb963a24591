"""Membership by consent (issue 34): an owner adds people only by invitation, nothing changes until
the person accepts, the owner's answer is the same whether or not the name has an account, and a
new membership never changes anyone's current team.

Before: "Add a member" made the membership at once, said "No user with this username" for an
unknown name, and the current-team fallback was the first team by name, so a new membership of
team "Alpha" moved someone working in "Zeta".
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from apps.accounts.invitations import invitation_accept
from apps.accounts.models import Invitation, Membership
from tests.factories import make_membership, make_team, make_user

pytestmark = pytest.mark.django_db
ADD = reverse("teams:member_add")


def add(client, who: str, role: str = "member"):
    return client.post(ADD, {"username_or_email": who, "role": role}, follow=True)


def message_of(response, who: str) -> str:
    """The page's messages with the name typed taken out."""
    text = " ".join(str(m) for m in response.context["messages"])
    return text.replace(who, "<who>")


class InvitationOnlyTests:
    def test_an_added_person_is_not_a_member_until_they_accept(
        self, client, team, owner, django_capture_on_commit_callbacks
    ):
        erin = make_user("erin", email="erin@example.com")
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            assert add(client, "erin").status_code == 200
        assert not Membership.objects.filter(team=team, user=erin).exists()
        [message] = mail.outbox
        assert message.to == ["erin@example.com"] and team.name in message.subject
        invitation = Invitation.objects.get(team=team)
        invitation_accept(invitation_id=invitation.pk, user=erin)
        assert Membership.objects.get(team=team, user=erin).role == "member"

    def test_the_same_answer_whether_or_not_a_username_has_an_account(
        self, client, team, owner, django_capture_on_commit_callbacks
    ):
        make_user("erin", email="erin@example.com")
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            known, unknown = add(client, "erin"), add(client, "ghost")
        assert (known.status_code, known.redirect_chain) == (
            unknown.status_code, unknown.redirect_chain
        )
        assert message_of(known, "erin") == message_of(unknown, "ghost")
        # The pending list shows both the same way, and the address of erin to nobody.
        page = client.get(reverse("accounts:invitations")).content.decode()
        assert "erin@example.com" not in page
        rows = re.findall(r'<tr id="invitation-\d+">\s*<td>([^<]*)</td>', page)
        assert sorted(rows) == ["erin", "ghost"]
        # Only the real account gets mail; the row for "ghost" can never be accepted.
        assert [m.to for m in mail.outbox] == [["erin@example.com"]]
        assert add(client, "ghost").status_code == add(client, "erin").status_code == 200

    def test_the_same_answer_whether_or_not_an_address_has_an_account(
        self, client, team, owner, django_capture_on_commit_callbacks
    ):
        make_user("erin", email="erin@example.com")
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            known = add(client, "erin@example.com")
            unknown = add(client, "nobody@example.com")
        assert message_of(known, "erin@example.com") == message_of(unknown, "nobody@example.com")
        assert sorted(m.to[0] for m in mail.outbox) == ["erin@example.com", "nobody@example.com"]
        assert Membership.objects.filter(team=team).count() == 1


class CurrentTeamTests:
    def test_a_new_membership_never_changes_the_current_team(self, client):
        zeta, alpha = make_team("Zeta", "zeta"), make_team("Alpha", "alpha")
        erin = make_membership(make_user("erin"), zeta).user
        client.force_login(erin)
        assert client.get(reverse("home")).wsgi_request.team == zeta
        make_membership(erin, alpha)  # an invitation accepted elsewhere
        assert client.get(reverse("home")).wsgi_request.team == zeta

    def test_without_a_choice_the_team_joined_first_is_current(self, client):
        zeta, alpha = make_team("Zeta", "zeta"), make_team("Alpha", "alpha")
        erin = make_membership(make_user("erin"), zeta).user
        make_membership(erin, alpha)
        client.force_login(erin)
        assert client.get(reverse("home")).wsgi_request.team == zeta

    def test_a_chosen_team_stays_current(self, client):
        zeta, alpha = make_team("Zeta", "zeta"), make_team("Alpha", "alpha")
        erin = make_membership(make_user("erin"), zeta).user
        make_membership(erin, alpha)
        client.force_login(erin)
        client.post(reverse("accounts:team_switch"), {"team": alpha.pk})
        assert client.get(reverse("home")).wsgi_request.team == alpha
