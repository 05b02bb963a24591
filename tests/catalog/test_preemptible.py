"""Preemptible (spot) offers (SPEC 6.3): the form ties the preemption rate to the flag, refusing
by field in both languages; the pages show a spot badge and the rate; the service and the
database refuse what the form refuses."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from apps.catalog import services
from apps.catalog.models import Offer
from tests.catalog.helpers import HX, offer_data

pytestmark = pytest.mark.django_db


def _post(client, world, lang="en", **overrides):
    return client.post(
        reverse("catalog:offer_create"),
        offer_data(world["a"], name="8x H100 spot", **overrides),
        HTTP_ACCEPT_LANGUAGE=lang,
    )


class PreemptibleOfferFormTests:
    def test_it_saves_a_spot_offer_with_its_rate_and_shows_the_badge(self, client, world, owner):
        client.force_login(owner)
        response = _post(client, world, preemptible="on", preemptions_per_day="1.5")
        assert response.status_code == 302
        offer = Offer.objects.get(name="8x H100 spot")
        assert (offer.preemptible, offer.preemptions_per_day) == (True, 1.5)
        listing = client.get(reverse("catalog:offer_list")).content.decode()
        assert "badge--spot" in listing and "spot: 1.50 preemptions/day" in listing
        detail = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert "Spot (preemptible): about 1.50 preemptions a day" in detail
        on_demand = client.get(reverse("catalog:offer_detail", args=[world["offer"].pk]))
        assert "On demand (not preemptible)" in on_demand.content.decode()

    def test_a_rate_of_zero_is_a_stated_rate(self, client, world, owner):
        client.force_login(owner)
        assert _post(client, world, preemptible="on", preemptions_per_day="0").status_code == 302
        assert Offer.objects.get(name="8x H100 spot").preemptions_per_day == 0

    @pytest.mark.parametrize(
        ("lang", "message"),
        [
            ("en", "Only spot (preemptible) capacity has preemptions"),
            ("zh-hans", "只有抢占式（spot）资源才有抢占次数"),
        ],
    )
    def test_it_refuses_preemptions_without_preemptible_on_the_field(
        self, client, world, owner, lang, message
    ):
        client.force_login(owner)
        response = _post(client, world, lang, preemptions_per_day="2")
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["preemptions_per_day"]
        assert message in errors["preemptions_per_day"][0]
        assert not Offer.objects.filter(name="8x H100 spot").exists()

    @pytest.mark.parametrize(
        ("lang", "message"),
        [
            ("en", "Spot capacity needs its expected preemptions per day"),
            ("zh-hans", "抢占式资源须填写预计每天被抢占的次数"),
        ],
    )
    def test_it_requires_preemptions_with_preemptible_on_the_field(
        self, client, world, owner, lang, message
    ):
        client.force_login(owner)
        response = _post(client, world, lang, preemptible="on", preemptions_per_day="")
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["preemptions_per_day"]
        assert message in errors["preemptions_per_day"][0]

    @pytest.mark.parametrize("value", ["-1", "nan", "inf"])
    def test_it_refuses_a_negative_or_non_finite_rate_on_the_field(
        self, client, world, owner, value
    ):
        client.force_login(owner)
        response = client.post(
            reverse("catalog:offer_create"),
            offer_data(world["a"], preemptible="on", preemptions_per_day=value),
            **HX,
        )
        assert response.status_code == 200
        assert response.context["form"].errors["preemptions_per_day"]
        assert Offer.objects.count() == 1

    def test_the_form_shows_both_fields_with_their_help(self, client, world, owner):
        client.force_login(owner)
        html = client.get(reverse("catalog:offer_create")).content.decode()
        assert 'name="preemptible"' in html and 'name="preemptions_per_day"' in html
        assert "Expected preemptions = this × compute hours / 24." in html


class PreemptibleOfferServiceTests:
    def test_the_service_refuses_a_rate_on_on_demand_capacity(self, team, world):
        with pytest.raises(ValidationError) as exc:
            services.offer_update(offer=world["offer"], preemptions_per_day=1.0)
        assert list(exc.value.error_dict) == ["preemptions_per_day"]

    def test_the_database_refuses_a_spot_offer_without_its_rate(self, world):
        with pytest.raises(IntegrityError), transaction.atomic():
            Offer.objects.filter(pk=world["offer"].pk).update(preemptible=True)
