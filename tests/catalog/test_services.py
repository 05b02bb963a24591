from __future__ import annotations

import math

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apps.catalog import services
from apps.catalog.forms import NetworkLinkForm, OfferForm, SiteForm
from apps.catalog.models import NetworkLink, Offer, Site
from apps.catalog.pricing import gpu_hour_price
from tests.catalog.helpers import link_data, offer_data, site_data
from tests.factories import make_benchmark, make_offer, make_profile, make_review, make_site

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages are asserted in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


SITE = {"name": "Beijing A", "datacenter": "dc-1", "city": "Beijing", "hub": "north"}
OFFER = {
    "provider": "Acme",
    "name": "8x H100",
    "kind": "compute",
    "gpu_model": "H100",
    "gpu_mem_gb": 80.0,
    "gpus_per_machine": 8,
    "billing_basis": "gpu_hour",
    "price": 2.5,
    "parallelism": ["data"],
}


class SiteServiceTests:
    def test_it_creates_and_updates_a_site(self, team):
        site = services.site_create(team=team, code="bj-a", queue_hours=2.0, **SITE)
        assert Site.objects.get(pk=site.pk).queue_hours == 2.0
        services.site_update(site=site, queue_hours=5.0)
        assert Site.objects.get(pk=site.pk).queue_hours == 5.0

    @pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
    def test_it_refuses_non_finite_numbers_even_without_a_form(self, team, value):
        with pytest.raises(ValidationError) as exc:
            services.site_create(team=team, code="bj-a", queue_hours=value, **SITE)
        assert "queue_hours" in exc.value.error_dict
        assert not Site.objects.exists()

    def test_it_refuses_a_duplicate_code_in_the_team_but_not_across_teams(self, team, other_team):
        services.site_create(team=team, code="bj-a", **SITE)
        services.site_create(team=other_team, code="bj-a", **SITE)
        with pytest.raises(ValidationError):
            services.site_create(team=team, code="bj-a", **SITE)
        assert Site.objects.filter(code="bj-a").count() == 2

    def test_it_refuses_to_delete_a_used_site_and_names_the_users(self, team, owner):
        site = make_site(team, "bj-a")
        make_offer(team, site)
        make_offer(team, site)
        make_profile(team, site)
        with pytest.raises(services.InUseError) as exc:
            services.site_delete(site=site)
        assert exc.value.message == (
            "Site bj-a cannot be deleted: it is used by 2 offers, 1 task profile. "
            "Remove those first."
        )
        assert Site.objects.filter(pk=site.pk).exists()

    def test_it_deletes_an_unused_site(self, team):
        site = make_site(team, "bj-a")
        services.site_delete(site=site)
        assert not Site.objects.filter(pk=site.pk).exists()


class LinkServiceTests:
    def test_it_refuses_a_site_of_another_team(self, team, other_team):
        mine, theirs = make_site(team, "a"), make_site(other_team, "b")
        with pytest.raises(ValidationError) as exc:
            services.link_create(team=team, from_site=mine, to_site=theirs, bandwidth_gbps=10.0)
        assert "to_site" in exc.value.error_dict
        assert not NetworkLink.objects.exists()

    @pytest.mark.parametrize("bandwidth", [0.0, -5.0, math.nan])
    def test_it_refuses_a_bandwidth_that_is_not_positive(self, team, bandwidth):
        a, b = make_site(team, "a"), make_site(team, "b")
        with pytest.raises(ValidationError) as exc:
            services.link_create(team=team, from_site=a, to_site=b, bandwidth_gbps=bandwidth)
        assert "bandwidth_gbps" in exc.value.error_dict

    def test_it_refuses_a_link_from_a_site_to_itself(self, team):
        a = make_site(team, "a")
        with pytest.raises(ValidationError) as exc:
            services.link_create(team=team, from_site=a, to_site=a, bandwidth_gbps=10.0)
        assert "to_site" in exc.value.error_dict

    def test_a_link_of_a_review_reservation_is_not_deleted(self, team, owner):
        a, b = make_site(team, "a"), make_site(team, "b")
        link = services.link_create(
            team=team, from_site=a, to_site=b, bandwidth_gbps=10.0, reservable=True
        )
        make_review(team, owner).reserved_links.add(link)
        with pytest.raises(services.InUseError):
            services.link_delete(link=link)
        assert NetworkLink.objects.filter(pk=link.pk).exists()

    def test_a_site_with_a_benchmark_probe_is_not_deleted(self, team):
        a, b = make_site(team, "a"), make_site(team, "b")
        profile = make_profile(team, make_site(team, "c"))
        make_benchmark(
            team, profile, kind="network_probe", from_site=a, to_site=b, bandwidth_gbps=10, rtt_ms=5
        )
        with pytest.raises(services.InUseError) as exc:
            services.site_delete(site=a)
        assert "1 benchmark record" in exc.value.message


class OfferServiceTests:
    def test_it_refuses_contract_terms_that_are_missing_or_out_of_range(self, team):
        site = make_site(team, "a")
        fields = {**OFFER, "billing_basis": "contract", "price": 1000.0}
        with pytest.raises(ValidationError) as exc:
            services.offer_create(team=team, site=site, **fields)
        assert {"contract_hours", "expected_utilization"} <= set(exc.value.error_dict)
        with pytest.raises(ValidationError) as exc:
            services.offer_create(
                team=team, site=site, contract_hours=100.0, expected_utilization=1.2, **fields
            )
        assert set(exc.value.error_dict) == {"expected_utilization"}
        offer = services.offer_create(
            team=team, site=site, contract_hours=100.0, expected_utilization=0.5, **fields
        )
        assert Offer.objects.get(pk=offer.pk).expected_utilization == 0.5

    def test_it_refuses_unknown_parallelism_and_another_teams_site(self, team, other_team):
        theirs = make_site(other_team, "b")
        with pytest.raises(ValidationError) as exc:
            services.offer_create(team=team, site=theirs, **{**OFFER, "parallelism": ["expert"]})
        assert {"site", "parallelism"} <= set(exc.value.error_dict)
        assert not Offer.objects.exists()

    def test_it_refuses_to_delete_an_offer_a_review_uses(self, team, owner):
        offer = make_offer(team)
        make_review(team, owner, offers=[offer])
        with pytest.raises(services.InUseError) as exc:
            services.offer_delete(offer=offer)
        assert "1 review (as a candidate)" in exc.value.message
        assert Offer.objects.filter(pk=offer.pk).exists()


class GpuHourPriceTests:
    def test_a_gpu_hour_price_is_the_price(self, team):
        price = gpu_hour_price(make_offer(team, price=2.99), "USD")
        assert price.value == pytest.approx(2.99)
        assert price.derivation == "GPU-hour price 2.99 = 2.99 USD/GPU-h"

    def test_a_machine_hour_price_is_divided_by_the_gpus(self, team):
        offer = make_offer(team, billing_basis="machine_hour", price=24, gpus_per_machine=8)
        price = gpu_hour_price(offer, "USD")
        assert price.value == pytest.approx(3.0)
        assert price.derivation == "machine-hour 24.00 ÷ 8 GPUs = 3.00 USD/GPU-h"

    def test_a_contract_is_divided_by_hours_gpus_and_utilization(self, team):
        offer = make_offer(
            team,
            billing_basis="contract",
            price=150000,
            contract_hours=2000,
            expected_utilization=0.75,
            gpus_per_machine=8,
        )
        price = gpu_hour_price(offer, "CNY")
        assert price.value == pytest.approx(12.5)
        assert price.derivation == (
            "contract 150,000.00 ÷ (2,000 h × 8 GPUs × 0.75) = 12.50 CNY/GPU-h"
        )


class CatalogFormTests:
    def test_site_choices_are_the_teams_sites_only(self, team, other_team):
        mine, theirs = make_site(team, "a"), make_site(other_team, "b")
        for form in (NetworkLinkForm(team=team), OfferForm(team=team)):
            for name in ("from_site", "to_site", "site"):
                if name in form.fields:
                    assert list(form.fields[name].queryset) == [mine]
        assert theirs not in OfferForm(team=team).fields["site"].queryset

    @pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity", "1e309"])
    def test_every_float_field_refuses_non_finite_input(self, team, value):
        a, b = make_site(team, "a"), make_site(team, "b")
        forms = [
            (SiteForm(site_data(queue_hours=value), team=team), "queue_hours"),
            (NetworkLinkForm(link_data(a, b, rtt_ms=value), team=team), "rtt_ms"),
            (OfferForm(offer_data(a, boot_hours=value), team=team), "boot_hours"),
        ]
        for form, field in forms:
            assert not form.is_valid()
            assert form.errors[field] == ["Enter a finite number (not NaN or infinity)."]

    def test_an_absurd_magnitude_is_refused(self, team):
        form = SiteForm(site_data(queue_hours="1e13"), team=team)
        assert not form.is_valid()
        assert "10¹²" in form.errors["queue_hours"][0]

    def test_contract_terms_are_dropped_on_other_bases(self, team):
        site = make_site(team, "a")
        form = OfferForm(
            offer_data(site, contract_hours="100", expected_utilization="0.5"),
            team=team,
        )
        assert form.is_valid(), form.errors
        assert form.cleaned_data["contract_hours"] is None
        assert form.cleaned_data["expected_utilization"] is None


class AllowedSiteProtectionTests:
    def test_a_site_a_compliance_profile_allows_is_not_deleted(self, team):
        from apps.profiles.services import profile_update

        home, allowed = make_site(team, "bj-a"), make_site(team, "bj-b")
        profile = make_profile(team, home, compliance_restricted=True)
        profile_update(profile=profile, allowed_sites=[allowed])
        with pytest.raises(services.InUseError) as exc:
            services.site_delete(site=allowed)
        # Dropping it silently would widen where the data may go (blank = whole datacenter).
        assert "1 task profile (as an allowed site)" in exc.value.message
        assert list(profile.allowed_sites.all()) == [allowed]
