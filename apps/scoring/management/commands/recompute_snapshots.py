"""`python manage.py recompute_snapshots [--batch-size 200] [--team ID] [--dry-run]`

After an engine upgrade: a new snapshot for every review whose latest snapshot was computed by
another engine version. Approved reviews keep the snapshot they were signed on. Idempotent: a
second run finds nothing left to do.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from apps.accounts.models import Team
from apps.scoring import engine, services


class Command(BaseCommand):
    help = "Recompute outdated snapshots after an engine version change, in batches."

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=200,
                            help="reviews per batch (default 200)")
        parser.add_argument("--team", type=int, default=None, help="only this team id")
        parser.add_argument("--dry-run", action="store_true",
                            help="count the outdated snapshots, compute nothing")

    def handle(self, *args, **options):
        batch_size = options["batch_size"]
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        team_id = options["team"]
        if team_id is not None and not Team.objects.filter(pk=team_id).exists():
            raise CommandError(f"no team with id {team_id}")
        dry_run = options["dry_run"]
        self.stdout.write(
            f"engine {engine.ENGINE_VERSION}: looking for snapshots of other versions"
            + (" (dry run)" if dry_run else "")
        )

        def progress(totals: dict) -> None:
            self.stdout.write(
                "  up to review {last_review}: {reviews} reviews checked, {outdated} outdated, "
                "{computed} recomputed, {approved_kept} approved kept, {failed} failed".format(
                    **totals
                )
            )

        totals = services.snapshot_recompute_outdated(
            team_id=team_id, batch_size=batch_size, dry_run=dry_run, progress=progress
        )
        verb = "would recompute" if dry_run else "recomputed"
        count = totals["outdated"] - totals["approved_kept"] if dry_run else totals["computed"]
        self.stdout.write(
            self.style.SUCCESS(
                f"done: {totals['reviews']} reviews checked, {verb} {count}, "
                f"{totals['approved_kept']} approved kept as signed, {totals['failed']} failed"
            )
        )
