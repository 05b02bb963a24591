"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not.

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from apps.scoring.engine import (
    MESSAGES,
    effective_gpu_hour_price,
    evaluate,
    signoff_check,
    tier_between,
)
from apps.scoring.engine.schema import Site

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
    three_way_input,
)


def sizing_row(out, offer_id):
    return next(s for s in out["sizing"]["offers"] if s["offer"] == offer_id)


def single(e2e, *, offer_id="local", nodes=1, gpn=8, **kw):
    return {
        "kind": "single",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": kw.pop("compute_hours", e2e),
        **kw,
    }


def multi(e2e, *, offer_id="local", nodes=2, gpn=8, **kw):
    return {
        "kind": "multi",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": kw.pop("compute_hours", e2e),
        **kw,
    }


# Every candidate's six questions answered, so that the C gate (SPEC 6.1: a candidate without
# answers is six unanswered, a block) stays out of tests about other rules.
ANSWERED = {f"q{i}": "answered" for i in range(1, 7)}


def answered(*offer_ids):
    return {oid: dict(ANSWERED) for oid in offer_ids}


# 70B full training needs 70 × 16 × 1.2 = 1344 GB: 19 GPUs of 72 usable GB, 3 machines of 8,
# so the plan is 24 GPUs (3 × 8).
def big_training(**team_and_task):
    team = {"has_machines": True}
    team.update(
        {
            k: team_and_task.pop(k)
            for k in list(team_and_task)
            if k in ("has_machines", "has_scheduler", "can_maintain_scheduler", "pain")
        }
    )
    team_and_task.setdefault("gpus", 24)
    return task(workload="training", params_b=70, team=team, **team_and_task)


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


class TestChecklistGate:
    def test_C_two_unanswered_blocks_the_candidate(self):
        answers = {"q1": "answered", "q2": "answered", "q3": "answered", "q4": "answered"}
        out = evaluate(make_input(checklists={"local": answers}))
        # q5 and q6 are missing → 2 unanswered → not ready to sign
        assert out["checklists"]["local"]["unanswered"] == 2
        assert out["checklists"]["local"]["ready_to_sign"] is False
        [f] = findings_of(out, "C")
        assert (f["severity"], f["offer"]) == ("block", "local")
        assert f["data"]["questions"] == ["q5", "q6"]
        assert out["signoff"]["local"] == {"blocked": True, "rules": ["C"]}

    def test_C_one_unanswered_warns(self):
        answers = {q: "answered" for q in ("q1", "q2", "q3", "q4", "q5")}
        answers["q6"] = "unanswered"
        out = evaluate(make_input(checklists={"local": answers}))
        assert out["checklists"]["local"] == {
            "unanswered": 1,
            "ready_to_sign": True,
            "unanswered_questions": ["q6"],
        }
        assert findings_of(out, "C")[0]["severity"] == "warn"
        assert out["signoff"]["local"]["blocked"] is False

    def test_C_does_not_fire_when_all_answered(self):
        out = evaluate(make_input(offers=[offer("a"), offer("b")], checklists=answered("a", "b")))
        assert "C" not in rules(out)
        assert out["checklists"]["a"] == {
            "unanswered": 0,
            "ready_to_sign": True,
            "unanswered_questions": [],
        }

    def test_C_a_candidate_without_answers_is_six_unanswered_and_blocks(self):
        # SPEC 6.1: no checklist answers = all six unanswered (6 ≥ 2 → block), in the API too
        out = evaluate(make_input(offers=[offer("a"), offer("b")], checklists=answered("a")))
        assert out["checklists"]["b"] == {
            "unanswered": 6,
            "ready_to_sign": False,
            "unanswered_questions": ["q1", "q2", "q3", "q4", "q5", "q6"],
        }
        [f] = findings_of(out, "C")
        assert (f["severity"], f["offer"], f["data"]["unanswered"]) == ("block", "b", 6)
        assert out["signoff"]["a"] == {"blocked": False, "rules": []}
        assert out["signoff"]["b"] == {"blocked": True, "rules": ["C"]}


class TestBenchmarkVerdict:
    def test_B1_negative_gain_warns(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(12)]))
        # speedup 10 / 12 = 0.833333; GPUs 16 vs 8 → efficiency 0.833333 / 2 = 0.416667
        assert out["benchmark"]["speedup"] == 0.833333
        assert out["benchmark"]["scaling_efficiency"] == 0.416667
        assert out["benchmark"]["net_gain_positive"] is False
        assert findings_of(out, "B1")[0]["severity"] == "warn"

    def test_B1_does_not_fire_with_a_speedup(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(5, compute_hours=3.75)]))
        # speedup 2.0, efficiency 2 / 2 = 1.0, non-compute share 1 − 3.75 / 5 = 0.25
        assert out["benchmark"]["speedup"] == 2.0
        assert out["benchmark"]["scaling_efficiency"] == 1.0
        assert out["benchmark"]["non_compute_share"] == 0.25
        assert out["benchmark"]["hours_saved"] == 5.0
        assert "B1" not in rules(out)

    def test_B_non_compute_share_uses_comm_hours_when_recorded(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(5, comm_hours=1.2)]))
        assert out["benchmark"]["non_compute_share"] == 0.24  # 1.2 / 5

    def test_B_pair_names_the_compared_records(self):
        bench = [single(10, id=11), single(8, id="s2"), multi(5, id="m1")]
        out = evaluate(make_input(benchmarks=bench))
        # the fastest single (8 h, 2nd record) against the only multi (3rd record)
        assert out["benchmark"]["single_benchmark"] == "s2"
        assert out["benchmark"]["multi_benchmark"] == "m1"
        assert (out["benchmark"]["single_index"], out["benchmark"]["multi_index"]) == (1, 2)
        assert out["benchmark"]["speedup"] == 1.6  # 8 / 5

    def test_B_nulls_without_a_pair(self):
        out = evaluate(make_input(benchmarks=[single(10)]))
        assert out["benchmark"]["speedup"] is None
        assert out["benchmark"]["net_gain_positive"] is None

    def test_B2_one_rerun_eats_the_gain(self):
        # saved 10 − 6 = 4 h; rerun loss 2 × 2 = 4 h ≥ 4 → warn
        bench = [single(10), multi(6, failure_reruns=2, hours_lost_per_rerun=2)]
        [f] = findings_of(evaluate(make_input(benchmarks=bench)), "B2")
        assert f["data"] == {"rerun_loss_hours": 4.0, "hours_saved": 4.0}

    def test_B2_does_not_fire_when_the_gain_survives(self):
        # rerun loss 1 × 2 = 2 h < 4 h saved
        bench = [single(10), multi(6, failure_reruns=1, hours_lost_per_rerun=2)]
        assert "B2" not in rules(evaluate(make_input(benchmarks=bench)))

    def test_B3_retrofit_costs_more_than_a_year(self):
        # saved 4 h per run × 1 run per quarter × 4 = 16 h < 20 h of effort
        bench = [single(10), multi(6, migration_effort_hours=20)]
        t = task(cadence="recurring", runs_per_quarter=1)
        [f] = findings_of(evaluate(make_input(t, benchmarks=bench)), "B3")
        assert f["data"] == {
            "migration_effort_hours": 20.0,
            "runs_per_year": 4.0,
            "yearly_hours_saved": 16.0,
        }

    def test_B3_does_not_fire_when_a_year_pays_for_it(self):
        # 4 h × 2 runs per quarter × 4 = 32 h ≥ 20 h
        bench = [single(10), multi(6, migration_effort_hours=20)]
        t = task(cadence="recurring", runs_per_quarter=2)
        assert "B3" not in rules(evaluate(make_input(t, benchmarks=bench)))

    def test_B3_counts_one_run_for_a_one_off_job(self):
        # one-off: 4 h × 1 run = 4 h < 5 h of effort
        bench = [single(10), multi(6), {"kind": "pilot_migration", "migration_effort_hours": 5}]
        out = evaluate(make_input(task(cadence="one_off", runs_per_quarter=3), benchmarks=bench))
        assert findings_of(out, "B3")[0]["data"]["runs_per_year"] == 1.0


class TestEligibility:
    @pytest.mark.parametrize(
        ("rule", "overrides"),
        [
            ("X1", {"low_latency_online": True}),
            ("X1", {"workload": "online_service"}),
            ("X2", {"stateful": True}),
            ("X5", {"strict_consistency": True}),
        ],
    )
    def test_X1_X2_X5_exclusions_leave_only_wait_local(self, rule, overrides):
        out = evaluate(three_way_input(**overrides))
        assert out["cross_domain"]["eligible"] is False
        assert out["cross_domain"]["exclusions"] == [rule]
        assert findings_of(out, rule)[0]["severity"] == "warn"
        feasible = {o["offer"]: o["feasible"] for o in out["options"]}
        assert feasible == {"L": True, "M": False, "D": False}
        assert option_of(out, "M")["reason"] == "not_eligible"
        assert out["chosen"] == {"kind": "wait_local", "site": "home", "offer": "L"}

    @pytest.mark.parametrize("rule", ["X1", "X2", "X3", "X4", "X5"])
    def test_X_exclusions_do_not_fire_for_a_plain_batch_job(self, rule):
        out = evaluate(three_way_input())
        assert rule not in rules(out)
        assert out["cross_domain"]["eligible"] is True

    def test_X3_tight_coupling_is_an_info_finding_not_an_exclusion(self):
        # SPEC 6.1 X3: coupling limits spreading a job over pools, not where it runs whole
        out = evaluate(three_way_input(coupling="tight"))
        assert out["cross_domain"]["exclusions"] == []
        assert out["cross_domain"]["eligible"] is True
        assert out["cross_domain"]["spread_tier"] == "same_site"
        [f] = findings_of(out, "X3")
        assert f["severity"] == "info"

    def test_X3_tight_coupling_no_longer_limits_the_tier(self):
        # v1 refused L (home–data is same_city) and D (cross_hub) for a tight job; SPEC 6.1
        # removes that tier limit: the costs are those of the plain job, M is still chosen
        out = evaluate(three_way_input(coupling="tight"))
        tiers = {o["offer"]: (o["tier"], o["feasible"]) for o in out["options"]}
        assert tiers == {
            "L": ("same_city", True),
            "M": ("same_city", True),
            "D": ("cross_hub", True),
        }
        assert out["chosen"] == {"kind": "move_compute", "site": "data", "offer": "M"}

    def test_X3_tight_job_needs_one_pool_that_holds_it(self):
        # SPEC 6.1: 16 GPUs; L holds 1 machine × 8 = 8 < 16 → pool_too_small; M holds 2 × 8 = 16
        data = three_way_input(coupling="tight", gpus=16)
        data["offers"][0]["max_machines"] = 1
        data["offers"][1]["max_machines"] = 2
        out = evaluate(data)
        assert option_of(out, "L")["reason"] == "pool_too_small"
        near = option_of(out, "M")
        assert near["feasible"] is True
        # M: 16 GPUs × 5 h × 16/8 = 160, fee 10 % = 16, transfers 0.3 → 176.3
        assert (near["compute_cost"], near["scheduling_cost"], near["total_cost"]) == (
            160.0,
            16.0,
            176.3,
        )
        assert out["chosen"]["offer"] == "M"

    def test_X4_compliance_allows_processing_next_to_the_data(self):
        # SPEC 6.1 X4: allowed sites blank → the data site's datacenter dc-d = {data}.
        out = evaluate(three_way_input(compliance_restricted=True))
        assert out["cross_domain"]["allowed_sites"] == ["data"]
        reasons = {o["offer"]: o["reasons"] for o in out["options"]}
        # L (home) and D (far) are not allowed sites and would pull the input out of dc-d;
        # M runs next to the data (image in, results out: both may move) → feasible
        assert reasons == {
            "L": ["compliance_site", "compliance_moves_data"],
            "M": [],
            "D": ["compliance_site", "compliance_moves_data"],
        }
        assert out["chosen"] == {"kind": "move_compute", "site": "data", "offer": "M"}
        [f] = findings_of(out, "X4")
        assert (f["key"], f["data"]) == ("X4", {"allowed_sites": ["data"]})

    def test_X4_results_restricted_keeps_results_in_the_allowed_sites(self):
        # M's results leg data → home leaves {data}; D's far → home too → nothing feasible
        out = evaluate(three_way_input(compliance_restricted=True, results_restricted=True))
        assert option_of(out, "M")["reasons"] == ["compliance_moves_results"]
        assert option_of(out, "D")["reasons"] == [
            "compliance_site",
            "compliance_moves_data",
            "compliance_moves_results",
        ]
        assert findings_of(out, "X4")[0]["key"] == "X4.results"
        assert out["chosen"] is None
        assert "P2" in rules(out)

    def test_X4_allowed_sites_of_the_profile_replace_the_data_domain(self):
        out = evaluate(three_way_input(compliance_restricted=True, allowed_sites=["home", "data"]))
        # L at home may now pull the input data → home; D at far still may not
        assert option_of(out, "L")["feasible"] is True
        assert option_of(out, "D")["reason"] == "compliance_site"
        assert out["chosen"]["offer"] == "M"  # 88.3 < L's 165

    def test_X4_wait_local_is_fine_when_data_is_home(self):
        out = evaluate(three_way_input(compliance_restricted=True, data_site="home"))
        assert out["chosen"]["offer"] == "L"

    def test_G1_portability_gate(self):
        out = evaluate(three_way_input(image_packaged=False))
        assert out["cross_domain"]["gates"]["portability"] is False
        assert findings_of(out, "G1")[0]["data"] == {"missing": ["image_packaged"]}
        assert out["chosen"]["offer"] == "L"

    def test_G1_does_not_fire_when_portable(self):
        out = evaluate(three_way_input())
        assert out["cross_domain"]["gates"] == {
            "portability": True,
            "latency_tolerance": True,
            "interruption": True,
        }
        assert "G1" not in rules(out)

    def test_G2_zero_transfer_budget(self):
        out = evaluate(three_way_input(latency_budget_hours={"transfer": 0}))
        assert out["cross_domain"]["gates"]["latency_tolerance"] is False
        assert "G2" in rules(out)

    def test_G2_does_not_fire_for_a_positive_or_blank_budget(self):
        out = evaluate(three_way_input(latency_budget_hours={"transfer": 0.5}))
        assert "G2" not in rules(out)
        assert "G2" not in rules(evaluate(three_way_input()))

    def test_G3_not_resumable_and_costly_interruption(self):
        out = evaluate(three_way_input(resumable=False, interruption_cost_hours=2))
        [f] = findings_of(out, "G3")
        assert f["data"] == {"interruption_cost_hours": 2.0, "limit": 1.0}
        assert out["cross_domain"]["eligible"] is False

    def test_G3_does_not_fire_at_one_hour_or_when_resumable(self):
        assert "G3" not in rules(
            evaluate(three_way_input(resumable=False, interruption_cost_hours=1))
        )
        assert "G3" not in rules(evaluate(three_way_input(interruption_cost_hours=5)))

    def test_loose_coupling_spreads_to_cross_hub_only_for_long_resumable_jobs(self):
        # SPEC 6.1: loose → spread up to same_city; cross_hub only when compute_hours ≥ 24 and
        # the task is resumable. Placement of the whole job is no longer tier-limited, and
        # budgets no longer count (v1 summed them against 24 h).
        budgets = {"transfer": 1, "queue": 10, "compute": 10}
        out = evaluate(three_way_input(coupling="loose", latency_budget_hours=budgets))
        assert out["cross_domain"]["spread_tier"] == "same_city"  # 10 h < 24 h
        assert option_of(out, "D")["feasible"] is True  # cross_hub, run whole: allowed
        out = evaluate(three_way_input(coupling="loose", compute_hours=24))
        assert out["cross_domain"]["spread_tier"] == "cross_hub"  # 24 h ≥ 24 h, resumable
        out = evaluate(three_way_input(coupling="loose", compute_hours=24, resumable=False))
        assert out["cross_domain"]["spread_tier"] == "same_city"  # not resumable
        out = evaluate(three_way_input(coupling="none"))
        assert out["cross_domain"]["spread_tier"] == "cross_hub"

    def test_D1_results_under_a_tenth_of_input(self):
        [f] = findings_of(evaluate(three_way_input()), "D1")  # 20 GB < 500 / 10 = 50 GB
        assert f["data"] == {"input_gb": 500.0, "result_gb": 20.0}

    def test_D1_does_not_fire_for_big_results_or_other_workloads(self):
        assert "D1" not in rules(evaluate(three_way_input(result_gb=60)))
        assert "D1" not in rules(evaluate(three_way_input(workload="training")))

    def test_D2_repeated_full_scan_is_staged_once_where_there_is_room(self):
        # SPEC 6.1: no storage_tb recorded → room is not limited → the input is staged once
        data = three_way_input(access_pattern="repeated_full_scan", data_passes=3)
        data["offers"] = [data["offers"][0], data["offers"][2]]  # L and D: both move the input
        out = evaluate(data)
        local = option_of(out, "L")
        assert local["input_mode"] == "staged"
        # 500 GB once: 500 × 8 / (10 Gbit/s × 3600) × 1.1 = 0.122222 h; 500 × 0.01 = 5.0
        assert [(leg["gb"], leg["hours"], leg["cost"]) for leg in local["legs"]] == [
            (500.0, 0.122222, 5.0)
        ]
        # chosen L: 8 × 10 × 2.0 = 160 + 5 = 165 < D: 400 + 10 + 0.3 + 0.6 = 410.9
        assert out["chosen"]["offer"] == "L"
        [f] = findings_of(out, "D2")
        assert (f["key"], f["data"]) == (
            "D2.staged",
            {"data_passes": 3, "input_gb": 500.0, "site": "home"},
        )

    def test_D2_repeated_full_scan_is_streamed_every_pass_without_room(self):
        data = three_way_input(access_pattern="repeated_full_scan", data_passes=3)
        data["sites"][0]["storage_tb"] = 0.4  # home: 0.4 × 1000 = 400 GB < 500 GB
        data["sites"][2]["storage_tb"] = 0.4  # far: the same
        out = evaluate(data)
        local = option_of(out, "L")
        assert local["input_mode"] == "streamed"
        # 500 GB × 3 passes = 1500 GB; 1500 × 8 / (10 × 3600) × 1.1 = 0.366667 h; × 0.01 = 15
        [leg] = local["legs"]
        assert (leg["gb"], leg["hours"], leg["cost"]) == (1500.0, 0.366667, 15.0)
        assert option_of(out, "M")["input_mode"] is None  # runs next to the data
        [f] = findings_of(out, "D2")
        assert (f["key"], f["data"]) == ("D2.no_room", {"data_passes": 3})
        # at the boundary 0.5 × 1000 = 500 GB ≥ 500 GB: room, staged once
        data["sites"][0]["storage_tb"] = 0.5
        assert option_of(evaluate(data), "L")["input_mode"] == "staged"

    def test_D2_does_not_fire_for_streaming(self):
        assert "D2" not in rules(evaluate(three_way_input()))

    def test_K1_tight_training_reserves_one_pool(self):
        out = evaluate(make_input(task(workload="training", coupling="tight")))
        assert findings_of(out, "K1")[0]["severity"] == "info"

    def test_K1_does_not_fire_for_loose_training(self):
        assert "K1" not in rules(evaluate(make_input(task(workload="training", coupling="loose"))))


class TestPlacement:
    def test_P_leg_hours_with_city_buffer(self):
        out = evaluate(three_way_input())
        [leg] = option_of(out, "L")["legs"]
        # 500 GB × 8 / (10 Gbit/s × 3600) × (1 + 0.1) = 0.122222 h; 500 × 0.01 = 5.0
        assert leg == {
            "what": "input",
            "from": "data",
            "to": "home",
            "gb": 500.0,
            "hours": 0.122222,
            "cost": 5.0,
            "link_reserved": False,
        }

    def test_P_three_options_worked_by_hand(self):
        out = evaluate(three_way_input())
        local, near, far = (option_of(out, k) for k in ("L", "M", "D"))
        assert [o["kind"] for o in (local, near, far)] == [
            "wait_local",
            "move_compute",
            "move_data",
        ]
        # L: transfer 0.122222 + queue 10 + compute 10 = 20.122222 h; 8 × 10 × 2.0 = 160 + 5
        assert (local["tier"], local["total_hours"], local["total_cost"]) == (
            "same_city",
            20.122222,
            165.0,
        )
        # M: image 10 GB → 80/36000 × 1.1 = 0.002444 h, results 20 GB → 0.004889 h
        #    = 0.007333 + queue 1 + 10 / 2 = 6.007333 h; 8 × 5 × 16/8 = 80, fee 8, moves 0.3
        assert near["transfer_hours"] == 0.007333
        assert (near["compute_hours"], near["total_hours"]) == (5.0, 6.007333)
        assert (near["compute_cost"], near["scheduling_cost"], near["transfer_cost"]) == (
            80.0,
            8.0,
            0.3,
        )
        assert near["total_cost"] == 88.3
        # D: input 500 GB at 20 Gbit/s, image and results at 5 Gbit/s, cross_hub buffer 0.3:
        #    1.3 × (4000/72000 + 240/18000) = 0.089556 h; 8 × 10 × 5.0 = 400 + 10.9
        assert (far["tier"], far["transfer_hours"], far["total_cost"]) == (
            "cross_hub",
            0.089556,
            410.9,
        )
        assert out["chosen"] == {"kind": "move_compute", "site": "data", "offer": "M"}

    def test_P_effective_price_of_the_three_billing_bases(self):
        assert effective_gpu_hour_price("gpu_hour", 2.0, 8) == 2.0
        assert effective_gpu_hour_price("machine_hour", 16, 8) == 2.0  # 16 / 8
        # 10000 / (500 h × 8 GPUs × 0.5 utilisation) = 5.0
        assert effective_gpu_hour_price("contract", 10000, 8, 500, 0.5) == 5.0
        with pytest.raises(ValueError):
            effective_gpu_hour_price("contract", 10000, 8)
        out = evaluate(three_way_input())
        assert [o["effective_price"] for o in out["options"]] == [2.0, 2.0, 5.0]

    def test_P_gpus_come_from_task_then_candidate_then_sizing(self):
        data = three_way_input(gpus=4)
        assert option_of(evaluate(data), "L")["compute_cost"] == 80.0  # 4 × 10 h × 2.0
        # SPEC 6.1: without a planned count (explicit null) P3 blocks, and the figures still
        # shown use the candidate's machines, else what fits
        data = three_way_input(gpus=None)
        data["offers"][0]["machines"] = 2
        out = evaluate(data)
        assert option_of(out, "L")["gpus"] == 16  # 2 machines × 8
        assert option_of(out, "M")["gpus"] == 8  # no memory figure: 1 machine × 8
        [f] = findings_of(out, "P3")
        assert (f["severity"], f["offer"]) == ("block", None)

    def test_P_machine_and_contract_offers_bill_whole_machines(self):
        # SPEC 6.1: 4 planned GPUs; machine_hour and contract bill ceil(4 / 8) = 1 machine of 8
        out = evaluate(three_way_input(gpus=4))
        local, near, far = (option_of(out, k) for k in ("L", "M", "D"))
        assert (local["gpus"], local["billed_gpus"]) == (4, 4)  # gpu_hour bills GPUs
        assert (near["gpus"], near["billed_gpus"]) == (4, 8)
        assert (far["gpus"], far["billed_gpus"]) == (4, 8)
        assert local["compute_cost"] == 80.0  # 4 × 10 h × 2.0
        assert near["compute_cost"] == 80.0  # 8 × 5 h × 16/8
        assert far["compute_cost"] == 400.0  # 8 × 10 h × 5.0

    def test_P_delay_cost_enters_the_objective(self):
        out = evaluate(three_way_input(delay_cost_per_hour=10))
        # L: 165 + 10 × 20.122222 = 366.22222; M: 88.3 + 60.07333 = 148.37333
        assert option_of(out, "L")["objective"] == 366.222222
        assert option_of(out, "M")["objective"] == 148.373333

    def test_P_no_link_makes_an_option_infeasible(self):
        data = three_way_input()
        data["links"] = [link for link in data["links"] if link["to"] != "far"]
        out = evaluate(data)
        far = option_of(out, "D")
        assert (far["feasible"], far["reason"], far["total_cost"]) == (False, "no_link", None)
        assert far["legs"][0]["hours"] is None

    def test_P_a_reverse_record_overrides_symmetry(self):
        data = three_way_input()
        data["links"].append(
            {"from": "home", "to": "data", "bandwidth_gbps": 1, "price_per_gb": 0.5}
        )
        near = option_of(evaluate(data), "M")
        # image home→data now uses the 1 Gbit/s record: 80 / 3600 × 1.1 = 0.024444 h, 10 × 0.5;
        # results data→home keep the original 10 Gbit/s record.
        assert [leg["hours"] for leg in near["legs"]] == [0.024444, 0.004889]
        assert [leg["cost"] for leg in near["legs"]] == [5.0, 0.2]

    def test_P_capacity_limits(self):
        # 70B training needs 3 machines of 8 (1344 GB / 72 GB → 19 GPUs); 24 GPUs planned
        t = big_training(parallelism=["tensor"], can_maintain_scheduler=True)
        offers = [
            offer("small", max_machines=2),  # 2 × 8 = 16 < 24 GPUs
            offer("nosplit", parallelism=["data"]),  # shares nothing that splits the model
            offer("ok", max_machines=3, parallelism=["tensor"]),  # 3 × 8 = 24 ≥ 24
        ]
        out = evaluate(make_input(t, offers=offers))
        assert option_of(out, "small")["reason"] == "pool_too_small"
        assert option_of(out, "nosplit")["reason"] == "no_shared_parallelism"
        assert option_of(out, "ok")["feasible"] is True
        assert option_of(out, "ok")["gpus"] == 24  # the task's planned count

    def test_P_capacity_limits_a_job_that_fits_one_gpu_too(self):
        # SPEC 6.1 capacity, whatever the coupling or memory: 64 planned GPUs on a pool of
        # 1 machine × 8 = 8 GPUs is infeasible (v1 billed 64 GPUs on it)
        out = evaluate(make_input(task(gpus=64), offers=[offer("local", max_machines=1)]))
        assert sizing_row(out, "local")["fits_single_gpu"] is True
        assert option_of(out, "local")["reason"] == "pool_too_small"
        assert out["chosen"] is None

    def test_P_tie_break_prefers_wait_local_then_site_code(self):
        data = make_input(task(), offers=[offer("b", "home"), offer("a", "home")])
        assert evaluate(data)["chosen"]["offer"] == "a"  # same objective, same site → id
        data = make_input(
            task(data_site="data", input_gb=0, image_gb=0),
            offers=[offer("x", "data"), offer("y", "home")],
        )
        # both cost 160 and move nothing; y at home is wait_local and wins the tie
        out = evaluate(data)
        assert option_of(out, "x")["objective"] == option_of(out, "y")["objective"] == 160.0
        assert out["chosen"]["kind"] == "wait_local"

    def test_P1_nothing_within_budget_warns_and_keeps_the_least_objective(self):
        data = three_way_input(latency_budget_hours={"compute": 2})
        data["offers"][2]["relative_speed"] = 4
        out = evaluate(data)
        # compute segments: L 10 h, M 10 / 2 = 5 h, D 10 / 4 = 2.5 h: all over 2 h.
        # D is fastest: 0.089556 + 0 + 2.5 = 2.589556 h, but costs 8 × 2.5 × 5.0 = 100
        # + 10.9 = 110.9; M (6.007333 h) costs 88.3. SPEC 6.1: budgets guide, they do not
        # veto, so the least objective M is chosen (v1 took the fastest, D).
        assert all(o["within_budget"] is False for o in out["options"])
        assert option_of(out, "D")["total_hours"] == 2.589556
        assert option_of(out, "D")["total_cost"] == 110.9
        assert out["chosen"]["offer"] == "M"
        [f] = findings_of(out, "P1")
        assert (f["severity"], f["data"]) == ("warn", {"options": 3})

    def test_P1_does_not_fire_when_one_option_meets_the_budget(self):
        out = evaluate(three_way_input(latency_budget_hours={"queue": 0.5}))
        # only D (queue 0 h) meets the queue budget; SPEC 6.1: M (queue 1 h) is still chosen
        # on least objective, and M3 names D with its extra cost 410.9 − 88.3 = 322.6
        within = {o["offer"]: o["within_budget"] for o in out["options"]}
        assert within == {"L": False, "M": False, "D": True}
        assert out["chosen"]["offer"] == "M"
        assert "P1" not in rules(out)
        [f] = findings_of(out, "M3")
        assert (f["key"], f["data"]) == (
            "M3.alternative",
            {
                "segment": "queue",
                "hours": 1.0,
                "budget": 0.5,
                "kind": "move_data",
                "site": "far",
                "offer": "D",
                "extra_cost": 322.6,
            },
        )

    def test_P2_no_feasible_placement_blocks(self):
        data = three_way_input()
        data["links"] = []
        out = evaluate(data)
        assert out["chosen"] is None
        [f] = findings_of(out, "P2")
        assert (f["severity"], f["offer"], f["data"]) == ("block", None, {"options": 3})
        assert out["readiness"] == {
            "channel_reserved": False,
            "resume_verified": False,
            "env_aligned": False,
            "dispatch_ready": False,
        }
        assert "H2" not in rules(out)

    def test_P2_does_not_fire_with_a_feasible_option(self):
        assert "P2" not in rules(evaluate(three_way_input()))


class TestIndicator:
    def test_M1_high_ratio_moves_compute(self):
        out = evaluate(three_way_input(input_gb=5000, compress_ratio=0.5))
        # 5000 × 0.5 / 10 h = 250 GB/h ≥ 100
        assert out["metrics"]["data_compute_ratio"] == 250.0
        assert findings_of(out, "M1")[0]["key"] == "M1.high"

    def test_M1_low_ratio_schedules_freely(self):
        out = evaluate(three_way_input(input_gb=50))  # 50 / 10 = 5 < 10
        assert findings_of(out, "M1")[0]["key"] == "M1.low"

    def test_M1_does_not_fire_in_between_or_without_compute_hours(self):
        out = evaluate(three_way_input())  # 500 / 10 = 50
        assert out["metrics"]["data_compute_ratio"] == 50.0
        assert "M1" not in rules(out)
        out = evaluate(three_way_input(compute_hours=0))
        assert out["metrics"]["data_compute_ratio"] is None
        assert "M1" not in rules(out)

    def test_M2_interruption_costs_more_than_scheduling_saves(self):
        out = evaluate(three_way_input(interruption_cost_hours=10))
        # 10 h × 8 GPUs × 2.0 = 160 > benefit 165 − 88.3 = 76.7, chosen is move_compute
        assert out["metrics"]["interruption_cost"] == 160.0
        assert out["metrics"]["scheduling_benefit"] == 76.7
        assert findings_of(out, "M2")[0]["severity"] == "warn"

    def test_M2_does_not_fire_when_benefit_is_larger(self):
        out = evaluate(three_way_input(interruption_cost_hours=2))  # 32 < 76.7
        assert out["metrics"]["interruption_cost"] == 32.0
        assert "M2" not in rules(out)

    def test_M2_benefit_is_null_without_a_wait_local_option(self):
        data = three_way_input(interruption_cost_hours=10)
        data["offers"] = data["offers"][1:]
        out = evaluate(data)
        assert out["metrics"]["scheduling_benefit"] is None
        assert "M2" not in rules(out)

    def test_M3_names_each_segment_over_budget(self):
        out = evaluate(three_way_input(latency_budget_hours={"compute": 4, "queue": 0.5}))
        # chosen M (least objective, 88.3): compute 5 > 4, queue 1 > 0.5
        assert out["metrics"]["over_budget"] == ["queue", "compute"]
        assert [f["data"]["segment"] for f in findings_of(out, "M3")] == ["queue", "compute"]

    def test_M3_does_not_fire_within_budget(self):
        out = evaluate(three_way_input(latency_budget_hours={"compute": 5, "queue": 1}))
        assert out["metrics"]["over_budget"] == []
        assert "M3" not in rules(out)

    def test_M4_network_share_over_a_fifth(self):
        data = three_way_input()
        data["links"][0]["price_per_gb"] = 2.0  # data–home: image 10 + results 20 GB → 60
        out = evaluate(data)
        # chosen M: 60 / (80 + 8 + 60) = 0.405405 > 0.2
        assert out["chosen"]["offer"] == "M"
        assert out["metrics"]["network_cost_share"] == 0.405405
        assert findings_of(out, "M4")[0]["data"]["share_pct"] == 40.540541

    def test_M4_does_not_fire_for_a_small_share(self):
        out = evaluate(three_way_input())
        assert out["metrics"]["network_cost_share"] == 0.003398  # 0.3 / 88.3
        assert "M4" not in rules(out)


class TestRollout:
    def test_H1_unvalidated_tier_pilots_first(self):
        out = evaluate(three_way_input())  # chosen M is same_city; new teams: same_site only
        [f] = findings_of(out, "H1")
        assert (f["key"], f["data"]["tier"]) == ("H1", "same_city")

    def test_H1_notes_when_two_pilots_succeeded(self):
        pilots = [{"kind": "pilot_migration", "tier": "same_city", "succeeded": True}] * 2
        data = three_way_input()
        data["benchmarks"] = pilots
        [f] = findings_of(evaluate(data), "H1")
        assert f["key"] == "H1.pilots_ready" and f["data"]["successful_pilots"] == 2

    def test_H1_does_not_fire_on_a_validated_tier(self):
        team = {"has_machines": True, "validated_tiers": ["same_datacenter", "same_city"]}
        assert "H1" not in rules(evaluate(three_way_input(team=team)))

    def test_H2_moving_plan_without_readiness_blocks(self):
        data = three_way_input(resume_verified=True)
        data["checklists"] = answered("L", "M", "D")
        out = evaluate(data)
        [f] = findings_of(out, "H2")
        assert (f["severity"], f["offer"]) == ("block", None)
        assert f["data"]["missing"] == ["channel_reserved", "env_aligned"]
        assert out["readiness"]["dispatch_ready"] is False
        assert out["signoff"]["L"]["rules"] == ["H2"]

    def test_H2_does_not_fire_when_dispatch_ready(self):
        data = three_way_input(resume_verified=True, env_aligned=True)
        data["links"][0].update(reservable=True, reserved=True)  # data–home carries M's legs
        out = evaluate(data)
        assert out["readiness"] == {
            "channel_reserved": True,
            "resume_verified": True,
            "env_aligned": True,
            "dispatch_ready": True,
        }
        assert "H2" not in rules(out)

    def test_H2_does_not_fire_when_nothing_moves(self):
        out = evaluate(make_input())
        assert out["readiness"]["dispatch_ready"] is True
        assert "H2" not in rules(out)


class TestTotalBill:
    def test_T_bill_with_rerun_loss(self):
        data = three_way_input()
        data["benchmarks"] = [single(12, offer_id="L", failure_reruns=2, hours_lost_per_rerun=1.5)]
        out = evaluate(data)
        row = out["bill"][0]
        # rerun loss 2 × 1.5 h × burn (8 GPUs × 2.0) = 48; total 160 + 0 + 5 + 48 = 213
        assert row == {
            "offer": "L",
            "feasible": True,
            "unit_price": 2.0,
            "compute_cost": 160.0,
            "scheduling_cost": 0.0,
            "transfer_cost": 5.0,
            "rerun_loss": 48.0,
            "migration_effort_hours": None,  # no Q5 effort, no pilot record
            "migration_cost": 0.0,  # engineer_hour_cost defaults to 0: not priced
            "preemption_cost": 0.0,  # SPEC 6.3: on-demand capacity is not preempted
            "total": 213.0,
            "rank_unit": 1,
            "rank_total": 2,
        }
        [f] = findings_of(out, "T")
        assert f["data"] == {"offer": "M", "total": 88.3, "unit_price": 2.0}

    def test_T_does_not_fire_without_any_known_total(self):
        data = three_way_input()
        data["links"] = []
        out = evaluate(data)
        # every option needs a link that is gone: no total is known, nothing to compare
        assert [row["total"] for row in out["bill"]] == [None, None, None]
        assert [row["rank_total"] for row in out["bill"]] == [None, None, None]
        assert "T" not in rules(out)


class TestSignoff:
    def test_S_blocked_by_the_candidate_checklist_only(self):
        out = evaluate(
            make_input(
                offers=[offer("a"), offer("b")],
                checklists={"a": {"q1": "answered"}, **answered("b")},
            )
        )
        blocked = signoff_check(
            out,
            offer_id="a",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )
        assert blocked["allowed"] is False
        assert [(r["code"], r["data"]["rule"]) for r in blocked["reasons"]] == [
            ("block_finding", "C")
        ]
        allowed = signoff_check(
            out,
            offer_id="b",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )
        assert allowed == {"allowed": True, "reasons": []}

    def test_S_author_repeat_and_stale_snapshot_are_refused(self):
        out = evaluate(make_input(checklists=answered("local")))
        result = signoff_check(
            out,
            offer_id="local",
            author_id=7,
            reviewer_id=7,
            previous_decider_ids=["7"],
            snapshot_is_latest=False,
        )
        assert [r["code"] for r in result["reasons"]] == [
            "self_approval",
            "already_decided",
            "stale_snapshot",
        ]
        assert all(r["rule"] == "S" and r["message_zh"] for r in result["reasons"])


def test_tier_between_accepts_dicts_and_sites():
    a = {"code": "a", "datacenter": "dc1", "city": "bj"}
    assert tier_between(a, a) == "same_site"
    assert tier_between(a, {"code": "b", "datacenter": "dc1", "city": "bj"}) == "same_datacenter"
    assert tier_between(a, Site(code="c", datacenter="dc2", city="bj")) == "same_city"
    assert tier_between(Site(code="d"), Site(code="e")) == "cross_hub"  # blanks never match


def test_every_finding_key_has_both_languages():
    for key, templates in MESSAGES.items():
        assert set(templates) == {"en", "zh_Hans"}, key


def test_engine_imports_no_django():
    # A fresh interpreter: importing the engine must not pull Django in.
    code = "import sys, apps.scoring.engine; sys.exit('django' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0
