"""The settings page: inline threshold rows (page and htmx fragment), history, languages."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.accounts.models import Team
from apps.teams import selectors, services
from apps.teams.calibration import history as calibration_history
from tests.factories import make_benchmark, make_membership, make_profile, make_user

pytestmark = pytest.mark.django_db


def row_html(html: str, key: str) -> str:
    match = re.search(rf'<tr id="threshold-{key}".*?</tr>', html, re.S)
    assert match, f"no row for {key}"
    return match.group(0)


class ThresholdRowTests:
    def test_the_page_lists_every_threshold_with_its_default(self, client, team, owner):
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        import engine

        for key in engine.DEFAULT_THRESHOLDS:
            assert f'id="threshold-{key}"' in html
        row = row_html(html, "network_cost_share")
        assert '<td class="num">0.2</td>' in row
        assert "default, never changed" in row

    def test_htmx_saves_and_answers_with_the_row(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"),
            {"key": "network_cost_share", "value": "0.3"},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert html.strip().startswith('<tr id="threshold-network_cost_share"')
        assert "<html" not in html
        assert 'value="0.3"' in html
        assert "Saved" in html
        assert "changed by owner on" in html
        assert "Reset to default" in html
        team.refresh_from_db()
        assert team.thresholds == {"network_cost_share": 0.3}

    def test_without_javascript_it_redirects_to_the_row(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"), {"key": "headroom", "value": "0.85"}
        )
        assert response.status_code == 302
        assert response["Location"] == reverse("teams:settings") + "#threshold-headroom"
        page = client.get(response["Location"]).content.decode()
        assert "Threshold saved" in page
        assert 'value="0.85"' in row_html(page, "headroom")

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ("nan", "Enter a finite number"),
            ("inf", "Enter a finite number"),
            ("-1", "Enter a number above 0 and at most 1"),
            ("abc", "Enter a number"),
            ("", "This field is required"),
        ],
    )
    def test_bad_values_come_back_on_the_row_in_both_shapes(
        self, client, team, owner, value, message
    ):
        client.force_login(owner)
        url = reverse("teams:threshold_set")
        data = {"key": "network_cost_share", "value": value}
        fragment = client.post(url, data, HTTP_HX_REQUEST="true")
        assert fragment.status_code == 200
        assert message in fragment.content.decode()
        assert 'aria-invalid="true"' in fragment.content.decode()
        page = client.post(url, data)
        assert page.status_code == 200
        row = row_html(page.content.decode(), "network_cost_share")
        assert message in row
        assert f'value="{value}"' in row  # what was typed stays in the box
        team.refresh_from_db()
        assert team.thresholds == {}

    def test_high_not_above_low_is_explained(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:threshold_set"),
            {"key": "data_compute_high", "value": "5"},
            HTTP_HX_REQUEST="true",
        )
        assert "must be above the light ratio (10)" in response.content.decode()

    def test_an_unknown_key_is_a_bad_request(self, client, team, owner):
        client.force_login(owner)
        response = client.post(reverse("teams:threshold_set"), {"key": "x", "value": "1"})
        assert response.status_code == 400
        response = client.post(reverse("teams:threshold_reset"), {"key": "x"})
        assert response.status_code == 400

    def test_reset_answers_with_the_row_in_both_shapes(self, client, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        client.force_login(owner)
        url = reverse("teams:threshold_reset")
        fragment = client.post(url, {"key": "headroom"}, HTTP_HX_REQUEST="true")
        html = fragment.content.decode()
        assert html.strip().startswith('<tr id="threshold-headroom"')
        assert 'value="0.9"' in html
        assert "Reset to default" not in html
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        page = client.post(url, {"key": "headroom"})
        assert page.status_code == 302
        team.refresh_from_db()
        assert team.thresholds == {}


class ThresholdHistoryTests:
    def test_it_names_who_changed_each_threshold_last(self, team, owner):
        second = make_membership(make_user("second"), team, "owner").user
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        services.team_threshold_set(team=team, actor=second, key="headroom", value=0.85)
        services.team_threshold_set(team=team, actor=owner, key="buffer_cross_hub", value=0.4)
        services.team_threshold_reset(team=team, actor=second, key="buffer_cross_hub")
        with CaptureQueriesContext(connection) as queries:
            changes = selectors.threshold_changes(team=team)
        assert len(queries) == 1
        assert {k: (e.actor.username, e.action) for k, e in changes.items()} == {
            "headroom": ("second", "team.threshold_set"),
            "buffer_cross_hub": ("second", "team.threshold_reset"),
        }

    def test_the_page_query_count_does_not_grow_with_history_or_members(
        self, client, team, owner
    ):
        client.force_login(owner)

        def count() -> int:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse("teams:settings")).status_code == 200
            return len(queries)

        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        make_membership(make_user("m1"), team)
        count()  # the navigation's counts, kept under their own key, read once (teams.nav_counts)
        few = count()
        task = make_profile(team)
        for i in range(20):
            services.team_threshold_set(
                team=team, actor=owner, key="headroom", value=0.5 + i / 100
            )
            make_membership(make_user(f"extra{i}"), team)
            make_benchmark(team, task, kind="pilot_migration", tier="cross_hub",
                           succeeded=i % 2 == 0, e2e_hours=0, compute_hours=0)
        assert count() == few

    def test_recent_changes_are_listed_in_words(self, client, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.3)
        services.team_settings_update(team=team, actor=owner, approvals_required=2, currency="EUR")
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        assert "set Network cost share (0.2 → 0.3)" in html
        assert "changed approvals 1 → 2, currency USD → EUR" in html


class ChineseSettingsTests:
    def test_it_renders_the_settings_page_in_simplified_chinese(self, client, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.3)
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        html = client.get(reverse("teams:settings")).content.decode()
        assert '<html lang="zh-hans">' in html
        for text in ("团队设置", "成员", "审批与币种", "落地层级", "阈值", "网络成本占比",
                     "恢复默认值", "邀请成员"):
            assert text in html, text
        for text in ("Network cost share", "Add a member", "Rollout tiers", "Reset to default"):
            assert text not in html, text
        assert "由 owner 于" in html  # "changed by owner on …"

    def test_the_calibration_and_home_pages_render_in_chinese(self, client, team, owner):
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        home = client.get(reverse("home")).content.decode()
        assert "等待你决定" in home and "Waiting for your decision" not in home
        calibration = client.get(reverse("teams:calibration")).content.decode()
        assert "校准" in calibration and "How outcomes are read" not in calibration


class TeamObjectTests:
    def test_services_keep_the_callers_team_object_current(self, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        assert team.thresholds == {"headroom": 0.8}
        assert team.settings_generation == Team.objects.get(pk=team.pk).settings_generation == 2


class EngineTwoThresholdTests:
    """R6, R7 and the migration-cost line (SPEC 6.1): shown, validated, stored, in both languages."""

    def test_the_page_shows_them_with_rule_default_and_unit_in_the_teams_currency(
        self, client, team, owner
    ):
        Team.objects.filter(pk=team.pk).update(currency="CNY")
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        expected = {
            "scaling_efficiency_min": ("R6", "0.7", "share of ideal speedup"),
            "long_run_hours": ("R7", "12", "hours"),
            "engineer_hour_cost": ("T", "0", "CNY per engineer hour"),
        }
        for key, (rule, default, unit) in expected.items():
            row = row_html(html, key)
            # The rule id links to its entry in the method guide.
            assert f'<span class="badge"><a class="rule-link" href="/method/{rule}/"' in row
            assert f'data-method-rule="{rule}">{rule}</a></span>' in row
            assert f'<td class="num">{default}</td>' in row
            assert f'<span class="unit">({unit})</span>' in row
        assert "0 leaves the migration unpriced" in row_html(html, "engineer_hour_cost")
        help_text = row_html(html, "loose_cross_hub_hours")
        assert "spread over pools across hubs only when it computes at least this long" in (
            help_text
        )

    def test_the_page_speaks_chinese_with_the_currency(self, client, team, owner):
        Team.objects.filter(pk=team.pk).update(currency="EUR")
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        html = client.get(reverse("teams:settings")).content.decode()
        assert "视为收益明确的扩展效率" in row_html(html, "scaling_efficiency_min")
        assert "不能续跑的长任务下限" in row_html(html, "long_run_hours")
        row = row_html(html, "engineer_hour_cost")
        assert "每个工程师小时的成本" in row and "(EUR / 工程师小时)" in row
        assert "Cost of one engineer hour" not in html

    @pytest.mark.parametrize(
        ("key", "value", "message"),
        [
            ("scaling_efficiency_min", "0", "Enter a number above 0 and at most 1."),
            ("scaling_efficiency_min", "1.2", "Enter a number above 0 and at most 1."),
            ("scaling_efficiency_min", "nan", "Enter a finite number"),
            ("long_run_hours", "-1", "Enter a number from 0 to 10000."),
            ("long_run_hours", "twelve", "Enter a number"),
            ("engineer_hour_cost", "-5", "Enter a number from 0 to 1000000."),
            ("engineer_hour_cost", "2000000", "Enter a number from 0 to 1000000."),
            ("engineer_hour_cost", "inf", "Enter a finite number"),
            ("engineer_hour_cost", "", "This field is required"),
        ],
    )
    def test_bad_values_are_field_errors_and_store_nothing(
        self, client, team, owner, key, value, message
    ):
        client.force_login(owner)
        url = reverse("teams:threshold_set")
        fragment = client.post(url, {"key": key, "value": value}, HTTP_HX_REQUEST="true")
        assert fragment.status_code == 200
        html = fragment.content.decode()
        assert html.strip().startswith(f'<tr id="threshold-{key}"')
        assert message in html and 'aria-invalid="true"' in html
        page = client.post(url, {"key": key, "value": value})
        assert page.status_code == 200
        row = row_html(page.content.decode(), key)
        assert message in row and f'value="{value}"' in row
        team.refresh_from_db()
        assert team.thresholds == {}
        assert team.settings_generation == 1

    def test_a_bad_value_is_explained_in_chinese(self, client, team, owner):
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        response = client.post(
            reverse("teams:threshold_set"),
            {"key": "engineer_hour_cost", "value": "-5"},
            HTTP_HX_REQUEST="true",
        )
        assert "请输入 0 到 1000000 之间的数。" in response.content.decode()
        team.refresh_from_db()
        assert team.thresholds == {}

    def test_good_values_are_stored_and_reach_the_engine_input(self, client, team, owner):
        from apps.reviews.snapshots.services import build_review_input
        from tests.factories import make_review

        client.force_login(owner)
        url = reverse("teams:threshold_set")
        for key, value in (
            ("scaling_efficiency_min", "0.85"),
            ("long_run_hours", "6"),
            ("engineer_hour_cost", "92.5"),
        ):
            response = client.post(url, {"key": key, "value": value}, HTTP_HX_REQUEST="true")
            assert "Saved" in response.content.decode()
            assert f'value="{value}"' in response.content.decode()
        team.refresh_from_db()
        expected = {
            "scaling_efficiency_min": 0.85, "long_run_hours": 6.0, "engineer_hour_cost": 92.5
        }
        assert team.thresholds == expected
        assert team.settings_generation == 4
        review = make_review(team, owner)
        assert build_review_input(review)["thresholds"] == expected

    def test_calibration_still_reads_with_the_new_thresholds_set(self, client, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="engineer_hour_cost", value=80)
        services.team_threshold_set(team=team, actor=owner, key="long_run_hours", value=4)
        client.force_login(owner)
        response = client.get(reverse("teams:calibration"))
        assert response.status_code == 200
        assert [i["key"] for i in calibration_history.calibration_overview(team=team)["indicators"]] == [
            "data_compute_high", "interruption_cost_hours", None, "network_cost_share"
        ]
        refused = client.post(
            reverse("teams:calibration_adopt"), {"key": "engineer_hour_cost", "value": "1"}
        )
        assert refused.status_code == 400
        team.refresh_from_db()
        assert team.thresholds == {"engineer_hour_cost": 80.0, "long_run_hours": 4.0}
