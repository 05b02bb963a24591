"""SPEC 6.3 on the pages: the memory breakdown as a stacked bar against each offer's usable memory
per GPU (profile panel, profile page, sizing page), and deadline sizing's gpus_for_budget beside
the planned GPU count. Figures worked by hand from the formulas in docs/engine.md."""

from __future__ import annotations

import re

import pytest

from apps.profiles.memory_bar import memory_bar, nice_ceiling
from tests.factories import make_benchmark, make_offer, make_profile, make_site
from tests.profiles.helpers import HX, profile_data

pytestmark = pytest.mark.django_db

PANEL = "/profiles/panel/"
SIZING = "/profiles/sizing/"


@pytest.fixture
def world(team):
    home = make_site(team, "bj-a")
    h100 = make_offer(team, home, name="8x H100", gpu_mem_gb=80, gpus_per_machine=8, max_machines=4)
    l40s = make_offer(team, home, name="4x L40S", gpu_mem_gb=48, gpus_per_machine=4, max_machines=2)
    return {"home": home, "h100": h100, "l40s": l40s}


def legend(html: str) -> dict[str, str]:
    """The legend's words and figures, as a reader (or a screen reader) gets them."""
    items = re.findall(
        r'<span class="mem-legend__label">([^<]+)</span> <span class="mem-legend__gb">([^<]+)</span>',
        html,
    )
    return dict(items)


class BarGeometryTests:
    def test_the_axis_ends_on_a_round_figure(self):
        assert [nice_ceiling(v) for v in (134.4, 72, 19.9, 1344, 0.8, 250)] == [
            200, 100, 20, 2000, 1, 250,
        ]  # fmt: skip

    def test_parts_stack_in_order_and_markers_group_offers_by_usable_memory(self):
        breakdown = {"weights": 14, "gradients": 14, "optimizer": 84, "activations": 0,
                     "kv_cache": 0, "overhead": 22.4}  # fmt: skip
        rows = [
            {"offer": "1", "offer_name": "A", "usable_gpu_mem_gb": 72.0},
            {"offer": "2", "offer_name": "B", "usable_gpu_mem_gb": 72.0},
            {"offer": "3", "offer_name": "C", "usable_gpu_mem_gb": 126.9},
        ]
        bar = memory_bar(breakdown, rows)
        # 134.4 GB in all, the largest usable 126.9 GB: the axis ends at 200 GB.
        assert bar["total_gb"] == pytest.approx(134.4) and bar["scale_gb"] == 200
        # x and width in percent of 200 GB: 14 → 7 %, 84 → 42 %, 22.4 → 11.2 %.
        drawn = [(p["key"], p["x"], p["width"]) for p in bar["drawn"]]
        assert drawn == [
            ("weights", "0.000", "7.000"),
            ("gradients", "7.000", "7.000"),
            ("optimizer", "14.000", "42.000"),
            ("overhead", "56.000", "11.200"),
        ]
        # 72 / 200 = 36 %, 126.9 / 200 = 63.45 %; 134.4 GB fits neither one GPU.
        markers = [(m["gb"], m["x"], m["offers"], m["fits"]) for m in bar["markers"]]
        assert markers == [(72.0, "36.000", ["A", "B"], False), (126.9, "63.450", ["C"], False)]

    def test_no_breakdown_no_bar(self):
        assert memory_bar(None, []) is None


class PanelBarTests:
    def test_7b_bf16_training_shows_14_14_84_and_the_overhead(self, client, world, member):
        client.force_login(member)
        data = profile_data(world["home"], workload="training", params_b="7",
                            parallelism=["data", "tensor"])  # fmt: skip
        response = client.post(PANEL, data, **HX)
        html = response.content.decode()
        # SPEC 6.3 at bf16 (w = 2): weights 7 × 2 = 14, gradients 14, optimizer 7 × (16 − 4) = 84,
        # overhead 0.2 × 112 = 22.4; 134.4 GB in all, v1's 7 × 16 × 1.2.
        assert legend(html) == {
            "Weights": "14.0 GB",
            "Gradients": "14.0 GB",
            "Optimizer state": "84.0 GB",
            "Activations": "0.0 GB",
            "KV cache": "0.0 GB",
            "Overhead": "22.4 GB",
            "Total": "134.4 GB",
        }
        assert 'data-testid="memory-bar"' in html
        # Usable per GPU: 80 × 0.9 = 72 GB (H100), 48 × 0.9 = 43.2 GB (L40S), each named.
        assert "72.0 GB usable per GPU: 8x H100 · the replica needs several GPUs" in html
        assert "43.2 GB usable per GPU: 4x L40S · the replica needs several GPUs" in html
        # 84 GB of a 200 GB axis: the optimizer's segment is 42 % wide, after 28 GB (14 %).
        assert 'x="14.000%" y="6" width="42.000%"' in html
        assert "style=" not in html  # the CSP forbids style attributes: SVG attributes only

    def test_a_preset_with_activation_checkpointing_adds_its_activations(
        self, client, world, member
    ):
        client.force_login(member)
        data = profile_data(
            world["home"], workload="training", params_b="8.03", parallelism=["data", "sharded"],
            batch_size="1", seq_len="4096", hidden_size="4096", layers="32", heads="32",
            kv_heads="8", activation_checkpointing="on",
        )  # fmt: skip
        response = client.post(PANEL, data, **HX)
        # Llama-3-8B: weights = gradients = 8.03 × 2 = 16.06, optimizer 8.03 × 12 = 96.36;
        # checkpointed activations 32 layers × 2 × 4096 × 1 × 4096 bytes = 1,073,741,824 B
        # = 1.07 GB; overhead 0.2 × 129.55 = 25.91; total 155.46 GB.
        assert legend(response.content.decode()) == {
            "Weights": "16.1 GB",
            "Gradients": "16.1 GB",
            "Optimizer state": "96.4 GB",
            "Activations": "1.1 GB",
            "KV cache": "0.0 GB",
            "Overhead": "25.9 GB",
            "Total": "155.5 GB",
        }
        parts = {
            p["key"]: p["gb"] for p in response.context["evaluation"]["sizing"]["bar"]["parts"]
        }
        assert parts["activations"] == pytest.approx(1.073741824)
        assert sum(parts.values()) == pytest.approx(129.553741824 * 1.2)

    def test_inference_with_gqa_shows_its_kv_cache(self, client, world, member):
        client.force_login(member)
        data = profile_data(
            world["home"], params_b="8.03", batch_size="1", seq_len="4096", hidden_size="4096",
            layers="32", heads="32", kv_heads="8",
        )  # fmt: skip
        response = client.post(PANEL, data, **HX)
        # KV cache 2 × 32 layers × 8 KV heads × (4096 / 32 = 128) × 4096 × 1 × 2 bytes
        # = 536,870,912 B = 0.54 GB; weights 16.06; overhead 0.2 × 16.597 = 3.32; total 19.92.
        figures = legend(response.content.decode())
        assert (figures["KV cache"], figures["Total"]) == ("0.5 GB", "19.9 GB")
        assert "72.0 GB usable per GPU: 8x H100 · the replica fits one GPU" in (
            response.content.decode()
        )

    def test_a_measured_peak_has_no_breakdown(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, profile_data(world["home"], peak_gpu_mem_gb="30"), **HX)
        assert response.context["evaluation"]["sizing"]["bar"] is None
        assert 'data-testid="memory-bar"' not in response.content.decode()

    def test_the_chinese_page_names_the_parts_in_chinese(self, client, world, member):
        client.force_login(member)
        client.cookies["django_language"] = "zh-hans"
        data = profile_data(world["home"], workload="training", params_b="7",
                            parallelism=["data", "tensor"])  # fmt: skip
        html = client.post(PANEL, data, HTTP_ACCEPT_LANGUAGE="zh-hans", **HX).content.decode()
        figures = legend(html)
        assert figures["权重"] == "14.0 GB" and figures["优化器状态"] == "84.0 GB"
        assert "每块 GPU 可用 72.0 GB" in html


class DeadlineTests:
    def test_the_panel_shows_gpus_for_budget_with_the_default_efficiency(
        self, client, world, member
    ):
        client.force_login(member)
        data = profile_data(world["home"], gpus="8", compute_hours="48",
                            budget_compute_hours="24")  # fmt: skip
        response = client.post(PANEL, data, **HX)
        html = response.content.decode()
        rows = {r["offer_name"]: r for r in response.context["evaluation"]["sizing"]["rows"]}
        # work = 48 h × 8 GPUs = 384 GPU-h; 384 / g ≤ 24 → g ≥ 16 > 8 a machine, so at the
        # default e = 0.8: 384 / (g × 0.8) ≤ 24 → g ≥ 20 (H100, pool 4 × 8 = 32: it fits).
        assert rows["8x H100"]["gpus_for_budget"] == 20
        # L40S: 16 > 4 a machine → 20 GPUs too, but its pool is 2 × 4 = 8: it cannot.
        assert rows["4x L40S"]["gpus_for_budget"] is None
        assert "Planned: 8 GPUs." in html
        assert "For the compute budget of 24.0 h" in html
        assert "default scaling efficiency (0.80" in html
        assert "20 GPUs meet the compute budget" in html
        assert "cannot meet the budget" in html

    def test_the_profile_page_uses_the_measured_efficiency(self, client, team, world, member):
        profile = make_profile(team, world["home"], gpus=8, compute_hours=48,
                               budget_compute_hours=24)  # fmt: skip
        # A single/multi pair on the H100: 10 h on 8 GPUs, 5.5 h on 16: speedup 10 / 5.5 on
        # twice the GPUs, efficiency 1.8182 / 2 = 0.9091. 384 / (g × 0.9091) ≤ 24 → g ≥ 17.6.
        make_benchmark(team, profile, world["h100"], kind="single", nodes=1, e2e_hours=10,
                       compute_hours=10)  # fmt: skip
        make_benchmark(team, profile, world["h100"], kind="multi", nodes=2, e2e_hours=5.5,
                       compute_hours=5)  # fmt: skip
        client.force_login(member)
        response = client.get(f"/profiles/{profile.pk}/")
        html = response.content.decode()
        rows = {r["offer_name"]: r for r in response.context["evaluation"]["sizing"]["rows"]}
        assert rows["8x H100"]["gpus_for_budget"] == 18
        assert "measured on this task's single and multi-machine runs (0.91)" in html
        assert "GPUs for the budget" in html  # the page's table has the column

    def test_without_a_budget_nothing_is_said(self, client, world, member):
        client.force_login(member)
        html = client.post(PANEL, profile_data(world["home"]), **HX).content.decode()
        assert 'data-testid="budget-note"' not in html


class SizingPageTests:
    def test_it_draws_the_bar_and_sizes_for_a_deadline(self, client, world, member):
        client.force_login(member)
        query = {
            "params_b": "7", "precision": "bf16", "workload": "training",
            "parallelism": ["data", "tensor"], "gpus": "8", "compute_hours": "48",
            "budget_compute_hours": "24",
        }  # fmt: skip
        response = client.get(SIZING, query, **HX)
        html = response.content.decode()
        assert legend(html)["Optimizer state"] == "84.0 GB"
        assert legend(html)["Total"] == "134.4 GB"
        rows = {
            r["offer_name"]: r for r in response.context["result"]["evaluation"]["sizing"]["rows"]
        }
        assert rows["8x H100"]["gpus_for_budget"] == 20  # as worked in DeadlineTests
        assert "20 GPUs meet the compute budget" not in html  # the table says it in a column
        assert re.search(r'data-value="20">20\s*</td>', html)

    def test_it_refuses_a_partial_deadline_and_a_bad_shape_by_field(self, client, world, member):
        client.force_login(member)
        query = {"params_b": "7", "precision": "bf16", "workload": "training", "gpus": "8",
                 "hidden_size": "4096", "heads": "48"}  # fmt: skip
        response = client.get(SIZING, query, **HX)
        assert response.status_code == 200
        shown = re.findall(r"<p>([^<:]+): ([^<]+)</p>", response.content.decode())
        errors = {label: message for label, message in shown}
        together = "Enter the planned GPUs, the compute hours and the compute budget together"
        assert errors["Compute hours"].startswith(together)
        assert errors["Compute budget (h)"].startswith(together)
        assert errors["Attention heads"] == "The heads must divide the hidden size (4096) evenly."
        # The shape is all five or none: the three missing are named (hidden size and heads given).
        assert errors["Batch size"].startswith("Enter this with the other model shape fields")
        assert "Layers" in errors and "Planned GPUs" not in errors
