from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import NetworkLink, Offer, Site
from tests.catalog.helpers import HX, is_fragment, link_data, offer_data, site_data
from tests.factories import make_link, make_offer, make_profile, make_review, make_site

pytestmark = pytest.mark.django_db

LIST_NAMES = ["catalog:index", "catalog:site_list", "catalog:link_list", "catalog:offer_list"]
CREATE_NAMES = ["catalog:site_create", "catalog:link_create", "catalog:offer_create"]


@pytest.fixture
def world(team):
    """Two sites, a link between them, an offer on the first."""
    a = make_site(team, "bj-a", city="Beijing", datacenter="dc-1")
    b = make_site(team, "sh-a", city="Shanghai", datacenter="dc-2", hub="east")
    link = make_link(team, a, b, bandwidth_gbps=10, price_per_gb=0.02)
    offer = make_offer(team, a, name="8x H100", billing_basis="machine_hour", price=24)
    return {"a": a, "b": b, "link": link, "offer": offer}


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


class SiteViewTests:
    def test_an_owner_creates_a_site_on_a_full_page(self, client, team, owner):
        client.force_login(owner)
        page = client.get(reverse("catalog:site_create"))
        assert page.status_code == 200 and not is_fragment(page)
        assert 'name="code"' in page.content.decode()
        response = client.post(reverse("catalog:site_create"), site_data())
        assert response.status_code == 302
        assert response["Location"] == reverse("catalog:site_list")
        site = Site.objects.get(team=team, code="sh-b")
        assert site.queue_hours == 2 and site.storage_tb is None

    def test_an_owner_creates_a_site_inline(self, client, world, owner):
        client.force_login(owner)
        form = client.get(reverse("catalog:site_create"), **HX)
        assert form.status_code == 200 and is_fragment(form)
        assert form.content.decode().lstrip().startswith("<tr")
        assert 'id="site-new"' in form.content.decode()
        response = client.post(reverse("catalog:site_create"), site_data(), **HX)
        html = response.content.decode()
        site = Site.objects.get(code="sh-b")
        assert response.status_code == 200 and is_fragment(response)
        assert f'id="site-{site.pk}"' in html  # the new display row
        assert '<tr id="site-new" hidden></tr>' in html  # and the placeholder for the next one
        assert "Shanghai B" in html

    def test_an_owner_edits_a_site_inline_and_on_a_full_page(self, client, world, owner):
        client.force_login(owner)
        site = world["a"]
        url = reverse("catalog:site_edit", args=[site.pk])
        form = client.get(url, **HX)
        assert is_fragment(form) and f'id="site-{site.pk}"' in form.content.decode()
        assert 'value="bj-a"' in form.content.decode()
        row = client.post(url, site_data(code="bj-a", name="Beijing Yizhuang"), **HX)
        assert row.status_code == 200 and is_fragment(row)
        assert "Beijing Yizhuang" in row.content.decode() and "<form" not in row.content.decode()
        page = client.get(url)
        assert page.status_code == 200 and not is_fragment(page)
        response = client.post(url, site_data(code="bj-a", name="Beijing A2", queue_hours="7"))
        assert response.status_code == 302
        site.refresh_from_db()
        assert site.name == "Beijing A2" and site.queue_hours == 7

    def test_the_row_url_gives_the_display_row_to_htmx_and_redirects_otherwise(
        self, client, world, owner
    ):
        client.force_login(owner)
        url = reverse("catalog:site_row", args=[world["a"].pk])
        row = client.get(url, **HX)
        assert row.status_code == 200 and is_fragment(row)
        assert f'id="site-{world["a"].pk}"' in row.content.decode()
        assert client.get(url)["Location"] == reverse("catalog:site_list")

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("queue_hours", "nan"),
            ("queue_hours", "inf"),
            ("queue_hours", "-1"),
            ("storage_tb", "-Infinity"),
            ("code", "not a slug!"),
        ],
    )
    def test_it_shows_bad_numbers_on_the_field_and_writes_nothing(
        self, client, world, owner, field, value
    ):
        client.force_login(owner)
        response = client.post(reverse("catalog:site_create"), site_data(**{field: value}), **HX)
        assert response.status_code == 200 and is_fragment(response)
        assert response.context["form"].errors[field]
        assert f'id="field-{field}"' in response.content.decode()
        assert 'role="alert"' in response.content.decode()
        assert not Site.objects.filter(code="sh-b").exists()

    def test_it_refuses_a_duplicate_code_on_the_code_field(self, client, world, owner):
        client.force_login(owner)
        response = client.post(reverse("catalog:site_create"), site_data(code="bj-a"))
        assert response.status_code == 200
        assert "already has a site with this code" in str(response.context["form"].errors["code"])
        assert Site.objects.filter(code="bj-a").count() == 1

    def test_an_owner_deletes_an_unused_site_inline_and_on_a_full_page(self, client, team, owner):
        client.force_login(owner)
        one, two = make_site(team, "x-1"), make_site(team, "x-2")
        response = client.post(reverse("catalog:site_delete", args=[one.pk]), **HX)
        assert response.status_code == 200 and response.content == b""
        confirm = client.get(reverse("catalog:site_delete", args=[two.pk]))
        assert confirm.status_code == 200 and "x-2" in confirm.content.decode()
        response = client.post(reverse("catalog:site_delete", args=[two.pk]))
        assert response.status_code == 302
        assert not Site.objects.filter(pk__in=[one.pk, two.pk]).exists()

    def test_it_refuses_to_delete_a_site_that_offers_links_and_profiles_use(
        self, client, world, owner, team
    ):
        make_profile(team, world["a"])
        client.force_login(owner)
        url = reverse("catalog:site_delete", args=[world["a"].pk])
        fragment = client.post(url, **HX)
        html = fragment.content.decode()
        assert fragment.status_code == 200 and is_fragment(fragment)
        assert f'id="site-{world["a"].pk}"' in html
        assert "cannot be deleted" in html
        assert "1 network link" in html and "1 offer" in html and "3 task profile" not in html
        assert "task profile" in html
        page = client.post(url)
        assert page.status_code == 409
        assert "cannot be deleted" in page.content.decode()
        assert Site.objects.filter(pk=world["a"].pk).exists()


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
