"""Catalog network-link pages: list, create, edit, delete, each as a full page and as its htmx
fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import NetworkLink
from tests.catalog.helpers import HX, link_data
from tests.factories import make_review, make_site

pytestmark = pytest.mark.django_db


class LinkViewTests:
    def test_an_owner_creates_a_link_and_sees_its_tier(self, client, world, owner):
        client.force_login(owner)
        response = client.post(
            reverse("catalog:link_create"),
            link_data(world["b"], world["a"], bandwidth_gbps="5", price_per_gb="0.05"),
            **HX,
        )
        assert response.status_code == 200
        link = NetworkLink.objects.get(from_site=world["b"], to_site=world["a"])
        assert link.bandwidth_gbps == 5 and link.price_per_gb == 0.05
        html = response.content.decode()
        assert "Cross hub" in html and "5.00 Gbit/s" in html
        assert "0.30" in html and "tier default" in html  # cross-hub buffer default

    def test_it_gives_a_field_error_for_another_teams_site(self, client, world, owner, other_team):
        theirs = make_site(other_team, "theirs")
        client.force_login(owner)
        response = client.post(reverse("catalog:link_create"), link_data(world["a"], theirs))
        assert response.status_code == 200
        assert "to_site" in response.context["form"].errors
        assert not NetworkLink.objects.filter(to_site=theirs).exists()

    @pytest.mark.parametrize(
        ("overrides", "field"),
        [
            ({"bandwidth_gbps": "-10"}, "bandwidth_gbps"),
            ({"bandwidth_gbps": "0"}, "bandwidth_gbps"),
            ({"bandwidth_gbps": "NaN"}, "bandwidth_gbps"),
            ({"price_per_gb": "inf"}, "price_per_gb"),
            ({"rtt_ms": "-1"}, "rtt_ms"),
        ],
    )
    def test_it_refuses_bad_numbers_on_the_field(self, client, world, owner, overrides, field):
        client.force_login(owner)
        data = link_data(world["b"], world["a"], **overrides)
        response = client.post(reverse("catalog:link_create"), data, **HX)
        assert response.status_code == 200
        assert response.context["form"].errors[field]
        assert NetworkLink.objects.count() == 1

    def test_it_refuses_a_link_from_a_site_to_itself_and_a_duplicate_direction(
        self, client, world, owner
    ):
        client.force_login(owner)
        same = client.post(reverse("catalog:link_create"), link_data(world["a"], world["a"]))
        assert "two different sites" in str(same.context["form"].errors["to_site"])
        again = client.post(reverse("catalog:link_create"), link_data(world["a"], world["b"]))
        assert "already recorded" in str(again.context["form"].errors["to_site"])
        assert NetworkLink.objects.count() == 1

    def test_an_owner_edits_and_deletes_a_link_inline(self, client, world, owner):
        client.force_login(owner)
        link = world["link"]
        url = reverse("catalog:link_edit", args=[link.pk])
        assert 'name="bandwidth_gbps"' in client.get(url, **HX).content.decode()
        data = link_data(world["a"], world["b"], bandwidth_gbps="100", reservable="on")
        row = client.post(url, data, **HX)
        assert "100.00 Gbit/s" in row.content.decode() and "badge--ok" in row.content.decode()
        link.refresh_from_db()
        assert link.bandwidth_gbps == 100 and link.reservable
        deleted = client.post(reverse("catalog:link_delete", args=[link.pk]), **HX)
        assert deleted.content == b""
        assert not NetworkLink.objects.filter(pk=link.pk).exists()

    def test_it_refuses_to_delete_a_link_a_review_reserved(self, client, world, owner, team):
        review = make_review(team, owner)
        review.reserved_links.add(world["link"])
        client.force_login(owner)
        response = client.post(reverse("catalog:link_delete", args=[world["link"].pk]), **HX)
        assert "1 review reserved a channel on it" in response.content.decode()
        assert NetworkLink.objects.filter(pk=world["link"].pk).exists()
