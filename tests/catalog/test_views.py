"""Catalog pages across sites, links and offers: access, the index, the list fragments, query
counts, languages, and the engine-2 fields of the site and offer forms."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import NetworkLink, Offer, Site
from tests.catalog.helpers import HX, is_fragment, offer_data, site_data
from tests.factories import make_link, make_offer, make_site

pytestmark = pytest.mark.django_db

LIST_NAMES = ["catalog:index", "catalog:site_list", "catalog:link_list", "catalog:offer_list"]
CREATE_NAMES = ["catalog:site_create", "catalog:link_create", "catalog:offer_create"]


def object_urls(world) -> list[str]:
    urls = []
    for key, obj in (("site", world["a"]), ("link", world["link"]), ("offer", world["offer"])):
        for action in ("edit", "delete", "row"):
            urls.append(reverse(f"catalog:{key}_{action}", args=[obj.pk]))
    urls.append(reverse("catalog:offer_detail", args=[world["offer"].pk]))
    return urls


class CatalogAccessTests:
    def test_it_redirects_anonymous_users_to_login(self, client, world):
        for url in [reverse(n) for n in LIST_NAMES + CREATE_NAMES] + object_urls(world):
            response = client.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("accounts:login"))

    def test_it_answers_404_to_an_outsider_on_every_object_url(self, client, world, outsider):
        client.force_login(outsider)
        for url in object_urls(world):
            assert client.get(url).status_code == 404, url
            assert client.get(url, **HX).status_code == 404, url
            assert client.post(url, {}).status_code in (404, 405), url
        assert Site.objects.filter(pk=world["a"].pk).exists()
        assert Offer.objects.filter(pk=world["offer"].pk).exists()

    @pytest.mark.parametrize("role", ["member", "reviewer"])
    def test_it_refuses_writes_to_members_and_reviewers(self, client, world, role, request):
        client.force_login(request.getfixturevalue(role))
        for name in CREATE_NAMES:
            assert client.get(reverse(name)).status_code == 403
            assert client.post(reverse(name), site_data(), **HX).status_code == 403
        for key, obj in (("site", world["a"]), ("link", world["link"]), ("offer", world["offer"])):
            for action in ("edit", "delete"):
                url = reverse(f"catalog:{key}_{action}", args=[obj.pk])
                assert client.get(url).status_code == 403
                assert client.post(url, {}).status_code == 403
        assert Site.objects.count() == 2 and NetworkLink.objects.count() == 1
        assert Offer.objects.count() == 1

    @pytest.mark.parametrize("role", ["member", "reviewer"])
    def test_members_and_reviewers_read_every_page_without_edit_buttons(
        self, client, world, role, request
    ):
        client.force_login(request.getfixturevalue(role))
        for name in LIST_NAMES:
            response = client.get(reverse(name))
            assert response.status_code == 200
            assert reverse("catalog:site_create") not in response.content.decode()
        detail = client.get(reverse("catalog:offer_detail", args=[world["offer"].pk]))
        assert detail.status_code == 200
        assert "8x H100" in detail.content.decode()
        assert (
            reverse("catalog:offer_edit", args=[world["offer"].pk]) not in detail.content.decode()
        )

    def test_lists_show_only_the_current_teams_rows(self, client, world, owner, other_team):
        make_site(other_team, "zz-theirs")
        make_offer(other_team, name="Their offer")
        client.force_login(owner)
        sites = client.get(reverse("catalog:site_list")).content.decode()
        offers = client.get(reverse("catalog:offer_list")).content.decode()
        assert "bj-a" in sites and "zz-theirs" not in sites
        assert "8x H100" in offers and "Their offer" not in offers


class CatalogIndexTests:
    def test_it_counts_sites_cities_hubs_and_ranks_offers_by_gpu_hour_price(
        self, client, world, team, member, other_team
    ):
        make_offer(team, world["b"], name="Cheap L40S", gpu_mem_gb=48, price=1.2)
        make_offer(
            other_team, make_site(other_team, "far", city="Urumqi"), name="Theirs", price=0.1
        )
        client.force_login(member)
        response = client.get(reverse("catalog:index"))
        assert response.context["site_count"] == 2
        assert response.context["city_count"] == 2
        assert response.context["hub_count"] == 2
        names = [offer.name for offer, _ in response.context["cheapest"]]
        assert names == ["Cheap L40S", "8x H100"]  # 1.20 before 24 ÷ 8 = 3.00

    def test_it_shows_a_call_to_action_when_there_is_no_site(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("catalog:index")).content.decode()
        assert "Start with a site" in html
        assert reverse("catalog:site_create") in html


class CatalogListFragmentTests:
    @pytest.mark.parametrize(
        "name", ["catalog:site_list", "catalog:link_list", "catalog:offer_list"]
    )
    def test_each_list_is_a_page_and_a_table_fragment(self, client, world, owner, name):
        client.force_login(owner)
        page = client.get(reverse(name))
        fragment = client.get(reverse(name), **HX)
        assert page.status_code == fragment.status_code == 200
        assert not is_fragment(page) and is_fragment(fragment)
        assert fragment.content.decode().lstrip().startswith('<div id="')
        assert "HX-Request" in fragment["Vary"]

    def test_a_history_restore_gets_the_full_page(self, client, world, owner):
        client.force_login(owner)
        response = client.get(
            reverse("catalog:site_list"), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HX
        )
        assert not is_fragment(response)


def _fill(team, start: int, count: int) -> None:
    sites = [make_site(team, f"s{i:03d}", city=f"c{i % 3}") for i in range(start, start + count)]
    for i, site in enumerate(sites):
        make_link(team, site, sites[(i + 1) % count])
        make_offer(team, site, billing_basis=("gpu_hour", "machine_hour")[i % 2])


class CatalogQueryCountTests:
    @pytest.mark.parametrize(
        "name", ["catalog:site_list", "catalog:link_list", "catalog:offer_list"]
    )
    def test_a_list_makes_as_many_queries_for_200_rows_as_for_5(self, client, owner, team, name):
        client.force_login(owner)
        # The navigation's counts, kept under their own key that no catalog write moves, are read
        # once here, so both views below count only what the list itself needs.
        client.get(reverse("method:index"))
        _fill(team, 0, 5)
        with CaptureQueriesContext(connection) as few:
            first = client.get(reverse(name))
        _fill(team, 5, 195)
        with CaptureQueriesContext(connection) as many:
            second = client.get(reverse(name))
        assert len(first.context["page_obj"].object_list) == 5
        assert len(second.context["page_obj"].object_list) == 25
        assert len(few) == len(many)


class CatalogLanguageTests:
    def test_it_renders_the_offer_list_in_simplified_chinese(self, client, world, owner):
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans"})
        html = client.get(reverse("catalog:offer_list")).content.decode()
        assert '<html lang="zh-hans">' in html
        assert "报价" in html and "整机小时" in html
        assert "Effective GPU-hour price" not in html

    def test_it_renders_the_site_form_in_simplified_chinese(self, client, owner):
        client.force_login(owner)
        html = client.get(
            reverse("catalog:site_create"), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        assert "机房" in html and "枢纽" in html and "保存" in html


class EngineTwoCatalogFieldsTests:
    """SPEC 6.1: storage at a site (staging), boot time and sharded parallelism of an offer."""

    def test_the_site_form_explains_storage_and_a_blank_reads_unlimited(self, client, world, owner):
        client.force_login(owner)
        page = client.get(reverse("catalog:site_create")).content.decode()
        assert "Room to stage a task&#x27;s input next to the compute; blank = unlimited." in page
        client.post(reverse("catalog:site_create"), site_data(code="gz-a", storage_tb="40"))
        assert Site.objects.get(code="gz-a").storage_tb == 40.0
        table = client.get(reverse("catalog:site_list"), **HX).content.decode()
        assert "40.00 TB" in table and "unlimited" in table  # bj-a and sh-a have no limit

    def test_a_negative_storage_is_refused_on_the_field(self, client, world, owner):
        client.force_login(owner)
        response = client.post(reverse("catalog:site_create"), site_data(storage_tb="-1"))
        assert response.status_code == 200
        assert response.context["form"].errors["storage_tb"]
        assert not Site.objects.filter(code="sh-b").exists()

    def test_the_offer_form_explains_boot_hours_and_offers_sharded_parallelism(
        self, client, world, owner
    ):
        client.force_login(owner)
        page = client.get(reverse("catalog:offer_create")).content.decode()
        assert "Time from order to a usable machine; counts in the queue segment." in page
        assert 'type="checkbox" name="parallelism" value="sharded"' in page
        assert "Sharded data parallel (FSDP, ZeRO-3)" in page
        response = client.post(
            reverse("catalog:offer_create"),
            offer_data(
                world["a"], name="FSDP pool", parallelism=["data", "sharded"], boot_hours="2"
            ),
        )
        assert response.status_code == 302
        offer = Offer.objects.get(name="FSDP pool")
        assert (offer.parallelism, offer.boot_hours) == (["data", "sharded"], 2.0)
        detail = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert "Sharded data parallel (FSDP, ZeRO-3)" in detail
        assert "Pipeline parallel" not in detail

    @pytest.mark.parametrize("value", ["-1", "nan", "soon"])
    def test_a_bad_boot_time_is_refused_on_the_field(self, client, world, owner, value):
        client.force_login(owner)
        response = client.post(
            reverse("catalog:offer_create"), offer_data(world["a"], name="X", boot_hours=value)
        )
        assert response.status_code == 200
        assert response.context["form"].errors["boot_hours"]
        assert not Offer.objects.filter(name="X").exists()

    def test_the_new_fields_read_in_simplified_chinese(self, client, world, owner):
        client.force_login(owner)
        offer_form = client.get(
            reverse("catalog:offer_create"), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        assert "分片数据并行(FSDP、ZeRO-3)" in offer_form
        assert "Time from order to a usable machine" not in offer_form
        site_form = client.get(
            reverse("catalog:site_create"), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        assert "Room to stage a task" not in site_form
