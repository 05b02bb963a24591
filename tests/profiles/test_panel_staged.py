"""The live panel shows what rounds_per_refresh does to a staged plan (SPEC 6.4), with the
engine's own figures (engine.staged_shipment, which D3 reads too). Worked by hand:
raw input 5,000 GB, processed version 200 GB, compress ratio 1 →
4 runs per processed version: 200 ÷ 4 = 50 GB per run against 5,000 GB raw, 1 − 50/5,000 = 99 %;
1 run: 200 GB per run, 1 − 200/5,000 = 96 %."""

from __future__ import annotations

import pytest

from tests.factories import make_link, make_offer, make_site
from tests.profiles.helpers import HX, profile_data

pytestmark = pytest.mark.django_db

PANEL = "/profiles/panel/"


@pytest.fixture
def world(team):
    """Raw data in Ulanqab, the GPUs in Beijing over a 1 Gbit/s link at 0.05 per GB."""
    home = make_site(team, "bj-a", city="Beijing", datacenter="dc-1")
    far = make_site(team, "ulq", city="Ulanqab", datacenter="dc-u", hub="west")
    make_offer(team, home, name="8x H100")
    make_link(team, far, home, bandwidth_gbps=1, rtt_ms=30, price_per_gb=0.05)
    return {"home": home, "far": far}


def _staged_job(world, **changes) -> dict:
    job = {
        "data_site": world["far"].pk,
        "input_gb": "5000",
        "processed_gb": "200",
        "preprocess_hours": "2",
        "preprocess_cost_per_hour": "1",
        "rounds_per_refresh": "4",
        **changes,
    }
    return profile_data(world["home"], **job)


class StagedPanelTests:
    def test_it_shows_the_transfer_per_run_against_raw(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world), **HX)
        effect = response.context["staged_effect"]
        assert (effect["processed_gb"], effect["shipped_gb"], effect["raw_gb"]) == (200, 50, 5000)
        assert effect["rounds"] == 4
        assert effect["saved_pct"] == pytest.approx(99.0)
        assert effect["chosen_staged"] is True
        html = response.content.decode()
        assert (
            "Processed version of 200 GB, shipped once for 4 run(s) = 50 GB per run, "
            "against 5,000 GB raw." in html
        )
        assert "99 % less per run" in html
        assert "The engine chooses the staged plan" in html

    def test_the_panel_and_d3_say_the_same_figures(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world), **HX)
        d3 = next(f for f in response.context["evaluation"]["findings"] if f["rule"] == "D3")
        effect = response.context["staged_effect"]
        assert d3["data"]["shipped_gb"] == effect["shipped_gb"]
        assert d3["data"]["raw_gb"] == effect["raw_gb"]
        chosen = response.context["evaluation"]["chosen"]
        assert chosen["plan"] == "staged" and chosen["transfer_gb"] >= 50

    def test_changing_rounds_per_refresh_changes_the_figures(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world, rounds_per_refresh="1"), **HX)
        effect = response.context["staged_effect"]
        assert (effect["shipped_gb"], effect["rounds"]) == (200, 1)
        assert effect["saved_pct"] == pytest.approx(96.0)
        html = response.content.decode()
        assert "shipped once for 1 run(s) = 200 GB per run, against 5,000 GB raw." in html
        assert "96 % less per run" in html

    def test_without_a_processed_size_there_is_no_staged_section(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world, processed_gb=None), **HX)
        assert response.context["staged_effect"] is None
        assert 'id="panel-staged"' not in response.content.decode()

    def test_a_job_next_to_its_data_ships_nothing_staged(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world, data_site=world["home"].pk), **HX)
        effect = response.context["staged_effect"]
        assert effect["chosen_staged"] is False
        assert "does not ship the processed version" in response.content.decode()

    def test_it_speaks_chinese(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, _staged_job(world), HTTP_ACCEPT_LANGUAGE="zh-hans", **HX)
        html = response.content.decode()
        # Grouped by thousands as in English (config/formats).
        assert "200 GB 的成品只传一次，供 4 轮使用 = 每轮 50 GB，而原始数据是 5,000 GB。" in html
        assert "引擎选择分阶段方案" in html
