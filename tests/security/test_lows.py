"""The low findings of issue 34, each failing on the code the probe saw: the bill import's
magnitude check, control characters in text, the API's types, cookies and caching headers."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.actuals.bills import bill_import
from apps.actuals.models import ActualCost
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Site
from tests.actuals.helpers import approved_review
from tests.benchmarks.helpers import api_post, make_world, single_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


@pytest.fixture
def token(team, owner):
    return api_token_create(team=team, name="pipeline", created_by=owner)[1]


class BillMagnitudeTests:
    def test_lines_that_add_up_beyond_10_to_the_12_are_refused(self, team, review):
        # 50 lines of 10¹² each: every line is within the limit, their record 5×10¹³ is not.
        lines = "".join(
            f"2026-04-{1 + i % 28:02d},Acme,gpu-{i},review:{review.pk},1000000000000,USD,compute\n"
            for i in range(50)
        )
        content = "date,provider,resource,tag,amount,currency,kind\n" + lines
        result = bill_import(team=team, content=content)
        assert not result.saved and not ActualCost.objects.exists()
        messages = [e.message for errors in result.errors_by_line.values() for e in errors]
        assert any("add up to more than 10¹²" in m for m in messages), messages


class ControlCharacterTests:
    def test_a_form_refuses_a_control_character_on_the_field(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("catalog:site_create"),
            {"code": "bj-x", "name": "Bell\x07site", "city": "Beijing", "kind": "datacenter"},
        )
        assert response.status_code in (200, 422)
        assert "Remove the control character (U+0007)" in response.content.decode()
        assert not Site.objects.filter(code="bj-x").exists()

    def test_a_csv_row_with_a_control_character_is_an_error_of_its_line(
        self, client, team, review, member
    ):
        client.force_login(member)
        content = f"review,period,compute_cost,notes\n{review.pk},2026-02-03,260,ring\x07\n"
        page = client.post(reverse("actuals:import"), {"content": content}).content.decode()
        assert "U+0007" in page and not ActualCost.objects.exists()


class StrictApiTypesTests:
    @pytest.mark.parametrize("value", [True, "1e3", "260"])
    def test_an_actual_cost_is_a_json_number(self, client, token, review, value):
        body = {"review": review.pk, "period": "2026-03-01", "compute_cost": value}
        response = client.post(
            "/api/v1/actuals", json.dumps(body), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        assert response.status_code == 422
        assert "compute_cost" in json.dumps(response.json())
        assert not ActualCost.objects.exists()

    @pytest.mark.parametrize("period", ["2026-03-01 and more", "2026-03-01x", "2026-3-1"])
    def test_an_actual_cost_date_is_an_iso_date_and_nothing_more(
        self, client, token, review, period
    ):
        body = {"review": review.pk, "period": period, "compute_cost": 260}
        response = client.post(
            "/api/v1/actuals", json.dumps(body), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        assert response.status_code == 422 and not ActualCost.objects.exists()

    @pytest.mark.parametrize("value", [True, "1e3", "10"])
    def test_a_benchmark_figure_is_a_json_number(self, client, team, token, value):
        world = make_world(team)
        response = api_post(client, single_data(world, e2e_hours=value), token=token)
        assert response.status_code == 422
        assert "e2e_hours" in json.dumps(response.json())
        assert not BenchmarkRecord.objects.exists()

    def test_whole_numbers_are_still_numbers(self, client, team, token):
        world = make_world(team)
        response = api_post(client, single_data(world, e2e_hours=10, compute_hours=9.5), token=token)
        assert response.status_code == 201


class HeadersAndCookiesTests:
    def test_signed_in_pages_are_private_and_not_stored(self, client, team, member):
        client.force_login(member)
        for url in (reverse("home"), reverse("accounts:account"), reverse("catalog:site_list")):
            response = client.get(url)
            assert response.status_code == 200, url
            directives = {d.strip() for d in response["Cache-Control"].split(",")}
            assert {"private", "no-store"} <= directives, url

    def test_every_cookie_is_secure_in_production(self):
        from tests.test_settings import SECRET, run_manage

        code = (
            "from django.conf import settings as s;"
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE)"
        )
        out = run_manage(
            "shell", "-c", code,
            DJANGO_ENV="production", DJANGO_SECRET_KEY=SECRET, DJANGO_ALLOWED_HOSTS="x.example.com",
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == "True True True"
