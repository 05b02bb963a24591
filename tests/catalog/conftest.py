"""Fixtures shared by the catalog tests."""

from __future__ import annotations

import pytest

from tests.factories import make_link, make_offer, make_site


@pytest.fixture
def world(team):
    """Two sites, a link between them, an offer on the first."""
    a = make_site(team, "bj-a", city="Beijing", datacenter="dc-1")
    b = make_site(team, "sh-a", city="Shanghai", datacenter="dc-2", hub="east")
    link = make_link(team, a, b, bandwidth_gbps=10, price_per_gb=0.02)
    offer = make_offer(team, a, name="8x H100", billing_basis="machine_hour", price=24)
    return {"a": a, "b": b, "link": link, "offer": offer}
