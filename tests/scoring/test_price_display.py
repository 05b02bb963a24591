"""Readable money (issue 15): every price says its billing basis, with the effective GPU-hour
price the method compares beside it (SPEC P)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.scoring.templatetags.scoring import offer_price
from tests.factories import make_offer, make_review, make_site

pytestmark = pytest.mark.django_db


def test_a_machine_hour_price_is_shown_per_gpu_hour_too():
    # 16.0 per machine-hour ÷ 8 GPUs = 2.0 per GPU-hour.
    p = offer_price({"billing_basis": "machine_hour", "price": 16.0, "gpus_per_machine": 8})
    assert p["effective"] == pytest.approx(2.0) and str(p["unit"]) == "per machine-hour"


def test_a_contract_price_is_spread_over_its_used_gpu_hours():
    # 10,000 ÷ (1,000 h × 8 GPUs × 0.5 utilization) = 2.5 per GPU-hour.
    p = offer_price({"billing_basis": "contract", "price": 10000.0, "gpus_per_machine": 8,
                     "contract_hours": 1000.0, "expected_utilization": 0.5})
    assert p["effective"] == pytest.approx(2.5)


def test_incomplete_terms_give_no_effective_price():
    p = offer_price({"billing_basis": "contract", "price": 10000.0, "gpus_per_machine": 8})
    assert p["effective"] is None


def test_the_review_and_the_catalog_show_the_basis_and_the_effective_price(client, team, owner):
    site = make_site(team)
    offer = make_offer(team, site, name="Machine box", billing_basis="machine_hour", price=16.0)
    review = make_review(team, owner, offers=[offer])
    client.force_login(owner)
    for url in (reverse("reviews:detail", args=[review.pk]),
                reverse("reviews:candidates", args=[review.pk]),
                reverse("catalog:offer_detail", args=[offer.pk]),
                reverse("catalog:offer_list")):
        html = client.get(url).content.decode()
        assert "16.00 USD <span class=\"muted small\">per machine-hour</span>" in html, url
        assert "= 2.000 USD per GPU-hour" in html, url
