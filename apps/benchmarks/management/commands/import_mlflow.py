"""`manage.py import_mlflow --team TEAM --tracking-uri URI --experiment NAME [--dry-run] [--json]`:
a tracking server's runs as benchmark records, through the team's saved MLflow mapping
(apps/benchmarks/mlflow_import.py). A run imported before is left alone; a run missing a mapped
value is listed with the reason. Bad input, an unknown team, no saved mapping or a tracking
server that cannot be read exit with code 2.

The tracking URI given here may be on the operator's private network (a page's may not); a
cloud metadata address is refused all the same.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from apps.accounts.models import Team
from apps.benchmarks import mlflow_import
from apps.benchmarks.models import MlflowMapping


def _bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(BaseCommand):
    help = "Import an MLflow experiment's runs as benchmark records (the team's saved mapping)."

    def add_arguments(self, parser):
        parser.add_argument("--team", required=True, help="the team's slug")
        parser.add_argument("--tracking-uri", required=True, help="e.g. http://mlflow:5000")
        parser.add_argument("--experiment", required=True, help="the experiment's name")
        parser.add_argument("--dry-run", action="store_true", help="list what would be imported")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, team, tracking_uri, experiment, dry_run, **options):
        the_team = Team.objects.filter(slug=(team or "").strip()).first()
        if the_team is None:
            raise _bad_input(f"--team: no team with the slug {team!r}")
        mapping = MlflowMapping.objects.filter(team=the_team).select_related("task").first()
        if mapping is None:
            raise _bad_input(
                f"{the_team.name} has no MLflow mapping yet: save one on the benchmarks page"
            )
        if not (experiment or "").strip():
            raise _bad_input("--experiment must name an experiment")
        mapping.experiment = experiment.strip()
        try:
            runs = mlflow_import.fetch_runs(tracking_uri, mapping.experiment, allow_private=True)
        except mlflow_import.MlflowError as exc:
            raise _bad_input(f"--tracking-uri: {exc.message}") from exc
        if dry_run:
            rows = mlflow_import.preview(the_team, mapping, runs)
        else:
            rows = mlflow_import.import_runs(the_team, mapping, runs)
        self._report(rows, dry_run=dry_run, as_json=options["json"])

    def _report(self, rows, *, dry_run: bool, as_json: bool) -> None:
        totals = mlflow_import.counts(rows)
        if as_json:
            payload = {"dry_run": dry_run, "counts": totals, "runs": [r.as_dict() for r in rows]}
            self.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2))
            return
        for row in rows:
            line = f"{row.status:9} {row.run_id} {row.run_name}"
            if row.reasons:
                line += " — " + "; ".join(row.reasons)
            self.stdout.write(line)
        verb = "would import" if dry_run else "imported"
        self.stdout.write(
            f"{verb} {totals['new'] + totals['created']}, already imported {totals['imported']}, "
            f"skipped {totals['skipped']}"
        )
