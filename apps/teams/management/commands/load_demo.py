"""Load the demo data: idempotent, and refused under production settings (see apps.teams.demo)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.demo import DemoContext
from apps.teams.demo import load_demo


class Command(BaseCommand):
    help = "Create the demo teams and users (alice, bob, carol, dave) and their data."

    def handle(self, *args, **options):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError(
                "load_demo never runs with production settings (DJANGO_ENV=production)."
            )
        load_demo()
        self.stdout.write(
            self.style.SUCCESS(
                "Demo data ready: alice (owner, Team Aurora), bob (reviewer, Team Aurora), "
                "carol (member, Team Borealis), dave (reviewer, Team Borealis); "
                f"password {DemoContext.PASSWORD}"
            )
        )
