"""`python manage.py import_bill --team TEAM FILE [--dry-run] [--json]`

Imports a provider bill (FOCUS 1.0–1.3, AWS CUR 2.0, AWS legacy CUR or the generic CSV; see
apps/actuals/bill_formats.py) into the team's actual costs, as the bill page does, for a pipeline
that drops each day's export in. Prints the format detected, lines read, lines matched per
review, lines left unassigned, totals per currency and row errors; `--json` prints exactly that
object. A refused bill (any row error) writes nothing and exits with code 2; so does bad input.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from apps.actuals.bills import bill_import, summary
from apps.web.ingest.cli import bad_input, read_text_file, team_named


class Command(BaseCommand):
    help = "Import a provider bill (FOCUS, AWS CUR 2.0 or legacy CUR) into a team's actual costs."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the bill, a CSV file")
        parser.add_argument("--team", required=True, help="the team's name or id")
        parser.add_argument("--dry-run", action="store_true", help="read and check, write none")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        team = team_named(options["team"])
        content = read_text_file(options["file"])
        result = bill_import(team=team, content=content, dry_run=options["dry_run"])
        answer = summary(result, dry_run=options["dry_run"])
        if options["json"]:
            self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
        else:
            self._print(answer)
        if answer["errors"]:
            raise bad_input("the bill is refused, nothing written")

    def _print(self, answer: dict) -> None:
        verb = "saved" if answer["saved"] else "nothing written"
        self.stdout.write(
            f"{answer['format'] or 'unknown format'}: {answer['lines_read']} lines read "
            f"({answer['cost']} cost, tag key {answer['tag_key']!r}); {verb}"
        )
        for entry in answer["matched"]:
            self.stdout.write(
                f"  review #{entry['review']}: {entry['lines']} lines, compute "
                f"{entry['compute_cost']:g}, transfer {entry['transfer_cost']:g}"
            )
        self.stdout.write(f"  {answer['unassigned']} lines unassigned, "
                          f"{answer['shown_apart']} shown apart (tax, credits)")
        for code, total in answer["totals"].items():
            self.stdout.write(f"  total {code}: {total:g}")
        for warning in answer["warnings"]:
            self.stdout.write(f"  warning: {warning}")
        for error in answer["errors"]:
            column = f", column {error['column']}" if error["column"] else ""
            self.stderr.write(f"  line {error['line']}{column}: {error['message']}")
        if answer["more_errors"]:
            self.stderr.write(f"  … and {answer['more_errors']} more lines with errors")
