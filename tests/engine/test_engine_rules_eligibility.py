"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not:
cross-domain eligibility: exclusions (X) and gates (G).

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from engine import (
    evaluate,
)

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    option_of,
    rules,
    task,
    three_way_input,
)


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

    def test_G1_names_every_missing_condition_as_a_warning(self):
        out = evaluate(
            three_way_input(env_simple=False, image_packaged=False, offsite_allowed=False)
        )
        [f] = findings_of(out, "G1")
        assert (f["severity"], f["key"]) == ("warn", "G1")
        assert f["data"] == {"missing": ["env_simple", "image_packaged", "offsite_allowed"]}

    def test_G2_and_G3_are_warnings_with_their_figures(self):
        out = evaluate(
            three_way_input(
                latency_budget_hours={"transfer": 0}, resumable=False, interruption_cost_hours=2
            )
        )
        [g2] = findings_of(out, "G2")
        assert (g2["severity"], g2["data"]) == ("warn", {"transfer_budget": 0.0})
        [g3] = findings_of(out, "G3")
        assert g3["severity"] == "warn"

    def test_an_exclusion_other_than_X4_carries_no_sites(self):
        [f] = findings_of(evaluate(three_way_input(strict_consistency=True)), "X5")
        assert (f["severity"], f["key"], f["data"]) == ("warn", "X5", {})

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

    def test_D1_at_exactly_a_tenth_does_not_fire_just_under_does(self):
        # 500 GB / 10 = 50 GB: 50 is not under it; 48 is (and would not be under 500 / 11)
        assert "D1" not in rules(evaluate(three_way_input(result_gb=50)))
        assert "D1" in rules(evaluate(three_way_input(result_gb=48)))

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
        # M (88.3, worked in test_engine_hints) is chosen and has no input leg: SPEC 7.8 says
        # running at the data avoids the recurring transfers (2.2 said no site has room).
        assert out["chosen"]["offer"] == "M"
        [f] = findings_of(out, "D2")
        assert (f["key"], f["data"]) == ("D2.at_data", {"data_passes": 3, "site": "data"})
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
