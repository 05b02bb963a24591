"""SPEC A and 6.3 sizing at its bounds: deadline sizing (gpus_for_budget) exactly at, just under
and just over one machine and the pool, with no work, no budget, a vanishing budget and a
superlinear measured efficiency; the memory parts that only adapter tuning and fp32 inference
reach; one machine and the near-capacity band at their edges; the A note of a measured peak.

Every expected figure is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from typing import Any

from engine import evaluate, parse_input
from engine.output import num
from engine.sizing import gpus_for_budget, memory_breakdown

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    approx,
    findings_of,
    make_input,
    offer,
    sizing_row,
    task,
)


def budget_gpus(compute_hours: float, gpus: Any, budget: Any, efficiency: float = 0.8,
                **offer_fields: Any) -> int | None:  # fmt: skip
    """gpus_for_budget for one 8-GPU offer at speed 1.0."""
    t = task(compute_hours=compute_hours, gpus=gpus, latency_budget_hours={"compute": budget})
    inp = parse_input(make_input(t, offers=[offer("o", **offer_fields)]))
    return gpus_for_budget(inp, inp.offers[0], efficiency)


class TestGpusForBudget:
    def test_no_budget_or_no_planned_count(self):
        assert budget_gpus(40, 8, None) is None
        assert budget_gpus(40, None, 10) is None

    def test_no_work_needs_one_gpu_even_with_a_zero_budget(self):
        assert budget_gpus(0, 8, 0) == 1  # 0 h × 8 = 0 GPU-h

    def test_under_one_gpu_hour_of_work(self):
        # 0.5 h × 1 GPU = 0.5 GPU-h in 0.1 h: 0.5 / 0.1 = 5 GPUs (one machine, perfect scaling)
        assert budget_gpus(0.5, 1, 0.1) == 5

    def test_a_zero_budget_cannot_be_met(self):
        assert budget_gpus(4, 1, 0) is None

    def test_a_one_hour_budget(self):
        assert budget_gpus(4, 1, 1) == 4  # 4 GPU-h in 1 h: 4 GPUs

    def test_no_efficiency_cannot_meet_it(self):
        assert budget_gpus(80, 1, 1, efficiency=0) is None

    def test_a_vanishing_budget_cannot_be_met(self):
        # 1e12 GPU-h in 6.7e-297 h: 1.49e308 GPUs at perfect scaling, ÷ 0.8 overflows: none.
        assert budget_gpus(1e12, 1, 6.7e-297, efficiency=0.5) is None

    def test_exactly_one_machine_scales_perfectly(self):
        # 80 GPU-h in 10 h: 8 GPUs = one machine of 8, so no efficiency applies
        assert budget_gpus(80, 1, 10) == 8

    def test_just_over_one_machine_takes_at_least_one_more_gpu(self):
        # 85 GPU-h in 10 h: 8.5 → 9 GPUs > 8; at efficiency 1.0: 8.5 / 1.0 → 9; at least 8 + 1
        assert budget_gpus(85, 1, 10, efficiency=1.0) == 9
        # a measured efficiency above 1 (superlinear): 8.5 / 1.2 = 7.08 → 8, but past one
        # machine means at least 8 + 1 = 9
        assert budget_gpus(85, 1, 10, efficiency=1.2) == 9

    def test_exactly_the_pool(self):
        # 128 GPU-h in 10 h: 12.8 → 13 > 8 → 12.8 / 0.8 = 16 GPUs = 2 machines × 8
        assert budget_gpus(128, 1, 10, max_machines=2) == 16
        assert budget_gpus(128, 1, 10, max_machines=1) is None  # 16 > 8


class TestMemoryParts:
    SHAPE = {"seq_len": 1000, "batch_size": 2, "hidden_size": 1000, "layers": 10, "heads": 10}

    def test_adapter_tuning_counts_activations(self):
        t = task(workload="adapter_tuning", params_b=1, precision="bf16",
                 activation_checkpointing=True, **self.SHAPE)  # fmt: skip
        b = memory_breakdown(parse_input(make_input(t)).task)
        # checkpointed: 2 × s × b × h = 2 × 1000 × 2 × 1000 = 4e6 bytes a layer × 10 layers ×
        # 2 bytes / 2 = 4e7 bytes = 0.04 GB; weights 1 × 2 = 2; optimizer 1 × 0.16 = 0.16;
        # parts 2.2 × 1.2 = 2.64, overhead 0.44
        assert b.activations == approx(0.04)
        assert (b.weights, b.optimizer, b.gradients) == (2.0, approx(0.16), 0.0)
        assert b.total == approx(2.64)
        assert b.overhead == approx(0.44)

    def test_fp32_inference_keys_and_values_take_four_bytes(self):
        t = task(workload="inference", params_b=1, precision="fp32", kv_heads=5, **self.SHAPE)
        b = memory_breakdown(parse_input(make_input(t)).task)
        # 2 × 10 layers × 5 kv heads × (1000 / 10 = 100) × 1000 × 2 × 4 bytes = 8e7 = 0.08 GB;
        # weights 1 × 4 = 4; total (4 + 0.08) × 1.2 = 4.896
        assert b.kv_cache == approx(0.08)
        assert b.total == approx(4.896)


class TestV1Figure:
    def test_without_the_shape_the_total_is_v1s_figure_to_the_last_bit(self):
        # v1: params × (bytes per parameter + 0.16) × 1.2 for adapter tuning. Summing the parts
        # and adding 20 % instead gives 8592480001.296 here, v1 8592480001.296001 (6 decimals).
        params = 3315000000.5
        t = task(workload="adapter_tuning", params_b=params, precision="bf16")
        out = evaluate(make_input(t))
        assert out["sizing"]["estimated_gpu_mem_gb"] == num(params * (2.0 + 0.16) * 1.2)
        assert out["sizing"]["estimated_gpu_mem_gb"] == 8592480001.296001


def _measured(peak: float, **thresholds: Any) -> dict[str, Any]:
    # One 8 × 80 GB offer: 80 × 0.9 = 72 GB usable a GPU, 576 GB a machine.
    t = task(peak_gpu_mem_gb=peak, parallelism=["tensor"])
    return evaluate(make_input(t, thresholds=thresholds or None))


class TestOneMachineAndNearCapacity:
    def test_eight_gpus_fit_one_machine_nine_do_not(self):
        row = sizing_row(_measured(576), "local")  # 576 / 72 = 8 GPUs = 1 machine
        assert (row["gpus_needed"], row["machines_needed"], row["fits_single_machine"]) == (
            8,
            1,
            True,
        )
        row = sizing_row(_measured(648), "local")  # 648 / 72 = 9 GPUs = 2 machines
        assert (row["gpus_needed"], row["machines_needed"], row["fits_single_machine"]) == (
            9,
            2,
            False,
        )

    def test_near_capacity_starts_just_above_the_band(self):
        # band 0.25: near when memory > 0.75 × 576 = 432 GB
        assert (
            sizing_row(_measured(432, near_capacity_band=0.25), "local")["near_capacity"] is False
        )
        assert (
            sizing_row(_measured(432.5, near_capacity_band=0.25), "local")["near_capacity"] is True
        )

    def test_a_measured_peak_is_stated_as_such(self):
        t = task(peak_gpu_mem_gb=100, parallelism=["tensor"])
        offers = [offer("a"), offer("b", gpus_per_machine=1)]
        out = evaluate(make_input(t, offers=offers))
        # 100 / 72 → 2 GPUs: a has 8 a machine (fits one), b has 1 (needs 2 machines). SPEC 7.8:
        # A counts the offers where the task is not refused for its size: on b the 8 planned
        # GPUs hold the 2 a tensor-split replica needs, so both count (2.2 counted one machine).
        [f] = findings_of(out, "A")
        assert (f["severity"], f["key"]) == ("info", "A.measured")
        assert f["data"] == {"mem_gb": 100.0, "fit_count": 2, "offer_count": 2}
        assert f["message"].endswith("fits on 2 of 2 offers.")
