"""One word per concept, in both languages (issue 39): the billing units of the offers translated,
the quarterly figure that can go negative called a variance, the bell drawn as an SVG (no emoji
font needed), and django-allauth's password and email pages in the site's words and sentence case
with one Chinese term for email (邮箱, never "Email地址" or "电子邮件")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tests.factories import make_offer

pytestmark = pytest.mark.django_db



@pytest.fixture
def world(team, owner):
    from tests.scoring.helpers import make_world

    return make_world(team, owner)


@pytest.fixture
def snapshot(world):
    from apps.reviews.snapshots.services import snapshot_compute

    return snapshot_compute(review_id=world.review.pk)


def chinese(client):
    client.cookies["django_language"] = "zh-hans"
    return client


class OfferUnitsTests:
    def test_the_chinese_offers_page_translates_every_billing_basis(self, client, team, owner):
        make_offer(team, name="Machine box", billing_basis="machine_hour", price=20)
        make_offer(
            team, name="Contract box", billing_basis="contract", price=9000,
            contract_hours=1000, expected_utilization=0.8,
        )
        client.force_login(owner)
        html = chinese(client).get(reverse("catalog:offer_list")).content.decode()
        assert "每机器·小时" in html and "每份合同套餐" in html
        assert "per machine-hour" not in html and "per contract package" not in html


class QuarterlyWordingTests:
    def test_the_compute_figure_is_a_variance_and_an_overspend_shows_as_negative(
        self, client, owner, reviewer, world, snapshot
    ):
        from apps.scoring.services.quarterly_review import quarterly_refresh
        from tests.scoring.helpers import approve

        approve(world.review, reviewer, snapshot, datetime(2026, 2, 1, tzinfo=UTC))
        quarterly_refresh(team=world.review.team)
        client.force_login(owner)
        html = client.get(reverse("scoring:quarterly")).content.decode()
        assert "Compute cost variance" in html and "Compute variance (USD)" in html
        assert "Compute cost saved" not in html and "Compute saved" not in html
        assert "negative an overspend" in html
        html = chinese(client).get(reverse("scoring:quarterly")).content.decode()
        assert "算力成本差额" in html and "节省的算力成本" not in html


class BellTests:
    def test_the_bell_is_an_svg_with_a_name(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("home")).content.decode()
        assert '<svg class="bell__icon" aria-hidden="true"' in html
        assert "🔔" not in html
        assert '<span class="visually-hidden">Notifications</span>' in html


class AllauthPagesTests:
    def test_the_password_reset_pages_speak_the_sites_words(self, client):
        html = client.get(reverse("account_reset_password")).content.decode()
        assert "<h1>Reset your password</h1>" in html or ">Reset your password<" in html
        assert "Password Reset" not in html and "Reset My Password" not in html
        assert 'class="is-auth is-allauth' in html  # the site's layout
        html = chinese(client).get(reverse("account_reset_password")).content.decode()
        assert "重置密码" in html and "发送重置链接" in html
        assert "电子邮件" not in html and "Email地址" not in html
        assert "邮箱" in html

    def test_the_email_addresses_page_says_email_one_way(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("account_email")).content.decode()
        assert "Email addresses" in html and "Email Addresses" not in html
        html = chinese(client).get(reverse("account_email")).content.decode()
        assert "邮箱地址" in html
        assert "Email地址" not in html and "电子邮件" not in html
