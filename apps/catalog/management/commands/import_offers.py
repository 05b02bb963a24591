"""`python manage.py import_offers --team TEAM --site CODE FILE [--region R] [--dry-run] [--json]`

Reads a price catalog (SkyPilot's `vms.csv` shape, see apps/catalog/price_catalog.py) and
creates or updates the GPU offers of one site: one offer per machine type, billed per
machine-hour; with `--spot-preemptions-per-day N` also a preemptible offer at the spot price.
Prints the offers it creates, updates (old and new price) and leaves unchanged; `--dry-run`
writes nothing; `--json` prints that as one JSON object. Bad input exits with code 2 and names
the line and column, and nothing is written.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from django.core.management.base import BaseCommand

from apps.catalog.catalog_import import (
    CatalogImportError,
    catalog_import_plan,
    offers_import_catalog,
)
from apps.catalog.models import Site
from apps.catalog.price_catalog import read_catalog
from apps.web.concurrency import StaleVersion
from apps.web.ingest.cli import bad_input, read_text_file, team_named

_bad_input = bad_input
_team = team_named


def _read(path: str) -> str:
    return read_text_file(path, too_large="keep the region's rows (and the header) and import that")


def _provider(path: str, given: str | None) -> str:
    """--provider, or the cloud's folder of SkyPilot's layout (catalogs/v7/<cloud>/vms.csv)."""
    provider = (given or "").strip()
    if not provider and Path(path).name == "vms.csv":
        provider = Path(path).resolve().parent.name
    if not provider or len(provider) > 120:
        raise _bad_input("--provider: name the provider (1 to 120 characters)")
    return provider


class Command(BaseCommand):
    help = "Create or update a site's GPU offers from a provider's price catalog (SkyPilot CSV)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the catalog CSV (SkyPilot's vms.csv shape)")
        parser.add_argument("--team", required=True, help="the team's name or id")
        parser.add_argument("--site", required=True, help="the code of the team's site")
        parser.add_argument("--region", help="the catalog's region (needed when it lists several)")
        parser.add_argument("--provider", help="the provider (default: the folder of a vms.csv)")
        parser.add_argument(
            "--spot-preemptions-per-day",
            type=float,
            help="also import spot prices as preemptible offers, with this rate per machine",
        )
        parser.add_argument("--dry-run", action="store_true", help="show the changes, write none")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        team = _team(options["team"])
        site = Site.objects.for_team(team).filter(code=options["site"]).first()
        if site is None:
            raise _bad_input(f"--site: team {team.name!r} has no site {options['site']!r}")
        rate = options["spot_preemptions_per_day"]
        if rate is not None and not (math.isfinite(rate) and 0 <= rate <= 1000):
            raise _bad_input("--spot-preemptions-per-day: a number from 0 to 1000")
        provider = _provider(options["file"], options["provider"])
        read = read_catalog(_read(options["file"]), region=options["region"])
        if not read.ok:
            lines = [
                f"line {line}{', ' + error.field if error.field else ''}: {error.message}"
                for line, errors in sorted(read.errors.items())
                for error in errors
            ]
            raise _bad_input("the catalog is refused, nothing written:\n" + "\n".join(lines))
        try:
            plan = catalog_import_plan(
                team=team, site=site, provider=provider, read=read,
                region=options["region"] or (read.regions[0] if read.regions else None),
                spot_preemptions_per_day=rate,
            )  # fmt: skip
            if not options["dry_run"]:
                offers_import_catalog(
                    team=team, site=site, plan=plan, spot_preemptions_per_day=rate,
                    source=f"catalog {Path(options['file']).name} ({provider}, {plan.region})",
                )  # fmt: skip
        except (CatalogImportError, StaleVersion) as exc:
            raise _bad_input(f"nothing written: {exc}") from exc
        self._print(plan.as_json(), as_json=options["json"])

    def _print(self, result: dict, *, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
            return
        verb = "" if result["saved"] else " (dry run: nothing written)"
        self.stdout.write(f"{result['provider']} at {result['site']}, {result['region']}{verb}:")
        for offer in result["created"]:
            self.stdout.write(
                f"  create  {offer['name']}: {offer['gpus_per_machine']} × {offer['gpu_model']} "
                f"{offer['gpu_mem_gb']:g} GB, {offer['price']:g} per machine-hour"
            )
        for offer in result["updated"]:
            self.stdout.write(
                f"  update  {offer['name']}: {offer['price_before']:g} -> {offer['price']:g}"
            )
        self.stdout.write(
            f"  {len(result['unchanged'])} unchanged, {result['skipped_cpu_rows']} CPU-only "
            "rows skipped"
        )
        for warning in result["warnings"]:
            self.stdout.write(f"  warning: {warning}")
