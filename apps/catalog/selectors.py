"""Reads of the catalog: team-scoped querysets whose query count does not grow with rows."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from apps.accounts.models import Team

from .models import NetworkLink, Offer, OfferKind, Site
from .pricing import gpu_hour_price


def site_list(*, team: Team) -> QuerySet[Site]:
    return Site.objects.for_team(team).order_by("code")


def link_list(*, team: Team) -> QuerySet[NetworkLink]:
    return (
        NetworkLink.objects.for_team(team)
        .select_related("from_site", "to_site")
        .order_by("from_site__code", "to_site__code", "id")
    )


def offer_list(*, team: Team) -> QuerySet[Offer]:
    return Offer.objects.for_team(team).select_related("site").order_by("provider", "name", "id")


def team_sites(*, team: Team) -> list[Site]:
    return list(site_list(team=team))


def catalog_overview(*, team: Team, cheapest: int = 8) -> dict:
    """Counts for the overview, and the offers ranked by effective GPU-hour price (SPEC P)."""
    sites = Site.objects.for_team(team)
    offers = list(offer_list(team=team))
    priced = []
    for offer in offers:
        price = gpu_hour_price(offer, team.currency)
        priced.append((price.value if price.value is not None else float("inf"), offer, price))
    priced.sort(key=lambda item: (item[0], item[1].provider, item[1].name, item[1].pk))
    kinds = dict.fromkeys(OfferKind.values, 0)
    for offer in offers:
        kinds[offer.kind] = kinds.get(offer.kind, 0) + 1
    links = NetworkLink.objects.for_team(team).aggregate(
        total=Count("id"), reservable=Count("id", filter=Q(reservable=True))
    )
    return {
        "site_count": sites.count(),
        "city_count": sites.values("city").distinct().count(),
        "hub_count": sites.values("hub").distinct().count(),
        "link_count": links["total"],
        "reservable_count": links["reservable"],
        "offer_count": len(offers),
        "offer_kinds": [(OfferKind(kind).label, count) for kind, count in kinds.items()],
        "cheapest": [(offer, price) for _, offer, price in priced[:cheapest]],
    }


def offer_reviews(*, offer: Offer) -> QuerySet:
    """The reviews that hold the offer as a candidate (what blocks its deletion).

    Reached through the reverse relation that reviews declare on the offer (`candidates`), so
    the catalog, below reviews, does not import them (docs/architecture.md).
    """
    review_model = Offer.candidates.rel.related_model.review.field.related_model
    return review_model.objects.filter(candidates__offer=offer).order_by("-updated_at").distinct()
