"""Method version 2 (SPEC 6.1 corrections, 6.2 strict input), one class per corrected rule:
parallelism, fine-tuning, measured gains, like-for-like pairs and the platform rules.

Each test builds the case that engine 1.x decided wrongly and asserts the figure v2 must give.
Every expected figure is a literal worked out by hand in the comment beside it (never obtained by
running the engine). Leg hours = gb × 8 / (bandwidth_gbps × 3600) × (1 + buffer), with the tier
buffers same_datacenter 0.0, same_city 0.1, cross_hub 0.3.
"""

from __future__ import annotations

from typing import Any

from engine import (
    evaluate,
)

from .engine_fixtures import (
    ANSWERED,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    approx,
    big_sharded_training,
    findings_of,
    make_input,
    multi,
    offer,
    rules,
    single,
    sizing_row,
    task,
)

# ---------------------------------------------------------------------------------------------
# Sizing: sharded data parallelism and full fine-tuning


class TestShardedParallelism:
    def _input(self, parallelism: list[str]) -> dict[str, Any]:
        t = task(
            workload="fine_tuning",
            params_b=7,
            precision="bf16",
            parallelism=parallelism,
            cadence="recurring",
        )
        offers = [offer("node", gpus_per_machine=8, gpu_mem_gb=80, parallelism=parallelism)]
        return make_input(t, offers=offers)

    def test_A_sharded_7b_full_fine_tune_fits_one_machine(self):
        """v1 counted only tensor/pipeline as splitting the model, so FSDP/ZeRO-3 on one 8-GPU
        node "did not fit one machine" and a recurring job with machines got R1d
        (distributed_platform)."""
        out = evaluate(self._input(["data", "sharded"]))
        # 7 × 16 × 1.2 = 134.4 GB; usable 80 × 0.9 = 72 GB; ceil(134.4 / 72 = 1.87) = 2 GPUs
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4
        row = sizing_row(out, "node")
        assert row["usable_gpu_mem_gb"] == 72.0
        assert (row["gpus_needed"], row["machines_needed"]) == (2, 1)
        assert row["fits_single_gpu"] is False
        assert row["fits_single_machine"] is True
        assert row["near_capacity"] is False  # 134.4 ≤ 0.85 × 8 × 72 = 489.6
        assert (out["platform"], out["platform_rule"]) == ("compute_platform", "R5")

    def test_A_plain_data_parallel_does_not_fit_one_machine(self):
        out = evaluate(self._input(["data"]))
        assert sizing_row(out, "node")["fits_single_machine"] is False


class TestFineTuningWorkloads:
    def test_A_fine_tuning_is_full_fine_tuning(self):
        """v1 sized `fine_tuning` as an adapter: 7 × (2 + 0.16) × 1.2 = 18.144 GB."""
        out = evaluate(make_input(task(workload="fine_tuning", params_b=7)))
        # 7 × 16 × 1.2 = 134.4 GB, like training
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4
        assert sizing_row(out, "local")["gpus_needed"] == 2  # ceil(134.4 / 72)

    def test_A_adapter_tuning_is_the_lora_formula(self):
        out = evaluate(make_input(task(workload="adapter_tuning", params_b=7, precision="bf16")))
        # 7 × (2 + 0.16) × 1.2 = 7 × 2.592 = 18.144 GB → 1 GPU
        assert out["sizing"]["estimated_gpu_mem_gb"] == 18.144
        assert sizing_row(out, "local")["fits_single_gpu"] is True


# ---------------------------------------------------------------------------------------------
# R6: a measured cross-machine gain moves the platform


class TestR6MeasuredGain:
    def _out(self, *, cadence="recurring", has_machines=True, bench=None):
        t = task(cadence=cadence, runs_per_quarter=4, team={"has_machines": has_machines})
        # single 1 × 8 GPUs 18 h, multi 2 × 8 = 16 GPUs 10 h, both on `local`
        bench = bench if bench is not None else [single(18), multi(10)]
        return evaluate(make_input(t, benchmarks=bench))

    def test_R6_clear_gain_on_a_recurring_job_goes_distributed(self):
        """v1 ignored a measured gain: a job that fits one machine always got R5
        (compute_platform)."""
        out = self._out()
        # speedup 18 / 10 = 1.8; efficiency 1.8 / (16 / 8) = 0.9 ≥ 0.7; no reruns → B2 silent
        assert out["benchmark"]["speedup"] == 1.8
        assert out["benchmark"]["scaling_efficiency"] == 0.9
        assert (out["platform"], out["platform_rule"]) == ("distributed_platform", "R6")
        [r6] = findings_of(out, "R6")
        assert r6["data"]["offer"] == "local"

    def test_R6_without_machines_is_both(self):
        out = self._out(has_machines=False)
        assert (out["platform"], out["platform_rule"]) == ("both", "R6")

    def test_R6_not_for_a_one_off_job(self):
        out = self._out(cadence="one_off")
        assert "R6" not in rules(out)
        assert out["platform_rule"] == "R5"

    def test_R6_not_below_the_scaling_efficiency_minimum(self):
        # multi 4 × 8 = 32 GPUs in 10 h: speedup 1.8, efficiency 1.8 / 4 = 0.45 < 0.7
        out = self._out(bench=[single(18), multi(10, nodes=4)])
        assert out["benchmark"]["scaling_efficiency"] == 0.45
        assert "R6" not in rules(out)
        assert out["platform_rule"] == "R5"

    def test_R6_not_when_B2_fires(self):
        # rerun loss 1 × 8 h = 8 ≥ 18 − 10 = 8 h saved → B2
        bench = [single(18), multi(10, failure_reruns=1, hours_lost_per_rerun=8)]
        out = self._out(bench=bench)
        assert "B2" in rules(out)
        assert "R6" not in rules(out)


# ---------------------------------------------------------------------------------------------
# Like-for-like benchmark pairs


class TestBenchmarkPairsLikeForLike:
    def _offers(self, h200_price=2.0, h100_price=2.0):
        return [
            offer("h200", gpu_model="H200", gpu_mem_gb=141, price=h200_price),
            offer("h100", gpu_model="H100", price=h100_price),
        ]

    def test_B_runs_on_different_hardware_are_never_divided(self):
        """v1 paired the fastest single (H200, 10 h) with the fastest multi (H100, 8 h) and
        reported a speedup of 10 / 8 = 1.25 across different hardware."""
        bench = [single(10, "h200"), multi(8, "h100")]
        out = evaluate(make_input(offers=self._offers(), benchmarks=bench))
        assert out["benchmark"]["speedup"] is None
        assert out["benchmark"]["offer"] is None
        assert out["benchmark"]["pairs"] == []

    def test_B_pairs_list_only_offers_with_both_kinds(self):
        # h100: single 20 h, multi 8 h → 20 / 8 = 2.5, efficiency 2.5 / (16 / 8) = 1.25
        bench = [single(10, "h200"), single(20, "h100"), multi(8, "h100")]
        out = evaluate(make_input(offers=self._offers(), benchmarks=bench))
        assert [p["offer"] for p in out["benchmark"]["pairs"]] == ["h100"]
        assert out["benchmark"]["offer"] == "h100"
        assert out["benchmark"]["speedup"] == 2.5
        assert out["benchmark"]["scaling_efficiency"] == 1.25

    def test_B_reported_pair_is_the_offer_with_most_runs(self):
        # h100: 3 runs (single 20, single 22, multi 8) → 20 / 8 = 2.5;
        # h200: 2 runs (single 10, multi 6) → 10 / 6; h200 is cheaper and chosen
        bench = [
            single(10, "h200"),
            multi(6, "h200"),
            single(20, "h100"),
            single(22, "h100"),
            multi(8, "h100"),
        ]
        out = evaluate(make_input(offers=self._offers(h200_price=1.0), benchmarks=bench))
        assert out["chosen"]["offer"] == "h200"
        assert out["benchmark"]["offer"] == "h100"
        assert out["benchmark"]["speedup"] == 2.5
        speedups = {p["offer"]: p["speedup"] for p in out["benchmark"]["pairs"]}
        assert speedups == {"h200": approx(1.666667), "h100": 2.5}  # 10 / 6 = 1.666667

    def test_B_tie_goes_to_the_chosen_offer(self):
        # 2 runs each; h200 at 1.0 is cheaper (8 × 10 × 1.0 = 80 < 160) and chosen
        bench = [single(10, "h200"), multi(6, "h200"), single(20, "h100"), multi(8, "h100")]
        out = evaluate(make_input(offers=self._offers(h200_price=1.0), benchmarks=bench))
        assert out["chosen"]["offer"] == "h200"
        assert out["benchmark"]["offer"] == "h200"
        assert out["benchmark"]["speedup"] == approx(1.666667)  # 10 / 6

    def test_B_tie_without_the_chosen_offer_goes_to_the_lowest_id(self):
        # offers 12 and 7 with 2 runs each; offer 99 (price 0.5) is chosen and has no runs
        offers = [offer(12), offer(7), offer(99, price=0.5)]
        bench = [single(10, 12), multi(5, 12), single(9, 7), multi(6, 7)]
        out = evaluate(make_input(offers=offers, benchmarks=bench))
        assert out["chosen"]["offer"] == "99"
        # lowest id 7 (numeric: 7 < 12): speedup 9 / 6 = 1.5
        assert out["benchmark"]["offer"] == "7"
        assert out["benchmark"]["speedup"] == 1.5


# ---------------------------------------------------------------------------------------------
# R2 v2 and R1a v2


class TestR2PlannedGpus:
    def test_R2_planned_gpus_exceed_one_machine_without_a_pair(self):
        """v1: 16 GPUs planned on 8-GPU machines, model fits → R5 compute_platform, with no
        measurement of whether the second machine helps."""
        out = evaluate(make_input(task(gpus=16)))
        assert (out["platform"], out["platform_rule"]) == ("baseline_first", "R2")
        [r2] = findings_of(out, "R2")
        assert r2["key"] == "R2.gpus"
        assert r2["data"]["gpus"] == 16

    def test_R2_not_with_a_single_multi_pair(self):
        bench = [single(10), multi(6)]  # one_off: R6 does not apply → R5
        out = evaluate(make_input(task(gpus=16), benchmarks=bench))
        assert out["platform_rule"] == "R5"

    def test_R2_not_when_one_fitting_candidate_holds_the_gpus_in_one_machine(self):
        offers = [offer("local"), offer("wide", gpus_per_machine=16)]  # 16 ≤ 16
        out = evaluate(make_input(task(gpus=16), offers=offers))
        assert out["platform_rule"] == "R5"


class TestR1aModelSplit:
    def _input(self, task_par: list[str], offer_par: list[str]) -> dict[str, Any]:
        # 70B inference bf16: 70 × 2 × 1.2 = 168 GB → ceil(168 / 72 = 2.33) = 3 GPUs
        t = task(params_b=70, parallelism=task_par)
        return make_input(t, offers=[offer("local", parallelism=offer_par)])

    def test_R1a_only_data_parallel_shared_is_not_feasible(self):
        """v1: "data" was a shared strategy, so the job went to R1b (compute_platform) although
        plain data parallelism copies the 168 GB model onto every 72 GB GPU."""
        out = evaluate(self._input(["data"], ["data", "tensor", "pipeline"]))
        assert sizing_row(out, "local")["gpus_needed"] == 3
        assert (out["platform"], out["platform_rule"]) == ("not_feasible", "R1a")
        [r1a] = findings_of(out, "R1a")
        assert r1a["severity"] == "block"

    def test_R1a_a_splitting_strategy_the_task_supports_but_no_offer_does(self):
        out = evaluate(self._input(["data", "tensor"], ["data"]))
        assert out["platform"] == "not_feasible"

    def test_R1a_not_when_tensor_is_shared(self):
        out = evaluate(self._input(["data", "tensor"], ["data", "tensor"]))
        assert "R1a" not in rules(out)
        assert out["platform_rule"] == "R5"  # 3 GPUs on one 8-GPU machine


# ---------------------------------------------------------------------------------------------
# R1e / delivery: the distributed layer bought managed


class TestR1eManagedDelivery:
    def _out(self, can_maintain: bool) -> dict[str, Any]:
        # 70B training does not fit one machine; recurring, no machines → R1c "both"
        t = big_sharded_training(
            cadence="recurring",
            team={"has_machines": False, "can_maintain_scheduler": can_maintain},
        )
        offers = [offer("dist", kind="distributed"), offer("mgd", kind="managed")]
        checklists = {"dist": ANSWERED, "mgd": ANSWERED}
        return evaluate(make_input(t, offers=offers, checklists=checklists))

    def test_R1e_nobody_maintains_a_scheduler_delivery_is_managed(self):
        """v1 recommended a distributed layer with only a J4 warning, and a self-hosted
        distributed candidate could be signed off."""
        out = self._out(False)
        assert (out["platform"], out["platform_rule"]) == ("both", "R1c")
        assert out["delivery"] == "managed"
        [r1e] = findings_of(out, "R1e")
        assert r1e["severity"] == "info"

    def test_R1e_distributed_candidate_gets_J4_block(self):
        out = self._out(False)
        blocks = [f for f in findings_of(out, "J4") if f["severity"] == "block"]
        assert [(f["offer"], f["key"]) for f in blocks] == [("dist", "J4.self_hosted")]
        assert out["signoff"]["dist"]["blocked"] is True
        assert "J4" in out["signoff"]["dist"]["rules"]
        # the managed candidate is fine
        assert out["signoff"]["mgd"] == {"blocked": False, "rules": []}

    def test_R1e_not_when_the_team_can_maintain(self):
        out = self._out(True)
        assert out["delivery"] == "self_hosted"
        assert "R1e" not in rules(out)
        assert not [f for f in findings_of(out, "J4") if f["severity"] == "block"]


# ---------------------------------------------------------------------------------------------
# R7: a long multi-machine run without resume


class TestR7FaultTolerance:
    def _big(self, **overrides: Any) -> dict[str, Any]:
        # one_off, nobody maintains a scheduler → R1b compute_platform in v1
        base = {"cadence": "one_off", "compute_hours": 12, "resumable": False}
        base.update(overrides)
        return evaluate(make_input(big_sharded_training(**base)))

    def test_R7_long_multi_machine_run_without_resume_needs_both(self):
        """v1: a 3-machine, 12 h, non-resumable job got R1b compute_platform; one node failure
        reruns the whole job and nothing in the plan gives resume or partial retry."""
        out = self._big()
        assert sizing_row(out, "local")["machines_needed"] == 3  # ceil(19 / 8)
        [r7] = findings_of(out, "R7")
        assert r7["severity"] == "warn"
        assert r7["data"] == {"compute_hours": 12.0, "limit": 12.0}
        assert (out["platform"], out["platform_rule"]) == ("both", "R7")

    def test_R7_planned_gpus_over_one_machine_count_too(self):
        # 16 GPUs on 8-GPU machines; a measured pair (one_off) keeps R2 and R6 away → R5
        t = task(gpus=16, compute_hours=12, resumable=False)
        out = evaluate(make_input(t, benchmarks=[single(10), multi(6)]))
        assert "R7" in rules(out)
        assert (out["platform"], out["platform_rule"]) == ("both", "R7")

    def test_R7_not_below_long_run_hours(self):
        out = self._big(compute_hours=11.5)
        assert "R7" not in rules(out)
        assert (out["platform"], out["platform_rule"]) == ("compute_platform", "R1b")

    def test_R7_not_when_resumable(self):
        out = self._big(resumable=True)
        assert "R7" not in rules(out)
        assert out["platform"] == "compute_platform"
