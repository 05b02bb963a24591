"""Catalog offer pages: list, detail, create, edit, delete, each as a full page and as its htmx
fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import Offer
from tests.catalog.helpers import HX, is_fragment, offer_data
from tests.factories import make_review, make_site

pytestmark = pytest.mark.django_db


class OfferViewTests:
    def test_an_owner_creates_a_machine_hour_offer_and_sees_its_gpu_hour_price(
        self, client, world, owner
    ):
        client.force_login(owner)
        response = client.post(reverse("catalog:offer_create"), offer_data(world["a"]), **HX)
        assert response.status_code == 200 and is_fragment(response)
        offer = Offer.objects.get(name="8x A100 80GB")
        assert offer.parallelism == ["data", "tensor"]
        assert offer.contract_hours is None
        html = response.content.decode()
        assert "machine-hour 24.00 ÷ 8 GPUs = 3.00 USD/GPU-h" in html

    def test_a_contract_offer_shows_its_derivation(self, client, world, owner):
        client.force_login(owner)
        data = offer_data(
            world["a"],
            name="H200 contract",
            billing_basis="contract",
            price="150000",
            contract_hours="2000",
            expected_utilization="0.75",
        )
        assert client.post(reverse("catalog:offer_create"), data).status_code == 302
        offer = Offer.objects.get(name="H200 contract")
        page = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert "contract 150,000.00 ÷ (2,000 h × 8 GPUs × 0.75) = 12.50 USD/GPU-h" in page
        listing = client.get(reverse("catalog:offer_list")).content.decode()
        assert "12.50 USD" in listing

    @pytest.mark.parametrize(
        ("overrides", "field"),
        [
            ({"billing_basis": "contract"}, "contract_hours"),
            ({"billing_basis": "contract", "contract_hours": "100"}, "expected_utilization"),
            (
                {
                    "billing_basis": "contract",
                    "contract_hours": "100",
                    "expected_utilization": "1.5",
                },
                "expected_utilization",
            ),
            ({"gpu_mem_gb": "0"}, "gpu_mem_gb"),
            ({"gpus_per_machine": "0"}, "gpus_per_machine"),
            ({"price": "nan"}, "price"),
            ({"relative_speed": "inf"}, "relative_speed"),
            ({"kind": "quantum"}, "kind"),
            ({"billing_basis": "per_token"}, "billing_basis"),
            ({"parallelism": ["data", "expert"]}, "parallelism"),
        ],
    )
    def test_it_refuses_bad_input_on_the_field(self, client, world, owner, overrides, field):
        client.force_login(owner)
        response = client.post(reverse("catalog:offer_create"), offer_data(world["a"], **overrides))
        assert response.status_code == 200
        assert response.context["form"].errors[field]
        assert Offer.objects.count() == 1

    def test_it_gives_a_field_error_for_another_teams_site(self, client, world, owner, other_team):
        theirs = make_site(other_team, "theirs")
        client.force_login(owner)
        response = client.post(reverse("catalog:offer_create"), offer_data(theirs), **HX)
        assert response.status_code == 200
        assert "site" in response.context["form"].errors
        assert Offer.objects.count() == 1

    def test_an_owner_edits_an_offer_inline_and_on_a_full_page(self, client, world, owner):
        client.force_login(owner)
        offer = world["offer"]
        url = reverse("catalog:offer_edit", args=[offer.pk])
        form = client.get(url, **HX).content.decode()
        assert 'name="parallelism"' in form and "checked" in form
        row = client.post(url, offer_data(world["a"], name="8x H100 SXM", price="32"), **HX)
        assert "8x H100 SXM" in row.content.decode() and "4.00 USD/GPU-h" in row.content.decode()
        bad = client.post(url, offer_data(world["a"], price="-3"), **HX)
        assert bad.status_code == 200 and "<form" in bad.content.decode()
        assert bad.context["form"].errors["price"]
        offer.refresh_from_db()
        assert offer.price == 32
        assert client.get(url).status_code == 200
        assert client.post(url, offer_data(world["a"], name="Renamed")).status_code == 302
        offer.refresh_from_db()
        assert offer.name == "Renamed"

    def test_it_refuses_to_delete_an_offer_a_review_uses(self, client, world, owner, team):
        make_review(team, owner, offers=[world["offer"]])
        client.force_login(owner)
        url = reverse("catalog:offer_delete", args=[world["offer"].pk])
        fragment = client.post(url, **HX)
        assert fragment.status_code == 200
        assert "1 review (as a candidate)" in fragment.content.decode()
        page = client.post(url)
        assert page.status_code == 409 and "cannot be deleted" in page.content.decode()
        assert Offer.objects.filter(pk=world["offer"].pk).exists()
        detail = client.get(reverse("catalog:offer_detail", args=[world["offer"].pk]))
        assert "Review of" in detail.content.decode()

    def test_an_owner_deletes_an_unused_offer(self, client, world, owner):
        client.force_login(owner)
        response = client.post(reverse("catalog:offer_delete", args=[world["offer"].pk]))
        assert response.status_code == 302
        assert not Offer.objects.exists()
