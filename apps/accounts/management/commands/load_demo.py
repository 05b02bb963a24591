"""Load the demo data: idempotent, and refused under production settings.

Each app may add its part in `apps/<app>/demo.py`, a function `load(ctx: DemoContext)`; they run
in dependency order, each inside the same transaction, and each must be idempotent.
"""

from __future__ import annotations

import importlib

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.accounts.demo import DemoContext, load_accounts

DEMO_APPS = ["catalog", "profiles", "benchmarks", "reviews", "scoring"]


class Command(BaseCommand):
    help = "Create the demo teams and users (alice, bob, carol, dave) and their data."

    def handle(self, *args, **options):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError(
                "load_demo never runs with production settings (DJANGO_ENV=production)."
            )
        with transaction.atomic():
            ctx: DemoContext = load_accounts()
            for app in DEMO_APPS:
                try:
                    module = importlib.import_module(f"apps.{app}.demo")
                except ModuleNotFoundError as exc:
                    if exc.name != f"apps.{app}.demo":
                        raise
                    continue
                module.load(ctx)
            # History for the dashboard and the calibration page, built on all of the above.
            from apps.accounts import demo_calibration

            demo_calibration.load(ctx)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo data ready: alice (owner, Team Aurora), bob (reviewer, Team Aurora), "
                "carol (member, Team Borealis), dave (reviewer, Team Borealis); "
                f"password {DemoContext.PASSWORD}"
            )
        )
