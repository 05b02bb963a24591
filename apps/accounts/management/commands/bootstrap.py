"""First run without demo data: `manage.py bootstrap --team NAME --owner EMAIL`.

Creates the team and invites its first owner by email (the outbox sends it; with the console
email backend the link is printed here too, so a fresh install needs no mail server). Idempotent:
run again, it finds the team and the pending invitation and sends nothing (`--resend` replaces
the link); once the owner has joined, it says so. Bad input exits with code 2.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.text import slugify

from apps.accounts.invitations import invitation_create, invitation_revoke
from apps.accounts.models import Invitation, Membership, Role, Team


def _bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(BaseCommand):
    help = "Create the first team and invite its owner by email (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--team", required=True, help="the team's name")
        parser.add_argument("--owner", required=True, help="the first owner's email address")
        parser.add_argument(
            "--base-url",
            default="",
            help="where the site is reached, for the link (default: SITE_URL or localhost:8000)",
        )
        parser.add_argument(
            "--resend", action="store_true", help="replace a pending invitation with a new link"
        )

    def handle(self, *args, team: str, owner: str, base_url: str, resend: bool, **options):
        name, email = (team or "").strip(), (owner or "").strip().lower()
        if not name or len(name) > 120:
            raise _bad_input("--team must be a name of 1 to 120 characters")
        try:
            validate_email(email)
        except ValidationError as exc:
            raise _bad_input(f"--owner must be an email address, got {owner!r}") from exc
        base_url = (
            base_url or getattr(settings, "SITE_URL", "") or os.environ.get("SITE_URL", "")
        ) or "http://localhost:8000"
        with transaction.atomic():
            the_team = self._team(name)
            if Membership.objects.filter(
                team=the_team, role=Role.OWNER, user__email__iexact=email
            ).exists():
                self.stdout.write(f"{the_team.name}: {email} is an owner already; nothing to do.")
                return
            pending = self._pending(the_team, email)
            if pending is not None and not resend:
                self.stdout.write(
                    f"{the_team.name}: an invitation to {email} is pending until "
                    f"{pending.expires_at:%Y-%m-%d %H:%M %Z}; nothing sent "
                    "(--resend sends a new link)."
                )
                return
            if pending is not None:
                invitation_revoke(invitation=pending)
            _invitation, token = invitation_create(
                team=the_team, email=email, role=Role.OWNER, invited_by=None, base_url=base_url
            )
        self.stdout.write(self.style.SUCCESS(f"{the_team.name}: invitation sent to {email}."))
        if settings.EMAIL_BACKEND.endswith("console.EmailBackend"):
            link = base_url.rstrip("/") + f"/accounts/invitations/accept/{token}/"
            self.stdout.write(f"Email goes to the console here; the link: {link}")

    def _team(self, name: str) -> Team:
        existing = Team.objects.filter(name__iexact=name).first()
        if existing is not None:
            return existing
        base = slugify(name)[:50] or "team"
        slug, n = base, 1
        while Team.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        self.stdout.write(f"Team {name!r} created.")
        return Team.objects.create(name=name, slug=slug)

    def _pending(self, team: Team, email: str) -> Invitation | None:
        pending = Invitation.objects.filter(
            team=team, email__iexact=email, accepted_at=None, revoked_at=None
        ).first()
        return pending if pending is not None and not pending.is_expired() else None
