"""The team setting scheduler_ops_hours_per_month (SPEC 7.11, engine 3.1): shown with its rule,
default, unit and help in both languages, refused by field when bad, stored and sent to the
engine."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.teams.test_settings_views import row_html

pytestmark = pytest.mark.django_db
KEY = "scheduler_ops_hours_per_month"


class SchedulerOpsSettingTests:
    def test_the_page_shows_it_with_rule_default_unit_and_help(self, client, team, owner):
        client.force_login(owner)
        row = row_html(client.get(reverse("teams:settings")).content.decode(), KEY)
        assert 'data-method-rule="R1e">R1e</a></span>' in row
        assert '<td class="num">0</td>' in row
        assert '<span class="unit">(engineer hours a month)</span>' in row
        assert "so managed offers compare fairly; 0 leaves it unpriced" in row

    def test_the_page_speaks_chinese(self, client, team, owner):
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        row = row_html(client.get(reverse("teams:settings")).content.decode(), KEY)
        assert "每月调度器运维工时" in row and "(工程师小时/月)" in row
        assert "托管报价才能公平比较" in row

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ("-1", "Enter a number from 0 to 744."),
            ("800", "Enter a number from 0 to 744."),
            ("nan", "Enter a finite number"),
            ("forty", "Enter a number"),
        ],
    )
    def test_bad_values_are_field_errors_and_store_nothing(
        self, client, team, owner, value, message
    ):
        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"), {"key": KEY, "value": value}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert html.strip().startswith(f'<tr id="threshold-{KEY}"')
        assert message in html and 'aria-invalid="true"' in html
        team.refresh_from_db()
        assert team.thresholds == {}

    def test_a_good_value_reaches_the_engine_input(self, client, team, owner):
        from apps.reviews.snapshots.services import build_review_input
        from tests.factories import make_review

        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"), {"key": KEY, "value": "40"}, HTTP_HX_REQUEST="true"
        )
        assert "Saved" in response.content.decode()
        team.refresh_from_db()
        assert team.thresholds == {KEY: 40.0}
        review = make_review(team, owner)
        assert build_review_input(review)["thresholds"] == {KEY: 40.0}
