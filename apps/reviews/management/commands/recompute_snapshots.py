"""`python manage.py recompute_snapshots [--batch-size 200] [--team ID] [--dry-run]`

After an engine upgrade: every open review (draft, submitted, changes requested) whose latest
snapshot was computed by another engine version, or that was never evaluated, gets a snapshot by
the current engine. Approved reviews keep the snapshot they were signed on, rejected ones the
figures they were rejected on. Idempotent: a second run finds nothing left to do.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

import engine
from apps.accounts.models import Team
from apps.reviews.snapshots.recompute import snapshot_recompute_outdated


class Command(BaseCommand):
    help = "Recompute the snapshots of open reviews after an engine version change, in batches."

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=200,
                            help="reviews per batch (default 200)")
        parser.add_argument("--team", type=int, default=None, help="only this team id")
        parser.add_argument("--dry-run", action="store_true",
                            help="count the open reviews to recompute, compute nothing")

    def handle(self, *args, **options):
        batch_size = options["batch_size"]
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        team_id = options["team"]
        if team_id is not None and not Team.objects.filter(pk=team_id).exists():
            raise CommandError(f"no team with id {team_id}")
        dry_run = options["dry_run"]
        self.stdout.write(
            f"engine {engine.ENGINE_VERSION}: looking for open reviews without a snapshot of "
            "this version" + (" (dry run)" if dry_run else "")
        )

        def progress(totals: dict) -> None:
            self.stdout.write(
                "  up to review {last_review}: {reviews} reviews checked, {outdated} outdated, "
                "{never_evaluated} never evaluated, {computed} recomputed, {approved_kept} "
                "approved kept, {failed} failed".format(**totals)
            )

        totals = snapshot_recompute_outdated(
            team_id=team_id, batch_size=batch_size, dry_run=dry_run, progress=progress
        )
        for review_id, error in totals["failed_reviews"]:
            self.stderr.write(f"  review {review_id} cannot be evaluated: {error}")
        verb = "would recompute" if dry_run else "recomputed"
        count = totals["outdated"] + totals["never_evaluated"] if dry_run else totals["computed"]
        self.stdout.write(
            self.style.SUCCESS(
                f"done: {totals['reviews']} reviews checked, {verb} {count}, "
                f"{totals['approved_kept']} approved kept as signed, "
                f"{totals['rejected_kept']} rejected kept as decided, {totals['failed']} failed"
            )
        )
