"""Engine 2.1 (SPEC 6.3): memory breakdown, deadline sizing, preemptible capacity and what flips
the decision. Every expected figure is worked by hand in the comment beside it."""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineInputError, evaluate, parse_input
from engine.presets import PRESETS

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    engine_inputs,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
GB = 1e9


def errors_of(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(EngineInputError) as caught:
        parse_input(data)
    return {e["field"]: e["message"] for e in caught.value.errors}


def sizing_of(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(s for s in out["sizing"]["offers"] if s["offer"] == offer_id)


LLAMA_3_8B = {"hidden_size": 4096, "layers": 32, "heads": 32, "kv_heads": 8}


class TestMemoryBreakdown:
    """SPEC 6.3 sizing.breakdown."""

    def test_it_splits_a_7b_bf16_training_job_into_14_14_84_and_22_4_gb(self):
        out = evaluate(make_input(task(workload="training", params_b=7, precision="bf16")))
        # w = 2 (bf16): weights 7 × 2 = 14, gradients 7 × 2 = 14, optimizer 7 × (16 − 2 × 2)
        # = 84 (Adam moments and fp32 master weights); overhead 0.2 × (14 + 14 + 84) = 22.4;
        # no model shape: no activations and no KV cache; total 134.4 = v1's 7 × 16 × 1.2.
        assert out["sizing"]["breakdown"] == {
            "weights": 14.0,
            "gradients": 14.0,
            "optimizer": 84.0,
            "activations": 0.0,
            "kv_cache": 0.0,
            "overhead": 22.4,
        }
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4

    def test_fp32_training_stores_weights_and_gradients_in_4_bytes(self):
        out = evaluate(make_input(task(workload="fine_tuning", params_b=7, precision="fp32")))
        b = out["sizing"]["breakdown"]
        # w = 4: weights 28, gradients 28, optimizer 7 × (16 − 8) = 56: still 16 bytes/param.
        assert (b["weights"], b["gradients"], b["optimizer"]) == (28.0, 28.0, 56.0)
        assert b["overhead"] == pytest.approx(22.4)  # 0.2 × 112

    def test_inference_and_adapter_tuning_keep_their_v1_totals(self):
        inference = evaluate(make_input(task(params_b=7, precision="int8")))["sizing"]
        # weights 7 × 1 = 7; overhead 1.4; total 8.4 = 7 × 1 × 1.2
        assert inference["breakdown"]["weights"] == 7.0
        assert inference["breakdown"]["overhead"] == pytest.approx(1.4)
        assert inference["estimated_gpu_mem_gb"] == pytest.approx(8.4)
        adapter = evaluate(make_input(task(workload="adapter_tuning", params_b=10)))["sizing"]
        # bf16: weights 10 × 2 = 20; optimizer 10 × 0.16 = 1.6; overhead 0.2 × 21.6 = 4.32
        assert adapter["breakdown"]["weights"] == 20.0
        assert adapter["breakdown"]["optimizer"] == pytest.approx(1.6)
        assert adapter["breakdown"]["overhead"] == pytest.approx(4.32)
        assert adapter["estimated_gpu_mem_gb"] == pytest.approx(25.92)

    def test_training_activations_follow_korthikanti_et_al_2022(self):
        # SPEC 7.1: Korthikanti's full formula is eager attention's (flash drops 5·a·s/h)
        t = task(
            workload="training",
            params_b=8.03,
            batch_size=1,
            seq_len=2048,
            attention="eager",
            **LLAMA_3_8B,
        )
        b = evaluate(make_input(t))["sizing"]["breakdown"]
        # per layer: s·b·h·(34 + 5·a·s/h) = 2048 · 1 · 4096 · (34 + 5 · 32 · 2048 / 4096)
        #          = 8,388,608 · (34 + 80) = 956,301,312 bytes; × 32 layers = 30,601,641,984 B
        assert b["activations"] == pytest.approx(30.601641984)
        # weights 16.06 + gradients 16.06 + optimizer 8.03 × 12 = 96.36 + 30.601642
        # = 159.081642; overhead 0.2 × that = 31.816328
        assert b["overhead"] == pytest.approx(31.8163283968)

    def test_activation_checkpointing_keeps_two_bytes_per_element_of_each_layer_input(self):
        t = task(
            workload="training",
            params_b=8.03,
            batch_size=1,
            seq_len=2048,
            activation_checkpointing=True,
            **LLAMA_3_8B,
        )
        b = evaluate(make_input(t))["sizing"]["breakdown"]
        # 2 · s · b · h = 2 · 2048 · 1 · 4096 = 16,777,216 bytes per layer; × 32 = 536,870,912
        assert b["activations"] == pytest.approx(0.536870912)

    def test_the_kv_cache_counts_grouped_query_heads(self):
        t = task(params_b=8.03, batch_size=8, seq_len=8192, **LLAMA_3_8B)
        out = evaluate(make_input(t))
        b = out["sizing"]["breakdown"]
        # 2 · layers · kv_heads · (hidden / heads) · seq · batch · 2 bytes (bf16)
        # = 2 · 32 · 8 · 128 · 8192 · 8 · 2 = 8,589,934,592 bytes
        assert b["kv_cache"] == pytest.approx(8.589934592)
        assert b["activations"] == 0.0  # inference keeps no activations for a backward pass
        # weights 8.03 × 2 = 16.06; total (16.06 + 8.589935) × 1.2 = 29.579922
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(29.5799215104)
        # Without grouped-query attention (32 KV heads) the cache is 4 × larger.
        mha = evaluate(make_input(task(**{**t, "kv_heads": 32})))["sizing"]["breakdown"]
        assert mha["kv_cache"] == pytest.approx(4 * 8.589934592)

    def test_kv_heads_default_to_heads(self):
        shape = {k: v for k, v in LLAMA_3_8B.items() if k != "kv_heads"}
        t = task(params_b=8.03, batch_size=1, seq_len=1024, **shape)
        b = evaluate(make_input(t))["sizing"]["breakdown"]
        # 2 · 32 · 32 · 128 · 1024 · 1 · 2 = 536,870,912 bytes
        assert b["kv_cache"] == pytest.approx(0.536870912)

    def test_the_parts_sum_to_the_estimate_and_size_the_offers(self):
        t = task(workload="training", params_b=8.03, batch_size=2, seq_len=4096, **LLAMA_3_8B)
        out = evaluate(make_input(t))
        parts = out["sizing"]["breakdown"]
        assert sum(parts.values()) == pytest.approx(out["sizing"]["estimated_gpu_mem_gb"])
        mem = out["sizing"]["estimated_gpu_mem_gb"]
        assert sizing_of(out, "local")["gpus_needed"] == math.ceil(mem / 72)  # 80 GB × 0.9

    def test_a_measured_peak_overrides_and_has_no_breakdown(self):
        out = evaluate(make_input(task(workload="training", peak_gpu_mem_gb=50)))
        assert out["sizing"]["source"] == "measured"
        assert out["sizing"]["breakdown"] is None
        assert out["sizing"]["formula_gpu_mem_gb"] == pytest.approx(134.4)

    def test_a_workload_without_a_formula_has_no_breakdown(self):
        out = evaluate(make_input(task(workload="data_processing")))
        assert out["sizing"]["source"] == "none"
        assert out["sizing"]["breakdown"] is None


class TestModelShapeContract:
    """SPEC 6.2 applied to the 6.3 fields: refused by path, never a 500."""

    def test_a_negative_batch_is_refused(self):
        t = task(batch_size=-4, seq_len=512, hidden_size=1024, layers=24, heads=16)
        assert errors_of(make_input(t)) == {"task.batch_size": "must be ≥ 1"}

    def test_heads_must_divide_the_hidden_size(self):
        t = task(batch_size=1, seq_len=512, hidden_size=1000, layers=24, heads=16)
        assert errors_of(make_input(t)) == {"task.heads": "must divide hidden_size (1000)"}

    def test_kv_heads_above_heads_are_refused(self):
        t = task(batch_size=1, seq_len=512, hidden_size=1024, layers=24, heads=16, kv_heads=32)
        assert errors_of(make_input(t)) == {"task.kv_heads": "must be ≤ heads (16)"}

    def test_kv_heads_must_divide_heads(self):
        t = task(batch_size=1, seq_len=512, hidden_size=1024, layers=24, heads=16, kv_heads=6)
        assert errors_of(make_input(t)) == {"task.kv_heads": "must divide heads (16)"}

    def test_the_shape_comes_whole(self):
        errors = errors_of(make_input(task(hidden_size=1024, heads=16)))
        together = "is required with the other model shape fields "
        together += "(batch_size, seq_len, hidden_size, layers, heads)"
        assert errors == {
            "task.batch_size": together,
            "task.seq_len": together,
            "task.layers": together,
        }

    def test_shape_fields_are_integers(self):
        t = task(batch_size=1.5, seq_len=512, hidden_size=1024, layers=True, heads=16)
        assert errors_of(make_input(t)) == {
            "task.batch_size": "must be an integer",
            "task.layers": "must be an integer, not a boolean",
        }

    def test_checkpointing_is_a_boolean(self):
        assert errors_of(make_input(task(activation_checkpointing="yes"))) == {
            "task.activation_checkpointing": "must be true or false"
        }


class TestPresets:
    def test_the_required_models_are_there_with_a_source(self):
        assert {"Llama-3-8B", "Llama-3-70B", "Mistral-7B", "Qwen2-7B", "BERT-large"} <= set(PRESETS)
        for preset in PRESETS.values():
            assert preset.source.startswith("https://huggingface.co/")
            assert preset.source.endswith("/config.json")

    def test_config_values_as_published(self):
        # config.json: hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads
        shapes = {
            name: (p.hidden_size, p.layers, p.heads, p.kv_heads) for name, p in PRESETS.items()
        }
        assert shapes["Llama-3-8B"] == (4096, 32, 32, 8)
        assert shapes["Llama-3-70B"] == (8192, 80, 64, 8)
        assert shapes["Mistral-7B"] == (4096, 32, 32, 8)
        assert shapes["Qwen2-7B"] == (3584, 28, 28, 4)
        assert shapes["BERT-large"] == (1024, 24, 16, 16)

    @pytest.mark.parametrize("name", sorted(PRESETS))
    def test_every_preset_is_a_valid_model_shape(self, name):
        fields = PRESETS[name].task_fields()
        t = task(workload="training", batch_size=1, seq_len=512, **fields)
        out = evaluate(make_input(t))
        assert out["sizing"]["breakdown"]["activations"] > 0


class TestDeadlineSizing:
    """SPEC 6.3 sizing.offers[].gpus_for_budget."""

    @staticmethod
    def _input(budget, benchmarks=None, thresholds=None, **offer_fields):
        t = task(
            workload="data_processing",
            compute_hours=40,
            gpus=8,
            latency_budget_hours={"compute": budget},
        )
        return make_input(
            t,
            offers=[offer("local", **offer_fields)],
            benchmarks=benchmarks,
            thresholds=thresholds,
        )

    def test_without_a_measured_pair_it_counts_0_8_beyond_one_machine(self):
        out = evaluate(self._input(10))
        # work = 40 h × 8 GPUs = 320 GPU-h; 320 / (g × 1.0) ≤ 10 → g ≥ 32 > 8 per machine,
        # so e = 0.8: 320 / (g × 0.8) ≤ 10 → g ≥ 40.
        assert sizing_of(out, "local")["gpus_for_budget"] == 40
        assert out["sizing"]["budget_efficiency"] == 0.8
        assert out["sizing"]["budget_efficiency_source"] == "threshold"

    def test_with_a_measured_pair_it_counts_the_measured_efficiency(self):
        bench = [
            {"kind": "single", "offer": "local", "nodes": 1, "gpus_per_node": 8,
             "e2e_hours": 10, "compute_hours": 10},
            {"kind": "multi", "offer": "local", "nodes": 2, "gpus_per_node": 8,
             "e2e_hours": 5.5, "compute_hours": 5},
        ]  # fmt: skip
        out = evaluate(self._input(10, benchmarks=bench))
        # speedup 10 / 5.5 = 1.818182 on 16 vs 8 GPUs: efficiency 1.818182 / 2 = 0.909091;
        # 320 / (g × 0.909091) ≤ 10 → g ≥ 35.2 → 36.
        assert sizing_of(out, "local")["gpus_for_budget"] == 36
        assert out["sizing"]["budget_efficiency"] == pytest.approx(10 / 11)
        assert out["sizing"]["budget_efficiency_source"] == "measured"

    def test_within_one_machine_scaling_is_perfect(self):
        out = evaluate(self._input(80))
        # 320 / (g × 1.0) ≤ 80 → g ≥ 4 ≤ 8 per machine
        assert sizing_of(out, "local")["gpus_for_budget"] == 4

    def test_a_faster_offer_needs_fewer(self):
        out = evaluate(self._input(10, relative_speed=2))
        # 320 / (g × 2) ≤ 10 → g ≥ 16 > 8 → 320 / (g × 0.8 × 2) ≤ 10 → g ≥ 20
        assert sizing_of(out, "local")["gpus_for_budget"] == 20

    def test_the_team_threshold_sets_the_default_efficiency(self):
        out = evaluate(self._input(10, thresholds={"multi_machine_efficiency": 0.5}))
        # 320 / (g × 0.5) ≤ 10 → g ≥ 64
        assert sizing_of(out, "local")["gpus_for_budget"] == 64

    def test_it_is_null_when_the_pool_cannot_meet_the_budget(self):
        out = evaluate(self._input(10, max_machines=4))
        # 40 GPUs needed; the pool holds 4 × 8 = 32
        assert sizing_of(out, "local")["gpus_for_budget"] is None

    def test_it_is_null_without_a_compute_budget(self):
        out = evaluate(self._input(None))
        assert sizing_of(out, "local")["gpus_for_budget"] is None
        assert out["sizing"]["budget_efficiency"] is None

    def test_the_threshold_is_bounded(self):
        assert errors_of(make_input(thresholds={"multi_machine_efficiency": 0})) == {
            "thresholds.multi_machine_efficiency": "must be > 0"
        }


class TestPreemptibleCapacity:
    """SPEC 6.3 preemption_cost and G4."""

    @staticmethod
    def _input(**task_fields):
        t = task(compute_hours=48, gpus=8, **task_fields)
        spot = offer("spot", preemptible=True, preemptions_per_day=3)
        return make_input(t, offers=[spot])

    def test_a_resumable_task_loses_half_a_checkpoint_interval_per_preemption(self):
        out = evaluate(self._input(resumable=True, checkpoint_interval_hours=2))
        spot = option_of(out, "spot")
        # 3/day × 48 h / 24 = 6 preemptions × (2 h / 2) lost × 8 GPUs × 2.0 = 96
        assert spot["preemption_cost"] == 96.0
        # total = compute 8 × 48 × 2.0 = 768 + 96
        assert spot["total_cost"] == 864.0
        assert out["bill"][0]["preemption_cost"] == 96.0
        assert out["bill"][0]["total"] == 864.0
        assert "G4" not in rules(out)

    def test_the_checkpoint_interval_defaults_to_one_hour(self):
        spot = option_of(evaluate(self._input(resumable=True)), "spot")
        # 6 preemptions × 0.5 h × 16 per hour = 48
        assert spot["preemption_cost"] == 48.0

    def test_a_task_that_cannot_resume_restarts_from_zero_and_gets_G4(self):
        out = evaluate(self._input(resumable=False, interruption_cost_hours=5))
        spot = option_of(out, "spot")
        # SPEC 7.3 (2.2 charged 6 preemptions × 5 h × 16 = 480 and kept it feasible): λ = 3 a
        # day × 1 machine ÷ 24 = 0.125 an hour, λT = 0.125 × 48 = 6 > 2: preempted_before_done.
        # Still reported: wall time (e^6 − 1) ÷ 0.125 = 8 × 402.4287935 = 3219.430348 h, lost
        # 3219.430348 − 48 = 3171.430348 h, × 16 per hour = 50742.885567
        assert (spot["feasible"], spot["reasons"]) == (False, ["preempted_before_done"])
        assert spot["preemption_hours"] == pytest.approx(8 * math.expm1(6) - 48, abs=1e-6)
        assert spot["preemption_hours"] == pytest.approx(3171.430348, abs=1e-6)
        assert spot["preemption_cost"] == pytest.approx(16 * (8 * math.expm1(6) - 48), abs=1e-5)
        [g4] = findings_of(out, "G4")
        assert g4["severity"] == "warn"
        assert g4["offer"] == "spot"
        assert g4["message"].startswith("Candidate spot is preemptible capacity (3 expected")
        assert "不能续跑" in g4["message_zh"]

    def test_on_demand_capacity_costs_nothing_extra(self):
        out = evaluate(make_input(task(resumable=False)))
        assert option_of(out, "local")["preemption_cost"] == 0.0
        assert option_of(out, "local")["preemptible"] is False

    def test_preemptions_without_preemptible_are_refused(self):
        data = make_input(offers=[offer("a", preemptions_per_day=2)])
        assert errors_of(data) == {
            "offers[0].preemptions_per_day": "only a preemptible offer has preemptions "
            "(set preemptible: true)"
        }

    def test_a_preemptible_offer_states_its_rate(self):
        data = make_input(offers=[offer("a", preemptible=True)])
        assert errors_of(data) == {
            "offers[0].preemptions_per_day": "is required for a preemptible offer "
            "(expected preemptions per day; 0 if none)"
        }

    def test_a_negative_rate_is_refused(self):
        data = make_input(offers=[offer("a", preemptible=True, preemptions_per_day=-1)])
        assert errors_of(data) == {"offers[0].preemptions_per_day": "must be ≥ 0"}


def _flip(out: dict[str, Any], path: str) -> dict[str, Any]:
    return next(f for f in out["sensitivity"] if f["input"] == path)


class TestSensitivity:
    """SPEC 6.3 sensitivity: exact break-even values, checked against arithmetic by hand.

    Two options: `local` at home (queue 10 h, 2.0 per GPU-hour) and `far` at far (queue 0,
    3.0 per GPU-hour); 8 GPUs for 10 h; waiting is worth 20 per hour. Only `far` moves
    something: the 10 GB image over home–far (5 Gbit/s, 0.03 per GB, cross-hub buffer 0.3):
    10 × 8 / (5 × 3600) × 1.3 = 104 / 18000 h = 0.005778 h, costing 10 × 0.03 = 0.30.
      local: cost 8 × 10 × 2 = 160; hours 10 + 10 = 20;        objective 160 + 400 = 560
      far:   cost 8 × 10 × 3 + 0.3 = 240.3; hours 10.005778;   objective 240.3 + 200.115556
             = 440.415556 → far is chosen, local is the runner-up.
    """

    IMAGE_HOURS = 104 / 18000
    FAR_OBJECTIVE = 240.3 + 20 * (10 + 104 / 18000)

    @staticmethod
    def _input(**task_fields):
        t = task(compute_hours=10, gpus=8, delay_cost_per_hour=20, **task_fields)
        return make_input(t, offers=[offer("local", "home"), offer("far", "far", price=3.0)])

    def test_the_runner_up_is_named(self):
        out = evaluate(self._input())
        assert out["chosen"]["offer"] == "far"
        assert out["runner_up"] == {"kind": "wait_local", "site": "home", "offer": "local"}

    def test_the_home_queue_flips_at_4_02_hours(self):
        out = evaluate(self._input())
        flip = _flip(out, "sites[0].queue_hours")
        # local's objective is 160 + 20 × (q + 10); it wins when that is below 440.415556:
        # q < (440.415556 − 360) / 20 = 4.020778 h
        assert flip["current"] == 10.0
        assert flip["flips_at"] == pytest.approx((self.FAR_OBJECTIVE - 360) / 20, abs=1e-6)
        assert flip["flips_at"] == pytest.approx(4.020778, abs=1e-6)
        assert flip["to"] == {"kind": "wait_local", "site": "home", "offer": "local"}

    def test_the_chosen_price_flips_where_its_extra_cost_eats_the_gap(self):
        flip = _flip(evaluate(self._input()), "offers[1].price")
        # far's objective rises 8 GPUs × 10 h = 80 per unit of price; gap 560 − 440.415556 =
        # 119.584444 → 3 + 119.584444 / 80 = 4.494806
        assert flip["flips_at"] == pytest.approx(3 + (560 - self.FAR_OBJECTIVE) / 80, abs=1e-6)
        assert flip["flips_at"] == pytest.approx(4.494806, abs=1e-6)

    def test_the_runner_ups_price_flips_below(self):
        flip = _flip(evaluate(self._input()), "offers[0].price")
        # local falls 80 per unit: 2 − 119.584444 / 80 = 0.505194
        assert flip["flips_at"] == pytest.approx(0.505194, abs=1e-6)

    def test_the_delay_cost_flips_where_the_hour_gap_pays_for_the_price_gap(self):
        flip = _flip(evaluate(self._input()), "task.delay_cost_per_hour")
        # local − far = (160 − 240.3) + d × (20 − 10.005778) < 0 → d < 80.3 / 9.994222
        #                                                                = 8.034642
        expected = 80.3 / (20 - (10 + self.IMAGE_HOURS))
        assert flip["flips_at"] == pytest.approx(expected, abs=1e-6)
        assert flip["flips_at"] == pytest.approx(8.034642, abs=1e-6)

    def test_the_image_link_flips_when_its_bandwidth_is_tiny(self):
        out = evaluate(self._input())
        flip = _flip(out, "links[2].bandwidth_gbps")
        # far's image hours are 104 / 18000 × 5 / bw; far loses when its objective exceeds
        # 560: 240.3 + 20 × (10 + 0.028889 / bw) > 560 → bw < 0.577778 / 119.7 = 0.004827
        assert flip["flips_at"] == pytest.approx(20 * 104 * 5 / 18000 / (560 - 440.3), abs=1e-6)
        price = _flip(out, "links[2].price_per_gb")
        # 10 GB × p: 240 + 10 p + 200.115556 > 560 → p > 0.03 + 11.958444
        assert price["flips_at"] == pytest.approx(0.03 + (560 - self.FAR_OBJECTIVE) / 10)

    def test_the_compress_ratio_does_not_matter_when_no_data_moves(self):
        flip = _flip(evaluate(self._input()), "task.compress_ratio")
        assert flip["current"] == 1.0
        assert flip["flips_at"] is None
        assert flip["to"] is None

    def test_the_nearest_flips_are_told_in_both_languages(self):
        out = evaluate(self._input())
        told = sorted((f for f in out["sensitivity"] if f["message"]), key=lambda f: f["rank"])
        assert [f["rank"] for f in told] == [1, 2, 3]
        queue = _flip(out, "sites[0].queue_hours")
        # relative changes: price 0.498 (offers[1]), queue 0.598, delay 0.598, local price 0.747
        assert queue["message"] == (
            "If the home queue drops below 4.021 h (now 10 h), the choice flips to: "
            "wait locally at home (local)."
        )
        assert queue["message_zh"] == (
            "若 home 的排队时间降到 4.021 小时以下(现为 10 小时),选择会变为:就近等待,站点 home(local)。"
        )
        assert _flip(out, "offers[1].price")["rank"] == 1

    def test_offers_are_named_in_messages(self):
        data = self._input()
        data["offers"][1]["name"] = "Far spot"
        flip = _flip(evaluate(data), "offers[1].price")
        assert flip["message"].startswith("If the price of Far spot (#far) rises above 4.495")

    def test_a_single_feasible_option_has_nothing_to_flip_to(self):
        out = evaluate(make_input())
        assert out["runner_up"] is None
        assert out["sensitivity"] == []

    def test_it_can_be_left_out(self):
        out = evaluate(self._input(), with_sensitivity=False)
        assert out["sensitivity"] == [] and out["runner_up"] is None
        with_it = evaluate(self._input())
        assert {k: v for k, v in with_it.items() if k not in ("sensitivity", "runner_up")} == {
            k: v for k, v in out.items() if k not in ("sensitivity", "runner_up")
        }


# ---------------------------------------------------------------------------------------------
# Property: moving an input past its reported flips_at (and only then) changes the choice.

PATH = re.compile(r"^(task|sites|links|offers)(?:\[(\d+)\])?\.(\w+)$")


def _set(data: dict[str, Any], path: str, value: float) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    match = PATH.match(path)
    assert match, path
    where, index, key = match.groups()
    target = changed[where] if index is None else changed[where][int(index)]
    target[key] = value
    return changed


def _between(flip: dict[str, Any], share: float) -> float:
    """The input at `share` of the way from now to flips_at (1.01: just past it), in the
    coordinate the objective is linear in (1 / bandwidth for a link's bandwidth)."""
    now, at = flip["current"], flip["flips_at"]
    if flip["input"].endswith("bandwidth_gbps"):
        return 1 / (1 / now + share * (1 / at - 1 / now))
    return now + share * (at - now)


def _linear(flip: dict[str, Any], value: float) -> float:
    """`value` of the flip's input in the coordinate its objective is linear in."""
    return 1 / value if flip["input"].endswith("bandwidth_gbps") else value


def _within_orders(a: float, b: float, orders: int) -> bool:
    low, high = sorted((abs(a), abs(b)))
    return high <= 10**orders * max(low, 1e-3)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(engine_inputs(min_offers=2), st.data())
def test_moving_an_input_past_flips_at_and_only_then_changes_the_choice(data, draw):
    out = evaluate(data)
    objectives = sorted(o["objective"] for o in out["options"] if o["feasible"])
    if len(objectives) < 2 or objectives[1] - objectives[0] <= 1e-6 * max(1.0, objectives[0]):
        return  # a near-tie now: float rounding, not the method, would decide it
    flips = [
        f
        for f in out["sensitivity"]
        if f["flips_at"] is not None
        # far enough from now that the output's rounding cannot matter
        and abs(f["flips_at"] - f["current"]) > 1e-3 * max(1.0, abs(f["current"]))
        # and within six orders of magnitude of now in the coordinate the objective is linear in
        # (1 / bandwidth for a link): past that, adding huge hours absorbs the small gaps between
        # options whose lines run parallel (float rounding, not the method). A bandwidth flip at
        # 5.5e-234 Gbit/s once passed a check made on the bandwidth itself.
        and _within_orders(_linear(f, f["flips_at"]), _linear(f, f["current"]), 6)
    ]
    if not flips:
        return
    flip = draw.draw(st.sampled_from(flips))
    short = evaluate(_set(data, flip["input"], _between(flip, 0.99)))
    assert short["chosen"] == out["chosen"], flip
    past_value = _between(flip, 1.01)
    if past_value < 0 or (flip["input"] == "task.compress_ratio" and past_value > 1):
        return  # it flips at the very edge of the input's range (0, or a ratio of 1)
    past = evaluate(_set(data, flip["input"], past_value))
    assert past["chosen"] != out["chosen"], flip


# ---------------------------------------------------------------------------------------------
# docs/engine.md: the memory estimate against published figures stays true.


def _comparison_rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- memory-comparison -->")
    rows = []
    for line in text[start:].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("case", "---") or set(cells[0]) <= {"-"}:
            continue
        rows.append(cells)
    return rows


# The engine input of each row of the comparison table (by its case id).
COMPARED = {
    "accelerate-bert-base-inference": task(params_b=0.10831, precision="fp32"),
    "accelerate-bert-base-training": task(workload="training", params_b=0.10831, precision="fp32"),
    "zero-gpt2-1.5b": task(workload="training", params_b=1.5, precision="fp16"),
    "hf-bert-large-measured": task(
        workload="training",
        precision="fp32",
        attention="eager",  # SPEC 7.1: that run's BERT stored its attention scores
        batch_size=4,
        seq_len=512,
        **PRESETS["BERT-large"].task_fields(),
    ),
}


def test_the_memory_comparison_table_is_what_the_engine_says():
    rows = _comparison_rows()
    assert len(rows) >= 3
    assert {row[0].strip("`") for row in rows} == set(COMPARED)
    for row in rows:
        case = row[0].strip("`")
        published_gb, engine_gb, ratio = float(row[3]), float(row[4]), float(row[5])
        estimate = evaluate(make_input(COMPARED[case]))["sizing"]["estimated_gpu_mem_gb"]
        assert round(estimate, 3) == engine_gb, case
        assert round(estimate / published_gb, 3) == ratio, case
