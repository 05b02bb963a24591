"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not:
sizing, the platform rules (R) and the four misjudgements (J).

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

from engine import (
    evaluate,
)

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    big_training,
    findings_of,
    make_input,
    multi,
    offer,
    option_of,
    rules,
    single,
    sizing_row,
    task,
    three_way_input,
)


class TestSizing:
    def test_A_inference_7b_bf16_is_16_8_gb(self):
        out = evaluate(make_input(task(params_b=7, precision="bf16")))
        # 7 × 2 bytes × 1.2 = 16.8 GB; usable on an 80 GB GPU 80 × 0.9 = 72 → 1 GPU, 1 machine
        assert out["sizing"]["estimated_gpu_mem_gb"] == 16.8
        assert out["sizing"]["source"] == "estimate"
        row = sizing_row(out, "local")
        assert row["usable_gpu_mem_gb"] == 72.0
        assert (row["gpus_needed"], row["machines_needed"]) == (1, 1)
        assert row["fits_single_gpu"] and row["fits_single_machine"]
        assert not row["near_capacity"]  # 16.8 < 0.85 × 576
        [a] = findings_of(out, "A")
        assert a["key"] == "A.estimate" and a["severity"] == "info"
        assert a["data"]["mem_gb"] == 16.8

    def test_A_training_full_fine_tuning_and_adapter_tuning_formulas(self):
        out = evaluate(make_input(task(workload="training", params_b=7)))
        # 7 × 16 × 1.2 = 134.4 GB → ceil(134.4 / 72) = 2 GPUs, one machine of 8
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4
        assert sizing_row(out, "local")["gpus_needed"] == 2
        # SPEC 6.1: fine_tuning is full fine-tuning, sized like training: 7 × 16 × 1.2 = 134.4 GB
        out = evaluate(make_input(task(workload="fine_tuning", params_b=7, precision="bf16")))
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4
        # SPEC 6.1: adapter_tuning (LoRA, v1's fine_tuning): 7 × (2 + 0.16) × 1.2 = 18.144 GB
        out = evaluate(make_input(task(workload="adapter_tuning", params_b=7, precision="bf16")))
        assert out["sizing"]["estimated_gpu_mem_gb"] == 18.144
        out = evaluate(make_input(task(workload="inference", params_b=70, precision="int4")))
        # 70 × 0.5 × 1.2 = 42 GB
        assert out["sizing"]["estimated_gpu_mem_gb"] == 42.0

    def test_A_splits_over_gpus_only_with_tensor_or_pipeline(self):
        offers = [offer("local", gpu_mem_gb=24, gpus_per_machine=8)]
        # 70 × 2 × 1.2 = 168 GB on 24 × 0.9 = 21.6 GB GPUs → ceil(7.78) = 8 GPUs = 1 machine
        out = evaluate(make_input(task(params_b=70, parallelism=["tensor"]), offers=offers))
        row = sizing_row(out, "local")
        assert (row["gpus_needed"], row["machines_needed"]) == (8, 1)
        assert row["fits_single_machine"] and not row["fits_single_gpu"]
        # 168 > 0.85 × 8 × 21.6 = 146.88 → near capacity
        assert row["near_capacity"]
        out = evaluate(make_input(task(params_b=70, parallelism=["data"]), offers=offers))
        assert not sizing_row(out, "local")["fits_single_machine"]

    def test_A_measured_peak_overrides_estimate(self):
        out = evaluate(make_input(task(params_b=7, peak_gpu_mem_gb=30)))
        assert out["sizing"]["estimated_gpu_mem_gb"] == 30.0
        assert out["sizing"]["source"] == "measured"
        assert findings_of(out, "A")[0]["key"] == "A.measured"
        # Without a profile peak, the largest single-machine benchmark peak counts.
        bench = [
            single(5, peak_gpu_mem_gb=20),
            single(6, peak_gpu_mem_gb=25),
            multi(4, peak_gpu_mem_gb=90),
        ]
        out = evaluate(make_input(task(params_b=7), benchmarks=bench))
        assert out["sizing"]["estimated_gpu_mem_gb"] == 25.0

    def test_A_no_estimate_without_parameters(self):
        out = evaluate(make_input(task(workload="data_processing", params_b=None)))
        assert out["sizing"]["source"] == "none"
        assert out["sizing"]["estimated_gpu_mem_gb"] is None
        row = sizing_row(out, "local")
        assert (row["gpus_needed"], row["machines_needed"], row["near_capacity"]) == (1, 1, False)
        assert [f["key"] for f in findings_of(out, "A")] == ["A.none"]


class TestPlatformRules:
    def test_R0_multi_not_faster_stays_single(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(12)]))
        assert out["platform"] == "compute_platform"
        assert out["platform_rule"] == "R0"
        # SPEC 6.1: the pair is like-for-like, and the finding names its offer
        assert findings_of(out, "R0")[0]["data"] == {
            "single_e2e": 10.0,
            "multi_e2e": 12.0,
            "offer": "local",
        }

    def test_R0_does_not_fire_when_multi_is_faster(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(5)]))
        assert "R0" not in rules(out)
        assert out["platform_rule"] == "R5"

    def test_R0_compares_the_fastest_of_each_kind(self):
        # fastest single 8, fastest multi 9 → 9 ≥ 8 → R0
        bench = [single(10), single(8), multi(20), multi(9)]
        assert evaluate(make_input(benchmarks=bench))["platform_rule"] == "R0"

    def test_R1a_no_fit_and_no_split_is_not_feasible(self):
        out = evaluate(make_input(big_training(parallelism=[]), checklists=answered("local")))
        assert sizing_row(out, "local")["machines_needed"] == 3  # ceil(19 / 8)
        assert out["platform"] == "not_feasible"
        [f] = findings_of(out, "R1a")
        assert f["severity"] == "block" and f["offer"] is None
        # the only offer cannot hold the task, so there is no placement either (P2)
        assert out["signoff"]["local"] == {"blocked": True, "rules": ["R1a", "P2"]}

    def test_R1a_also_when_no_offer_supports_the_task_strategies(self):
        offers = [offer("local", parallelism=["data"])]
        out = evaluate(make_input(big_training(parallelism=["pipeline"]), offers=offers))
        assert out["platform_rule"] == "R1a"

    def test_R1a_does_not_fire_when_an_offer_shares_a_strategy(self):
        # pipeline splits the model (SPEC 6.1), and both the task and the offer support it
        offers = [offer("local", parallelism=["pipeline"])]
        out = evaluate(make_input(big_training(parallelism=["pipeline"]), offers=offers))
        assert "R1a" not in rules(out)

    def test_R1a_fires_when_only_plain_data_parallelism_is_shared(self):
        # SPEC 6.1 R1a v2: one replica (1344 GB) does not fit one 72 GB GPU, and plain data
        # parallelism copies the whole model onto every GPU: more machines do not help.
        offers = [offer("local", parallelism=["data"])]
        out = evaluate(make_input(big_training(parallelism=["data"]), offers=offers))
        assert (out["platform"], out["platform_rule"]) == ("not_feasible", "R1a")
        [f] = findings_of(out, "R1a")
        assert f["severity"] == "block" and f["data"] == {"parallelism": ["data"]}
        assert option_of(out, "local")["reason"] == "no_shared_parallelism"

    def test_R1b_one_off_without_scheduler_rents_compute(self):
        out = evaluate(make_input(big_training(parallelism=["tensor"], cadence="one_off")))
        assert (out["platform"], out["platform_rule"]) == ("compute_platform", "R1b")
        assert findings_of(out, "R1b")[0]["severity"] == "info"

    def test_R1b_does_not_fire_when_recurring(self):
        out = evaluate(make_input(big_training(parallelism=["tensor"], cadence="recurring")))
        assert "R1b" not in rules(out)
        assert out["platform_rule"] == "R1d"  # the base task's team has machines

    def test_R1c_no_machines_needs_both_layers(self):
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=False)
        out = evaluate(make_input(t))
        assert (out["platform"], out["platform_rule"]) == ("both", "R1c")

    def test_R1c_does_not_fire_with_machines(self):
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=True)
        assert evaluate(make_input(t))["platform_rule"] != "R1c"

    def test_R1d_machines_but_no_fit_needs_distributed(self):
        t = big_training(parallelism=["tensor"], has_machines=True, can_maintain_scheduler=True)
        out = evaluate(make_input(t))
        assert (out["platform"], out["platform_rule"]) == ("distributed_platform", "R1d")

    def test_R1d_does_not_fire_without_machines(self):
        t = big_training(parallelism=["tensor"], has_machines=False, can_maintain_scheduler=True)
        assert evaluate(make_input(t))["platform_rule"] == "R1c"

    def test_R2_only_just_fits_runs_baseline_first(self):
        offers = [offer("local", gpu_mem_gb=20, gpus_per_machine=1)]
        # 16.8 GB on 20 × 0.9 = 18 usable; 16.8 > 0.85 × 18 = 15.3 → near capacity everywhere
        # (one planned GPU, so the v2 "more GPUs than one machine" branch of R2 stays out)
        out = evaluate(make_input(task(params_b=7, gpus=1), offers=offers))
        assert sizing_row(out, "local")["near_capacity"]
        assert (out["platform"], out["platform_rule"]) == ("baseline_first", "R2")
        assert findings_of(out, "R2")[0]["data"] == {"band_pct": 15.0}

    def test_R2_does_not_fire_with_a_measured_peak(self):
        offers = [offer("local", gpu_mem_gb=20, gpus_per_machine=1)]
        out = evaluate(make_input(task(params_b=7, peak_gpu_mem_gb=16.8, gpus=1), offers=offers))
        assert sizing_row(out, "local")["near_capacity"]
        assert out["platform_rule"] == "R5"

    def test_R2_does_not_fire_when_one_fitting_offer_has_room(self):
        offers = [offer("tight", gpu_mem_gb=20, gpus_per_machine=1), offer("roomy")]
        assert evaluate(make_input(task(params_b=7), offers=offers))["platform_rule"] == "R5"

    def test_R2_planned_gpus_beyond_one_machine_without_a_pair_runs_baseline_first(self):
        # SPEC 6.1 R2 v2: 16 planned GPUs > 8 per machine of the only fitting offer, no pair
        out = evaluate(make_input(task(gpus=16)))
        assert not sizing_row(out, "local")["near_capacity"]  # 16.8 < 0.85 × 8 × 72 = 489.6
        assert (out["platform"], out["platform_rule"]) == ("baseline_first", "R2")
        [f] = findings_of(out, "R2")
        assert (f["key"], f["data"]) == ("R2.gpus", {"gpus": 16})

    def test_R2_planned_gpus_beyond_one_machine_with_a_pair_does_not_fire(self):
        # a single/multi pair is recorded (speedup 10 / 5 = 2); one-off, so R6 does not apply
        out = evaluate(make_input(task(gpus=16), benchmarks=[single(10), multi(5)]))
        assert "R2" not in rules(out)
        assert out["platform_rule"] == "R5"

    def test_R3_queueing_with_maintainers_goes_distributed(self):
        t = task(team={"pain": "queueing", "can_maintain_scheduler": True, "has_machines": True})
        out = evaluate(make_input(t))
        assert (out["platform"], out["platform_rule"]) == ("distributed_platform", "R3")
        assert findings_of(out, "R3")[0]["key"] == "R3.distributed"
        assert "J4" not in rules(out)

    def test_R3_queueing_without_maintainers_stays_compute_with_J4(self):
        t = task(team={"pain": "queueing", "has_machines": True})
        out = evaluate(make_input(t))
        assert (out["platform"], out["platform_rule"]) == ("compute_platform", "R3")
        assert findings_of(out, "R3")[0]["key"] == "R3.compute"
        assert findings_of(out, "J4")[0]["severity"] == "warn"

    def test_R3_does_not_fire_without_queueing(self):
        assert evaluate(make_input(task(team={"pain": "slow"})))["platform_rule"] == "R5"

    def test_R4_slow_with_machines_and_scheduler_looks_at_both(self):
        team = {
            "has_machines": True,
            "has_scheduler": True,
            "pain": "slow",
            "can_maintain_scheduler": True,
        }
        out = evaluate(make_input(task(team=team)))
        assert (out["platform"], out["platform_rule"]) == ("both", "R4")

    def test_R4_does_not_fire_without_a_scheduler(self):
        team = {"has_machines": True, "has_scheduler": False, "pain": "slow"}
        assert evaluate(make_input(task(team=team)))["platform_rule"] == "R5"

    def test_R5_fits_one_machine_compute_platform(self):
        out = evaluate(make_input())
        assert (out["platform"], out["platform_rule"]) == ("compute_platform", "R5")
        assert findings_of(out, "R5")[0]["severity"] == "info"

    def test_R5_does_not_fire_when_an_earlier_rule_matches(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(12)]))
        assert "R5" not in rules(out)

    def test_R_mod_recurring_distributed_gets_template_advice(self):
        t = big_training(
            parallelism=["tensor"],
            cadence="recurring",
            has_machines=True,
            can_maintain_scheduler=True,
        )
        out = evaluate(make_input(t))
        assert findings_of(out, "R-mod")[0]["severity"] == "info"

    def test_R_mod_does_not_fire_for_one_off(self):
        t = big_training(
            parallelism=["tensor"],
            cadence="one_off",
            has_machines=True,
            can_maintain_scheduler=True,
        )
        out = evaluate(make_input(t))
        assert out["platform"] == "distributed_platform"
        assert "R-mod" not in rules(out)


class TestMisjudgement:
    def test_J1_distributed_without_compute_anywhere(self):
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=False)
        offers = [offer("local", kind="distributed", parallelism=["tensor"])]
        out = evaluate(make_input(t, offers=offers))
        assert out["platform"] == "both"
        assert findings_of(out, "J1")[0]["severity"] == "warn"

    def test_J1_does_not_fire_with_a_compute_offer(self):
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=False)
        out = evaluate(make_input(t, offers=[offer("local", kind="managed")]))
        assert out["platform"] == "both"
        assert "J1" not in rules(out)

    def test_J2_distributed_without_a_pair(self):
        t = big_training(parallelism=["tensor"], has_machines=True, can_maintain_scheduler=True)
        out = evaluate(make_input(t, benchmarks=[single(10)]))
        [f] = findings_of(out, "J2")
        assert f["data"] == {"has_single": True, "has_multi": False}

    def test_J2_does_not_fire_with_a_measured_pair(self):
        t = big_training(parallelism=["tensor"], has_machines=True, can_maintain_scheduler=True)
        out = evaluate(make_input(t, benchmarks=[single(10), multi(4)]))
        assert out["platform"] == "distributed_platform"
        assert "J2" not in rules(out)

    def test_J3_cheapest_unit_price_is_not_cheapest_total(self):
        # M at 20 / 8 = 2.5 per GPU-hour: 8 × 5 h × 2.5 = 100, fee 10, transfer 0.3 → 110.3;
        # L at 2.0 is cheapest per unit but totals 160 + 5 = 165.
        data = three_way_input()
        data["offers"][1]["price"] = 20
        out = evaluate(data)
        [f] = findings_of(out, "J3")
        assert f["severity"] == "warn"
        assert f["data"]["unit_offer"] == "L" and f["data"]["unit_price"] == 2.0
        assert f["data"]["total_offer"] == "M" and f["data"]["total"] == 110.3
        bill = {row["offer"]: row for row in out["bill"]}
        assert (bill["L"]["rank_unit"], bill["L"]["rank_total"]) == (1, 2)
        assert (bill["M"]["rank_unit"], bill["M"]["rank_total"]) == (2, 1)

    def test_J3_does_not_fire_when_orders_agree(self):
        # L and M share the lowest unit price 2.0 and M has the lowest total 88.3.
        assert "J3" not in rules(evaluate(three_way_input()))

    def test_J4_plan_needs_scheduler_nobody_maintains(self):
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=False)
        out = evaluate(make_input(t))
        assert out["platform"] == "both"
        assert findings_of(out, "J4")[0]["data"] == {"platform": "both", "rule": "R1c"}

    def test_J4_blocks_a_self_hosted_distributed_candidate_nobody_can_maintain(self):
        # SPEC 6.1: both layers needed (R1c), nobody maintains a scheduler → delivery managed,
        # R1e; the `distributed` candidate gets J4 as a block, the `managed` one does not
        t = big_training(parallelism=["tensor"], cadence="recurring", has_machines=False)
        offers = [offer("dist", kind="distributed"), offer("man", kind="managed")]
        out = evaluate(make_input(t, offers=offers, checklists=answered("dist", "man")))
        assert (out["platform"], out["delivery"]) == ("both", "managed")
        assert findings_of(out, "R1e")[0]["severity"] == "info"
        blocks = [
            (f["offer"], f["key"]) for f in findings_of(out, "J4") if f["severity"] == "block"
        ]
        assert blocks == [("dist", "J4.self_hosted")]
        assert out["signoff"]["dist"] == {"blocked": True, "rules": ["J4"]}
        assert out["signoff"]["man"] == {"blocked": False, "rules": []}

    def test_J4_does_not_fire_when_the_team_can_maintain(self):
        t = big_training(
            parallelism=["tensor"],
            cadence="recurring",
            has_machines=False,
            can_maintain_scheduler=True,
        )
        assert "J4" not in rules(evaluate(make_input(t)))
