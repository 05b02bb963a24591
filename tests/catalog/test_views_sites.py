"""Catalog site pages: list, create, edit, delete, each as a full page and as its htmx fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import Site
from tests.catalog.helpers import HX, is_fragment, site_data
from tests.factories import make_profile, make_site

pytestmark = pytest.mark.django_db


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
