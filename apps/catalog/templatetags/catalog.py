"""Template helpers of the catalog."""

from __future__ import annotations

from django import template

import engine

from ..models import Tier
from ..pricing import GpuHourPrice, gpu_hour_price

register = template.Library()


@register.simple_tag
def effective_price(offer, currency: str) -> GpuHourPrice:
    """{% effective_price offer current_team.currency as p %}{{ p.value }} {{ p.derivation }}"""
    return gpu_hour_price(offer, currency)


@register.simple_tag
def link_tier(link, thresholds: dict | None = None) -> dict:
    """The tier a link spans (SPEC 2) and the jitter buffer used when it has none of its own."""
    tier = engine.tier_between(_site(link.from_site), _site(link.to_site))
    limits = {**engine.DEFAULT_THRESHOLDS, **(thresholds or {})}
    buffer = link.buffer if link.buffer is not None else limits.get(f"buffer_{tier}", 0.0)
    return {
        "code": tier,
        "label": Tier(tier).label,
        "buffer": buffer,
        "buffer_is_default": link.buffer is None,
    }


def _site(site) -> dict:
    return {"code": site.code, "datacenter": site.datacenter, "city": site.city}
