"""Site tiers and link lookup (SPEC 2: Site, NetworkLink)."""

from __future__ import annotations

from typing import Any

from .schema import TIER_RANK, Link, Site


def _site_parts(site: Any) -> tuple[Any, Any, Any]:
    if isinstance(site, dict):
        return site.get("code"), site.get("datacenter"), site.get("city")
    return site.code, site.datacenter, site.city


def tier_between(site_a: dict[str, Any] | Site, site_b: dict[str, Any] | Site) -> str:
    """SPEC 2: same code → same_site; same datacenter → same_datacenter; same city → same_city;
    otherwise cross_hub. A blank datacenter or city never matches."""
    code_a, dc_a, city_a = _site_parts(site_a)
    code_b, dc_b, city_b = _site_parts(site_b)
    if code_a == code_b:
        return "same_site"
    if dc_a and dc_a == dc_b:
        return "same_datacenter"
    if city_a and city_a == city_b:
        return "same_city"
    return "cross_hub"


def widest_tier(tiers: list[str]) -> str:
    return max(tiers, key=TIER_RANK.__getitem__)


class Network:
    """Precomputed tiers and directed links (`routes`: the link from a to b under (a, b)) for one
    evaluation."""

    __slots__ = ("sites", "routes", "_tiers")

    def __init__(self, sites: dict[str, Site], links: tuple[Link, ...]) -> None:
        self.sites = sites
        routes: dict[tuple[str, str], Link] = {}
        for link in links:
            routes[(link.from_site, link.to_site)] = link
        # A link is symmetric unless its reverse direction has its own record.
        for link in links:
            routes.setdefault((link.to_site, link.from_site), link)
        self.routes = routes
        self._tiers: dict[tuple[str, str], str] = {}

    def tier(self, a: str, b: str) -> str:
        """SPEC 2, as tier_between, on the evaluation's Site objects (cached per pair)."""
        key = (a, b)
        tier = self._tiers.get(key)
        if tier is None:
            if a == b:
                tier = "same_site"
            else:
                site_a, site_b = self.sites[a], self.sites[b]
                if site_a.datacenter and site_a.datacenter == site_b.datacenter:
                    tier = "same_datacenter"
                elif site_a.city and site_a.city == site_b.city:
                    tier = "same_city"
                else:
                    tier = "cross_hub"
            self._tiers[key] = tier
        return tier
