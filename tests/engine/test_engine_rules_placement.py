"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not:
placement (P) and the indicators (M).

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from engine import (
    effective_gpu_hour_price,
    evaluate,
)

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    big_training,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    sizing_row,
    task,
    three_way_input,
)


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
