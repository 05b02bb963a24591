"""Writing a price catalog's GPU machine types into a site's offers (issue 38).

An offer is the catalog's machine type at one site of one provider: found again by (site,
provider, name), so re-importing a newer catalog updates prices in place, each change kept in the
offer's price history (`OfferPriceChange`), and never duplicates an offer. A spot price becomes a
second, preemptible offer named "<type> (spot)" when the team states its expected preemptions per
machine per day (SPEC 7.3 reads them per machine). Everything else of an offer (speed relative to
the reference, checkpoint resume, exit path…) is the team's to set on the offer page; an import
touches prices only. All or nothing: one transaction, and a dry run writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from apps.accounts.models import Team

from .models import BillingBasis, Offer, OfferKind, OfferPriceChange, Parallelism, Site
from .price_catalog import CatalogOffer, CatalogRead
from .services import offer_create, offer_update

# A rented machine runs whatever split the framework does; a team narrows it on the offer.
ALL_PARALLELISM = [choice.value for choice in Parallelism]
SPOT_SUFFIX = " (spot)"


class CatalogImportError(Exception):
    """The import cannot go ahead; nothing was written."""


@dataclass
class PlannedOffer:
    name: str
    instance_type: str
    gpu_model: str
    gpus_per_machine: int
    gpu_mem_gb: float
    price: float
    preemptible: bool
    existing: Offer | None = None
    # Set by the plan, as the offer was then: "create", "update" or "unchanged".
    action: str = "create"
    price_before: float | None = None

    def found(self, offer: Offer | None) -> None:
        self.existing = offer
        if offer is not None:
            self.price_before = offer.price
            self.action = "unchanged" if offer.price == self.price else "update"

    def as_json(self) -> dict[str, Any]:
        data = {
            "name": self.name, "gpu_model": self.gpu_model,
            "gpus_per_machine": self.gpus_per_machine, "gpu_mem_gb": self.gpu_mem_gb,
            "instance_type": self.instance_type, "price": self.price,
            "billing_basis": BillingBasis.MACHINE_HOUR.value,
            "preemptible": self.preemptible,
        }  # fmt: skip
        if self.existing is not None:
            data["offer_id"] = self.existing.pk
            data["price_before"] = self.price_before
        return data


@dataclass
class CatalogImport:
    provider: str
    site: str
    region: str | None
    planned: list[PlannedOffer] = field(default_factory=list)
    skipped_cpu_rows: int = 0
    warnings: list[str] = field(default_factory=list)
    saved: bool = False

    def as_json(self) -> dict[str, Any]:
        by_action: dict[str, list] = {"create": [], "update": [], "unchanged": []}
        for offer in self.planned:
            by_action[offer.action].append(offer.as_json())
        return {
            "provider": self.provider, "site": self.site, "region": self.region,
            "saved": self.saved, "created": by_action["create"], "updated": by_action["update"],
            "unchanged": by_action["unchanged"], "skipped_cpu_rows": self.skipped_cpu_rows,
            "warnings": self.warnings,
        }  # fmt: skip


def _planned(row: CatalogOffer, spot_rate: float | None) -> list[PlannedOffer]:
    shape = dict(
        gpu_model=row.gpu_model, gpus_per_machine=row.gpus_per_machine, gpu_mem_gb=row.gpu_mem_gb
    )
    shape["instance_type"] = row.name
    planned = [PlannedOffer(name=row.name, price=row.price, preemptible=False, **shape)]
    if spot_rate is not None and row.spot_price is not None:
        planned.append(
            PlannedOffer(
                name=row.name + SPOT_SUFFIX, price=row.spot_price, preemptible=True, **shape
            )
        )
    return planned


def catalog_import_plan(
    *, team: Team, site: Site, provider: str, read: CatalogRead, region: str | None,
    spot_preemptions_per_day: float | None = None,
) -> CatalogImport:  # fmt: skip
    """What importing `read` would create, update or leave as it is; writes nothing."""
    if site.team_id != team.pk:
        raise CatalogImportError(f"site {site.code!r} is not a site of team {team.name!r}")
    plan = CatalogImport(
        provider=provider, site=site.code, region=region,
        skipped_cpu_rows=read.skipped_cpu_rows, warnings=list(read.warnings),
    )  # fmt: skip
    existing: dict[str, list[Offer]] = {}
    for offer in Offer.objects.for_team(team).filter(site=site, provider=provider):
        existing.setdefault(offer.name, []).append(offer)
    for row in read.offers:
        for planned in _planned(row, spot_preemptions_per_day):
            found = existing.get(planned.name, [])
            if len(found) > 1:
                raise CatalogImportError(
                    f"{len(found)} offers of {provider} at {site.code} are named "
                    f"{planned.name!r}: rename all but one before importing"
                )
            planned.found(found[0] if found else None)
            plan.planned.append(planned)
    return plan


@transaction.atomic
def offers_import_catalog(
    *, team: Team, site: Site, plan: CatalogImport, source: str,
    spot_preemptions_per_day: float | None = None,
) -> CatalogImport:  # fmt: skip
    """Apply `plan` (from catalog_import_plan): create the new offers, update changed prices and
    keep each change in the offer's price history. StaleVersion when an offer changed since the
    plan was made (nothing written)."""
    for planned in plan.planned:
        if planned.action == "create":
            offer_create(
                team=team, site=site, provider=plan.provider, name=planned.name,
                kind=OfferKind.COMPUTE, gpu_model=planned.gpu_model,
                gpu_mem_gb=planned.gpu_mem_gb, gpus_per_machine=planned.gpus_per_machine,
                billing_basis=BillingBasis.MACHINE_HOUR, price=planned.price,
                parallelism=list(ALL_PARALLELISM), preemptible=planned.preemptible,
                preemptions_per_day=spot_preemptions_per_day if planned.preemptible else None,
                region=plan.region or "", instance_type=planned.instance_type,
            )  # fmt: skip
        elif planned.action == "update":
            # Claims the version the plan read: an offer edited since then stops the import.
            offer = planned.existing
            offer_update(offer=offer, version=offer.version, price=planned.price)
            OfferPriceChange.objects.create(
                team=team, offer=offer, price_before=planned.price_before,
                price_after=planned.price,
                source=source[:200],
            )  # fmt: skip
    plan.saved = True
    return plan
