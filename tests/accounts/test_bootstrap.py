"""`manage.py bootstrap --team NAME --owner EMAIL` (issue 20): the first team and its owner's
invitation on an empty install, idempotent, exit code 2 on bad input."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.accounts.models import Invitation, Membership, OutgoingEmail, Team
from tests.test_settings import run_manage

pytestmark = pytest.mark.django_db


def bootstrap(*args: str) -> str:
    out = StringIO()
    call_command("bootstrap", *args, stdout=out)
    return out.getvalue()


class BootstrapTests:
    def test_it_creates_the_team_and_invites_the_owner_once(
        self, settings, client, django_capture_on_commit_callbacks
    ):
        settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
        with django_capture_on_commit_callbacks(execute=True):
            first = bootstrap("--team", "Platform", "--owner", "Lead@Corp.example")
        link = re.search(r"the link: http://\S+?(/accounts/invitations/accept/\S+/)", first)
        assert link, first
        second = bootstrap("--team", "platform", "--owner", "lead@corp.example")
        assert "pending" in second and "nothing sent" in second
        assert Team.objects.count() == 1
        invitation = Invitation.objects.get()
        assert (invitation.email, invitation.role) == ("lead@corp.example", "owner")
        assert OutgoingEmail.objects.count() == 1
        text = OutgoingEmail.objects.get().text
        assert text.startswith("You are invited to join Platform as owner.")  # nobody invited
        # The printed link works: it leads to the sign-up form for that address.
        response = client.get(link.group(1))
        assert response.status_code == 302 and response["Location"] == reverse("account_signup")

    def test_the_link_is_not_printed_when_email_really_goes_out(self, settings):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        out = bootstrap("--team", "Platform", "--owner", "lead@corp.example")
        assert "invitation sent" in out and "/accounts/invitations/accept/" not in out

    def test_resend_replaces_the_link(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            bootstrap("--team", "Platform", "--owner", "lead@corp.example")
            bootstrap("--team", "Platform", "--owner", "lead@corp.example", "--resend")
        open_ones = Invitation.objects.filter(accepted_at=None, revoked_at=None)
        assert open_ones.count() == 1 and Invitation.objects.count() == 2
        assert len(mail.outbox) == 2

    def test_once_the_owner_joined_it_does_nothing(self, team, owner):
        out = bootstrap("--team", team.name, "--owner", owner.email)
        assert "owner already" in out
        assert not Invitation.objects.exists()
        assert Membership.objects.filter(team=team).count() == 1

    @pytest.mark.parametrize(
        "args",
        [
            ("--team", "Platform", "--owner", "not-an-email"),
            ("--team", "  ", "--owner", "lead@corp.example"),
            ("--team", "x" * 121, "--owner", "lead@corp.example"),
        ],
    )
    def test_bad_input_is_exit_code_2_and_writes_nothing(self, args):
        with pytest.raises(CommandError) as exc:
            bootstrap(*args)
        assert exc.value.returncode == 2
        assert not Team.objects.exists() and not Invitation.objects.exists()


class BootstrapProcessTests:
    def test_the_process_exits_with_code_2_and_a_clear_message(self):
        out = run_manage("bootstrap", "--team", "Platform", "--owner", "nope")
        assert out.returncode == 2
        assert "--owner must be an email address" in out.stderr
