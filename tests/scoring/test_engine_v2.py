"""Method version 2 (SPEC 6.1 corrections, 6.2 strict input): one class per corrected rule.

Each test builds the case that engine 1.x decided wrongly and asserts the figure v2 must give.
Every expected figure is a literal worked out by hand in the comment beside it (never obtained by
running the engine). Leg hours = gb × 8 / (bandwidth_gbps × 3600) × (1 + buffer), with the tier
buffers same_datacenter 0.0, same_city 0.1, cross_hub 0.3.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.scoring.engine import EngineInputError, evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)

# Four sites: `annex` shares home's datacenter (dc-h); `data` is another datacenter in the same
# city (shanghai); `far` is another city and hub.
SITES_V2: list[dict[str, Any]] = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 10},
    {"code": "annex", "datacenter": "dc-h", "city": "shanghai", "hub": "east", "queue_hours": 2},
    {"code": "data", "datacenter": "dc-d", "city": "shanghai", "hub": "east", "queue_hours": 1},
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "hub": "west", "queue_hours": 0},
]
LINKS_V2: list[dict[str, Any]] = [
    # same_datacenter, buffer 0.0: 450 GB take 450 × 8 / (1 × 3600) = 1.0 h
    {"from": "home", "to": "annex", "bandwidth_gbps": 1, "price_per_gb": 0},
    {"from": "data", "to": "home", "bandwidth_gbps": 10, "price_per_gb": 0.01},
    {"from": "data", "to": "annex", "bandwidth_gbps": 10, "price_per_gb": 0.01},
    {"from": "data", "to": "far", "bandwidth_gbps": 20, "price_per_gb": 0.02},
    {"from": "home", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
    {"from": "annex", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03},
]
ALL_ANSWERED = {q: "answered" for q in ("q1", "q2", "q3", "q4", "q5", "q6")}


def approx(value: float) -> Any:
    # The output rounds money and hours to 6 decimals.
    return pytest.approx(value, abs=1e-6)


def single(e2e: float, offer_id: str = "local", *, nodes: int = 1, gpn: int = 8, **kw: Any):
    return {
        "kind": "single",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": e2e,
        **kw,
    }


def multi(e2e: float, offer_id: str = "local", *, nodes: int = 2, gpn: int = 8, **kw: Any):
    return {
        "kind": "multi",
        "offer": offer_id,
        "nodes": nodes,
        "gpus_per_node": gpn,
        "e2e_hours": e2e,
        "compute_hours": e2e,
        **kw,
    }


def sizing_row(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(s for s in out["sizing"]["offers"] if s["offer"] == offer_id)


def bill_row(out: dict[str, Any], offer_id: str) -> dict[str, Any]:
    return next(r for r in out["bill"] if r["offer"] == offer_id)


def big_training(**overrides: Any) -> dict[str, Any]:
    """70B full training: 70 × 16 × 1.2 = 1344 GB; on 80 × 0.9 = 72 GB usable GPUs
    ceil(1344 / 72 = 18.67) = 19 GPUs, ceil(19 / 8) = 3 machines of 8; 24 GPUs planned."""
    team = overrides.pop("team", {"has_machines": True})
    data = task(
        workload="training",
        params_b=70,
        gpus=24,
        parallelism=["data", "tensor", "pipeline"],
        team=team,
    )
    data.update(overrides)
    return data


# ---------------------------------------------------------------------------------------------
# Eligibility: "stay local or in the same domain" (a domain is a datacenter)


class TestEligibilityHomeDomain:
    def _input(self, **task_overrides: Any) -> dict[str, Any]:
        # Fails G1 (offsite_allowed false). 400 GB in, 40 GB image, 10 GB results.
        t = task(
            offsite_allowed=False,
            input_gb=400,
            image_gb=40,
            result_gb=10,
            delay_cost_per_hour=1,
        )
        t.update(task_overrides)
        offers = [
            offer("L", "home"),
            offer("A", "annex"),
            offer("D", "data", price=1.0),
            offer("F", "far", price=1.0),
        ]
        return make_input(t, offers=offers, sites=SITES_V2, links=LINKS_V2)

    def test_G1_failing_task_may_use_an_option_in_the_home_datacenter(self):
        """v1: a task failing G1 could only wait locally; the annex in home's own datacenter
        was refused although the seed says "留在本地或同域"."""
        out = evaluate(self._input())
        assert out["cross_domain"]["eligible"] is False
        assert findings_of(out, "G1")
        a = option_of(out, "A")
        assert a["feasible"] is True
        assert (a["kind"], a["tier"]) == ("move_data", "same_datacenter")
        # Legs home → annex and back, all inside dc-h at 1 Gbps, buffer 0.0:
        # 400 + 40 + 10 = 450 GB × 8 / (1 × 3600) = 1.0 h, price 0 → transfer cost 0
        assert a["transfer_gb"] == 450.0
        assert a["transfer_hours"] == approx(1.0)
        assert a["transfer_cost"] == 0.0
        # queue 2 (annex) + compute 10 + transfer 1 = 13 h; 8 GPUs × 10 h × 2.0 = 160
        assert a["total_hours"] == approx(13.0)
        assert a["total_cost"] == 160.0
        # objective 160 + 1 × 13 = 173 < wait_local 160 + 1 × (10 + 10) = 180
        assert a["objective"] == approx(173.0)
        assert option_of(out, "L")["objective"] == 180.0
        assert out["chosen"] == {"kind": "move_data", "site": "annex", "offer": "A"}

    def test_G1_option_in_another_datacenter_is_not_eligible(self):
        """v1 and v2 agree that another datacenter is out, but v2 names the reason; the same
        city (data, dc-d) is not the same domain either."""
        out = evaluate(self._input())
        for oid in ("D", "F"):
            o = option_of(out, oid)
            assert (o["feasible"], o["reason"]) == (False, "not_eligible")
        # wait_local stays allowed
        assert option_of(out, "L")["feasible"] is True

    def test_G1_a_leg_leaving_the_home_datacenter_is_not_eligible(self):
        """The annex is in home's datacenter, but with the data at `data` (dc-d) its input leg
        data → annex leaves the domain: not every leg stays inside, so not eligible."""
        out = evaluate(self._input(data_site="data"))
        a = option_of(out, "A")
        assert (a["feasible"], a["reason"]) == (False, "not_eligible")
        assert option_of(out, "L")["feasible"] is True  # waiting locally stays allowed
        assert out["chosen"]["offer"] == "L"


# ---------------------------------------------------------------------------------------------
# X4: compliance restricted, processing at allowed sites


class TestX4Compliance:
    def _input(self, **task_overrides: Any) -> dict[str, Any]:
        t = task(
            compliance_restricted=True,
            data_site="data",
            input_gb=100,
            result_gb=10,
            image_gb=10,
        )
        t.update(task_overrides)
        offers = [offer("L", "home"), offer("D", "data"), offer("F", "far", price=1.0)]
        return make_input(t, offers=offers)

    def test_X4_running_next_to_restricted_data_is_feasible(self):
        """v1: X4 made the task ineligible (only wait_local) and refused every option moving
        the input, wait_local included → P2 "no feasible placement". Running next to the data
        moves no input and must be feasible."""
        out = evaluate(self._input())
        assert "P2" not in rules(out)
        assert out["cross_domain"]["allowed_sites"] == ["data"]  # data's datacenter dc-d
        d = option_of(out, "D")
        assert (d["feasible"], d["kind"]) == (True, "move_compute")
        # image home → data 10 GB at 10 Gbps same_city: 10 × 8 / 36000 × 1.1 = 0.00244444 h;
        # results data → home 10 GB likewise; 2 × 0.00244444 = 0.00488889 h
        assert d["transfer_hours"] == approx(0.004888889)
        # (10 + 10) GB × 0.01 = 0.2; compute 8 GPUs × 10 h × 2.0 = 160 → 160.2
        assert d["transfer_cost"] == approx(0.2)
        assert d["total_cost"] == approx(160.2)
        # queue 1 + compute 10 + 0.00488889 = 11.00488889 h
        assert d["total_hours"] == approx(11.004888889)
        assert out["chosen"] == {"kind": "move_compute", "site": "data", "offer": "D"}

    def test_X4_option_at_a_site_not_allowed_is_compliance_site(self):
        """v1 refused these for moving data; v2 names the site rule first."""
        out = evaluate(self._input())
        for oid in ("L", "F"):
            o = option_of(out, oid)
            assert (o["feasible"], o["reason"]) == (False, "compliance_site")
            assert "compliance_moves_data" in o["reasons"]

    def test_X4_allowed_sites_are_honoured(self):
        """allowed_sites [data, far]: the input leg data → far runs between allowed sites, so
        the cheaper far pool is feasible; home is still not allowed."""
        out = evaluate(self._input(allowed_sites=["data", "far"]))
        assert out["cross_domain"]["allowed_sites"] == ["data", "far"]
        f = option_of(out, "F")
        assert f["feasible"] is True
        # input 100 GB data → far 20 Gbps cross_hub: 800 / 72000 × 1.3 = 0.01444444 h, 2.0
        # image 10 GB home → far 5 Gbps: 80 / 18000 × 1.3 = 0.00577778 h, 0.3
        # results 10 GB far → home: 0.00577778 h, 0.3
        # 0.01444444 + 2 × 0.00577778 = 0.026 h
        assert f["transfer_hours"] == approx(0.026)
        assert f["transfer_cost"] == approx(2.6)
        # compute 8 × 10 × 1.0 = 80 → 82.6, below D's 160.2
        assert f["total_cost"] == approx(82.6)
        assert out["chosen"]["offer"] == "F"
        assert option_of(out, "L")["reason"] == "compliance_site"

    def test_X4_results_restricted_keeps_results_inside(self):
        """With results_restricted the results leg data → home leaves the allowed sites."""
        out = evaluate(self._input(results_restricted=True))
        d = option_of(out, "D")
        assert (d["feasible"], d["reason"]) == (False, "compliance_moves_results")
        assert out["chosen"] is None and "P2" in rules(out)
        # results kept at the data site: only the image leg home → data moves (0.1)
        out = evaluate(self._input(results_restricted=True, result_site="data"))
        d = option_of(out, "D")
        assert d["feasible"] is True
        assert d["total_cost"] == approx(160.1)  # 160 + 10 GB × 0.01

    def test_X4_another_failed_gate_still_keeps_the_home_domain(self):
        """X4 replaces the home-domain limit for its own sake only: with G1 failing too, the
        option at the data (dc-d, not home's dc-h) is also not eligible, and home is not an
        allowed site: nothing is feasible."""
        out = evaluate(self._input(offsite_allowed=False))
        d = option_of(out, "D")
        assert (d["feasible"], d["reasons"]) == (False, ["not_eligible"])
        assert option_of(out, "L")["reason"] == "compliance_site"
        assert out["chosen"] is None and "P2" in rules(out)

    def test_X4_results_may_leave_without_the_flag(self):
        out = evaluate(self._input())
        assert "compliance_moves_results" not in option_of(out, "D")["reasons"]


# ---------------------------------------------------------------------------------------------
# X3 / coupling and capacity


class TestX3Coupling:
    def _tight(self, **overrides: Any) -> dict[str, Any]:
        # 7B training: 7 × 16 × 1.2 = 134.4 GB → 2 GPUs of 72 GB, one machine with tensor.
        t = task(
            workload="training",
            coupling="tight",
            parallelism=["data", "tensor"],
            data_site="far",
            input_gb=1000,
        )
        t.update(overrides)
        offers = [offer("L", "home", max_machines=1), offer("F", "far", max_machines=1)]
        return make_input(t, offers=offers)

    def test_X3_tight_training_with_data_in_another_city_runs_at_the_data(self):
        """v1: tight coupling allowed same_site only, measured from data, home and results
        sites, so a job whose data is in another city was refused everywhere (P2)."""
        out = evaluate(self._tight())
        assert "P2" not in rules(out)
        f = option_of(out, "F")
        assert (f["feasible"], f["kind"]) == (True, "move_compute")
        # only the image moves: 10 GB home → far, 5 Gbps cross_hub: 80 / 18000 × 1.3 h, 0.3
        assert f["transfer_hours"] == approx(0.005777778)
        # 8 GPUs × 10 h × 2.0 = 160 + 0.3 = 160.3
        assert f["total_cost"] == approx(160.3)
        # waiting at home is feasible too: 1000 GB far → home 8000 / 18000 × 1.3 = 0.57777778 h,
        # 1000 × 0.03 = 30 → 190
        home = option_of(out, "L")
        assert home["feasible"] is True
        assert home["transfer_hours"] == approx(0.577777778)
        assert home["total_cost"] == approx(190.0)
        assert out["chosen"] == {"kind": "move_compute", "site": "far", "offer": "F"}

    def test_X3_is_an_info_finding_not_an_exclusion(self):
        out = evaluate(self._tight())
        [x3] = findings_of(out, "X3")
        assert x3["severity"] == "info"
        assert "X3" not in out["cross_domain"]["exclusions"]
        assert out["cross_domain"]["eligible"] is True
        [k1] = findings_of(out, "K1")
        assert k1["severity"] == "info"

    @pytest.mark.parametrize("coupling", ["none", "loose", "tight"])
    def test_X3_pool_too_small_for_any_task(self, coupling):
        """v1 billed 64 GPUs on an 8-GPU pool: 64 × 10 h × 2.0 = 1280 as a feasible option."""
        t = task(gpus=64, coupling=coupling, parallelism=["data", "tensor"])
        offers = [offer("small", max_machines=1), offer("big", max_machines=8)]
        out = evaluate(make_input(t, offers=offers))
        small = option_of(out, "small")
        # 64 GPUs > 1 machine × 8 GPUs
        assert (small["feasible"], small["reason"]) == (False, "pool_too_small")
        # 64 ≤ 8 machines × 8 GPUs = 64 → fits; 64 × 10 × 2.0 = 1280
        big = option_of(out, "big")
        assert big["feasible"] is True
        assert big["total_cost"] == 1280.0
        assert out["chosen"]["offer"] == "big"


class TestK2SpreadPools:
    def _input(self, coupling: str, gpus: int, offers: list[dict[str, Any]]) -> dict[str, Any]:
        return make_input(task(gpus=gpus, coupling=coupling), offers=offers)

    def test_K2_names_sets_of_pools_fewest_first(self):
        """v1 had no K2: a job no single pool holds was just refused. Need 24 GPUs from pools
        A 2×8 = 16 (home), B 1×8 = 8 (data), C 1×4 = 4 and D 1×4 = 4 (far)."""
        offers = [
            offer("A", "home", max_machines=2),
            offer("B", "data", max_machines=1),
            offer("C", "far", gpus_per_machine=4, max_machines=1),
            offer("D", "far", gpus_per_machine=4, max_machines=1),
        ]
        out = evaluate(self._input("none", 24, offers))
        assert all(o["reason"] == "pool_too_small" for o in out["options"])
        [k2] = findings_of(out, "K2")
        assert k2["severity"] == "info"
        # minimal sets reaching 24: {A, B} = 16 + 8; {A, C, D} = 16 + 4 + 4 (A+B+C etc. only
        # add a pool not needed); none within any tier for coupling none
        assert k2["data"]["gpus"] == 24
        assert k2["data"]["tier"] == "cross_hub"
        sets = [sorted(s) for s in k2["data"]["sets"]]
        assert sets == [["A", "B"], ["A", "C", "D"]]

    def test_K2_loose_job_stays_within_the_city(self):
        """Loose coupling with 10 h < 24 h spreads up to same_city: {A home, F far} = 24 is
        cross_hub and is not named; {A home, B data} (shanghai) is."""
        offers = [
            offer("A", "home", max_machines=2),
            offer("B", "data", max_machines=1),
            offer("F", "far", max_machines=1),
        ]
        out = evaluate(self._input("loose", 24, offers))
        [k2] = findings_of(out, "K2")
        assert k2["data"]["tier"] == "same_city"
        assert [sorted(s) for s in k2["data"]["sets"]] == [["A", "B"]]

    def test_K2_loose_resumable_long_job_may_span_hubs(self):
        # compute_hours 24 ≥ loose_cross_hub_hours 24 and resumable → cross_hub allowed:
        # {A home, F far} = 16 + 8 = 24 is named too (A + B first in pool order is not asserted)
        offers = [
            offer("A", "home", max_machines=2),
            offer("B", "data", max_machines=1),
            offer("F", "far", max_machines=1),
        ]
        t = task(gpus=24, coupling="loose", compute_hours=24, resumable=True)
        out = evaluate(make_input(t, offers=offers))
        [k2] = findings_of(out, "K2")
        assert k2["data"]["tier"] == "cross_hub"
        assert sorted(sorted(s) for s in k2["data"]["sets"]) == [["A", "B"], ["A", "F"]]
        # not resumable: back to same_city, only {A, B}
        t["resumable"] = False
        out = evaluate(make_input(t, offers=offers))
        [k2] = findings_of(out, "K2")
        assert k2["data"]["tier"] == "same_city"
        assert [sorted(s) for s in k2["data"]["sets"]] == [["A", "B"]]

    def test_K2_names_at_most_three_sets(self):
        # 16 GPUs from five 8-GPU pools: C(5, 2) = 10 pairs would do; three are named
        offers = [offer(f"p{i}", "home", max_machines=1) for i in range(1, 6)]
        out = evaluate(self._input("none", 16, offers))
        [k2] = findings_of(out, "K2")
        assert len(k2["data"]["sets"]) == 3
        assert all(len(s) == 2 for s in k2["data"]["sets"])

    def test_K2_not_for_a_tightly_coupled_job(self):
        offers = [
            offer("A", "home", max_machines=2),
            offer("B", "data", max_machines=1),
        ]
        out = evaluate(self._input("tight", 24, offers))
        assert all(o["reason"] == "pool_too_small" for o in out["options"])
        assert "K2" not in rules(out)
        assert "K1" in rules(out)

    def test_K2_not_when_one_pool_holds_the_job(self):
        offers = [offer("A", "home", max_machines=3), offer("B", "data", max_machines=1)]
        out = evaluate(self._input("none", 24, offers))  # A: 3 × 8 = 24 holds it
        assert "K2" not in rules(out)


# ---------------------------------------------------------------------------------------------
# Repeated full scans: staged once when there is room


def _scan_sites(home_tb: float | None, far_tb: float | None) -> list[dict[str, Any]]:
    return [
        {
            "code": "home",
            "datacenter": "dc-h",
            "city": "shanghai",
            "hub": "east",
            "queue_hours": 10,
            "storage_tb": home_tb,
        },
        {"code": "data", "datacenter": "dc-d", "city": "shanghai", "hub": "east", "queue_hours": 1},
        {
            "code": "far",
            "datacenter": "dc-f",
            "city": "guiyang",
            "hub": "west",
            "queue_hours": 0,
            "storage_tb": far_tb,
        },
    ]


class TestD2RepeatedFullScan:
    def _input(self, home_tb: float | None, far_tb: float | None) -> dict[str, Any]:
        # 1000 GB stored, compressed to 1000 × 0.5 = 500 GB on the wire, scanned 3 times.
        t = task(
            workload="data_processing",
            params_b=None,
            access_pattern="repeated_full_scan",
            data_passes=3,
            input_gb=1000,
            compress_ratio=0.5,
            data_site="data",
        )
        offers = [offer("L", "home"), offer("F", "far")]
        return make_input(t, offers=offers, sites=_scan_sites(home_tb, far_tb))

    def test_D2_staged_once_where_the_site_has_room(self):
        """v1 moved the input on every pass: 500 GB × 3 = 1500 GB to home, 15.0 in fees."""
        out = evaluate(self._input(None, 0.5))
        home = option_of(out, "L")
        assert home["input_mode"] == "staged"  # storage_tb blank: room is not limited
        # 500 GB once, data → home 10 Gbps same_city: 4000 / 36000 × 1.1 = 0.12222222 h
        assert home["transfer_gb"] == 500.0
        assert home["transfer_hours"] == approx(0.122222222)
        assert home["transfer_cost"] == approx(5.0)  # 500 × 0.01
        assert home["total_cost"] == approx(165.0)  # 8 × 10 × 2.0 = 160 + 5

    def test_D2_streamed_every_pass_without_room(self):
        out = evaluate(self._input(None, 0.5))
        far = option_of(out, "F")
        # 0.5 TB × 1000 = 500 GB < 1000 GB stored → streamed, 3 passes
        assert far["input_mode"] == "streamed"
        # input 500 × 3 = 1500 GB data → far 20 Gbps cross_hub: 12000 / 72000 × 1.3 = 0.21666667
        # image 10 GB home → far 5 Gbps: 80 / 18000 × 1.3 = 0.00577778 → 0.22244444 h
        assert far["transfer_gb"] == 1510.0
        assert far["transfer_hours"] == approx(0.222444444)
        # 1500 × 0.02 = 30 + 10 × 0.03 = 0.3
        assert far["transfer_cost"] == approx(30.3)

    def test_D2_room_counts_the_input_as_stored(self):
        # 1.0 TB × 1000 = 1000 GB ≥ 1000 GB → staged at far: 500 GB once
        out = evaluate(self._input(None, 1.0))
        far = option_of(out, "F")
        assert far["input_mode"] == "staged"
        assert far["transfer_gb"] == 510.0  # 500 input + 10 image
        # 500 × 0.02 = 10 + 0.3 = 10.3
        assert far["transfer_cost"] == approx(10.3)

    def test_D2_staged_message_names_the_site_and_gb(self):
        out = evaluate(self._input(None, 0.5))
        assert out["chosen"]["offer"] == "L"  # 165 < 160 + 30.3 = 190.3
        [d2] = findings_of(out, "D2")
        assert d2["key"] == "D2.staged"
        assert d2["data"]["site"] == "home"
        assert d2["data"]["input_gb"] == 1000.0
        assert "home" in d2["message"] and "1000 GB" in d2["message"]

    def test_D2_no_room_anywhere(self):
        out = evaluate(self._input(0.5, 0.5))
        assert {o["input_mode"] for o in out["options"]} == {"streamed"}
        # home streamed: 1500 GB × 0.01 = 15.0
        assert option_of(out, "L")["transfer_cost"] == approx(15.0)
        [d2] = findings_of(out, "D2")
        assert d2["key"] == "D2.no_room"


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
        t = big_training(
            cadence="recurring",
            team={"has_machines": False, "can_maintain_scheduler": can_maintain},
        )
        offers = [offer("dist", kind="distributed"), offer("mgd", kind="managed")]
        checklists = {"dist": ALL_ANSWERED, "mgd": ALL_ANSWERED}
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
        return evaluate(make_input(big_training(**base)))

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


# ---------------------------------------------------------------------------------------------
# Whole machines are billed whole


class TestWholeMachineBilling:
    def _out(self, gpus: int, bench=None, **offer_overrides: Any) -> dict[str, Any]:
        t = task(gpus=gpus, interruption_cost_hours=1)
        return evaluate(
            make_input(t, offers=[offer("o", **offer_overrides)], benchmarks=bench or [])
        )

    def test_P_machine_hour_bills_the_whole_machine(self):
        """v1 charged 4 GPUs × 10 h × 2.0 = 80: half a machine."""
        out = self._out(4, billing_basis="machine_hour", price=16)
        o = option_of(out, "o")
        # 16 / 8 = 2.0 per GPU-hour; ceil(4 / 8) = 1 machine = 8 GPUs × 10 h × 2.0 = 160.0
        assert o["effective_price"] == 2.0
        assert (o["gpus"], o["billed_gpus"]) == (4, 8)
        assert o["compute_cost"] == 160.0

    def test_P_machine_hour_rounds_up_to_whole_machines(self):
        out = self._out(12, billing_basis="machine_hour", price=16)
        o = option_of(out, "o")
        # ceil(12 / 8) = 2 machines = 16 GPUs × 10 h × 2.0 = 320.0
        assert o["billed_gpus"] == 16
        assert o["compute_cost"] == 320.0

    def test_P_contract_bills_the_whole_machine(self):
        out = self._out(
            4, billing_basis="contract", price=10000, contract_hours=500, expected_utilization=0.5
        )
        o = option_of(out, "o")
        # 10000 / (500 × 8 × 0.5) = 5.0; 8 GPUs × 10 h × 5.0 = 400.0 (v1: 4 × 10 × 5 = 200)
        assert o["effective_price"] == 5.0
        assert o["billed_gpus"] == 8
        assert o["compute_cost"] == 400.0

    def test_P_gpu_hour_bills_gpus(self):
        out = self._out(4)
        o = option_of(out, "o")
        # 4 GPUs × 10 h × 2.0 = 80.0
        assert o["billed_gpus"] == 4
        assert o["compute_cost"] == 80.0
        assert out["metrics"]["interruption_cost"] == 8.0  # 1 h × 4 × 2.0

    def test_M2_and_rerun_loss_use_billed_gpus(self):
        bench = [single(10, "o", gpn=4, failure_reruns=2, hours_lost_per_rerun=3)]
        out = self._out(4, bench=bench, billing_basis="machine_hour", price=16)
        # hourly burn = 8 billed GPUs × 2.0 = 16 per hour (v1: 4 × 2.0 = 8)
        # M2 interruption cost = 1 h × 16 = 16.0
        assert out["metrics"]["interruption_cost"] == 16.0
        row = bill_row(out, "o")
        # rerun loss = 2 reruns × 3 h × 16 = 96.0; total = 160 + 0 + 0 + 96 = 256.0
        assert row["rerun_loss"] == 96.0
        assert row["total"] == 256.0


# ---------------------------------------------------------------------------------------------
# P3: planned GPU count


class TestP3PlannedGpuCount:
    def test_P3_explicit_null_gpus_blocks(self):
        """v1 silently billed whole machines_needed × gpus_per_machine when no count was
        planned, so costs measured on different GPU counts were compared."""
        out = evaluate(make_input(task(gpus=None)))
        [p3] = findings_of(out, "P3")
        assert p3["severity"] == "block"
        assert "P3" in out["signoff"]["local"]["rules"]

    def test_P3_absent_gpus_is_an_input_error(self):
        t = task()
        del t["gpus"]
        with pytest.raises(EngineInputError) as err:
            evaluate(make_input(t))
        assert "task.gpus" in [e["field"] for e in err.value.errors]


# ---------------------------------------------------------------------------------------------
# Boot time counts


class TestBootTime:
    def test_P_queue_hours_add_offer_boot_hours(self):
        """v1 ignored boot_hours: queue_hours was the site queue only (10 h)."""
        out = evaluate(make_input(offers=[offer("local", boot_hours=2.5)]))
        o = option_of(out, "local")
        # 10 h home queue + 2.5 h boot = 12.5; + 10 h compute = 22.5
        assert o["queue_hours"] == 12.5
        assert o["total_hours"] == 22.5

    def test_P_boot_time_can_change_the_choice(self):
        # no transfers (image 0); delay cost 1 per hour; both 8 × 10 × 2.0 = 160
        t = task(image_gb=0, delay_cost_per_hour=1)
        offers = [offer("L", "home"), offer("S", "data", boot_hours=12)]
        out = evaluate(make_input(t, offers=offers))
        # L: 160 + 1 × (10 + 10) = 180; S: 160 + 1 × (1 + 12 + 10) = 183 (v1: 160 + 11 = 171)
        assert option_of(out, "L")["objective"] == 180.0
        assert option_of(out, "S")["objective"] == 183.0
        assert out["chosen"]["offer"] == "L"


# ---------------------------------------------------------------------------------------------
# Latency budgets guide, they do not veto


class TestM3BudgetsGuide:
    def _input(self, queue_budget: float, with_far: bool = True) -> dict[str, Any]:
        # Nothing moves (data at home, image 0); 8 GPUs × 10 h.
        t = task(image_gb=0, latency_budget_hours={"queue": queue_budget})
        offers = [
            offer("L", "home", price=1.0),  # queue 10 h, 8 × 10 × 1.0 = 80
            offer("X", "data", price=13.0),  # queue 1 h, 8 × 10 × 13.0 = 1040 (13 × 80)
        ]
        if with_far:
            offers.append(offer("Y", "far", price=20.0))  # queue 0 h, 8 × 10 × 20 = 1600
        return make_input(t, offers=offers)

    def test_M3_budget_missed_by_one_hour_does_not_buy_a_plan_13x_dearer(self):
        """v1 chose the least objective among options within budget: with a 9 h queue budget
        the 10 h local queue (missed by one hour) lost to X at 1040, 13 × the 80 of L."""
        out = evaluate(self._input(9))
        assert option_of(out, "L")["within_budget"] is False
        assert option_of(out, "X")["within_budget"] is True
        assert out["chosen"] == {"kind": "wait_local", "site": "home", "offer": "L"}
        assert out["metrics"]["over_budget"] == ["queue"]
        [m3] = findings_of(out, "M3")
        assert (m3["severity"], m3["key"]) == ("warn", "M3.alternative")
        # cheapest feasible option meeting every budget: X (1040 < Y's 1600);
        # extra cost 1040 − 80 = 960
        assert m3["data"]["segment"] == "queue"
        assert (m3["data"]["hours"], m3["data"]["budget"]) == (10.0, 9.0)
        assert (m3["data"]["kind"], m3["data"]["site"], m3["data"]["offer"]) == (
            "move_data",
            "data",
            "X",
        )
        assert m3["data"]["extra_cost"] == 960.0
        assert "P1" not in rules(out)

    def test_P1_only_when_no_feasible_option_meets_every_budget(self):
        # queue budget 0.5 h: L 10 h and X 1 h are both over
        out = evaluate(self._input(0.5, with_far=False))
        assert out["chosen"]["offer"] == "L"  # still the least objective, 80
        [p1] = findings_of(out, "P1")
        assert p1["severity"] == "warn"
        [m3] = findings_of(out, "M3")
        assert m3["key"] == "M3"  # no option to name


# ---------------------------------------------------------------------------------------------
# Migration cost on its own line


class TestMigrationCostLine:
    def _out(self, *, offer_effort=None, bench=None, **task_overrides: Any) -> dict[str, Any]:
        o = offer("local")
        if offer_effort is not None:
            o["migration_effort_hours"] = offer_effort
        return evaluate(
            make_input(
                task(**task_overrides),
                offers=[o],
                benchmarks=bench or [],
                thresholds={"engineer_hour_cost": 100},
            )
        )

    def test_T_migration_cost_one_off(self):
        """v1 had no migration line: the 40 h retrofit never reached the bill."""
        row = bill_row(self._out(offer_effort=40), "local")
        # 40 h × 100 ÷ 1 run (one_off) = 4000.0; total 8 × 10 × 2.0 = 160 + 4000 = 4160.0
        assert row["migration_effort_hours"] == 40.0
        assert row["migration_cost"] == 4000.0
        assert row["total"] == 4160.0

    def test_T_migration_cost_spread_over_a_year_of_runs(self):
        out = self._out(offer_effort=40, cadence="recurring", runs_per_quarter=2)
        row = bill_row(out, "local")
        # 40 × 100 ÷ (2 × 4 = 8 runs) = 500.0; total 160 + 500 = 660.0
        assert row["migration_cost"] == 500.0
        assert row["total"] == 660.0

    def test_T_migration_effort_from_the_largest_pilot(self):
        pilots = [
            {"kind": "pilot_migration", "offer": "local", "migration_effort_hours": h}
            for h in (30, 50)
        ]
        row = bill_row(self._out(bench=pilots), "local")
        # max(30, 50) = 50 h × 100 ÷ 1 = 5000.0; total 160 + 5000 = 5160.0
        assert row["migration_effort_hours"] == 50.0
        assert row["migration_cost"] == 5000.0
        assert row["total"] == 5160.0


# ---------------------------------------------------------------------------------------------
# T / J3 rank feasible candidates only


class TestTJ3FeasibleOnly:
    def test_T_infeasible_cheapest_is_never_named(self):
        """v1 ranked every candidate: `tiny` (a 4-GPU pool for an 8-GPU job, 8 × 10 × 0.5 = 40)
        was named cheapest by T and J3 could never compare the feasible ones."""
        offers = [
            offer("tiny", gpus_per_machine=4, max_machines=1, price=0.5),
            offer("A", price=1.0, relative_speed=0.5),  # 8 × (10 / 0.5 = 20 h) × 1.0 = 160
            offer("B", price=1.5),  # 8 × 10 × 1.5 = 120
        ]
        out = evaluate(make_input(offers=offers))
        assert option_of(out, "tiny")["reason"] == "pool_too_small"  # 8 > 1 × 4
        [t] = findings_of(out, "T")
        assert (t["data"]["offer"], t["data"]["total"]) == ("B", 120.0)
        [j3] = findings_of(out, "J3")
        # cheapest unit among feasible: A at 1.0 (total 160); cheapest total: B at 120
        assert (j3["data"]["unit_offer"], j3["data"]["unit_price"]) == ("A", 1.0)
        assert j3["data"]["unit_offer_total"] == 160.0
        assert (j3["data"]["total_offer"], j3["data"]["total"]) == ("B", 120.0)
        tiny = bill_row(out, "tiny")
        assert tiny["feasible"] is False
        assert (tiny["rank_unit"], tiny["rank_total"]) == (None, None)
        assert tiny["total"] == 40.0  # still shown in the table
        assert (bill_row(out, "A")["rank_unit"], bill_row(out, "A")["rank_total"]) == (1, 2)
        assert (bill_row(out, "B")["rank_unit"], bill_row(out, "B")["rank_total"]) == (2, 1)


# ---------------------------------------------------------------------------------------------
# A candidate without checklist answers


class TestCChecklistMissing:
    def test_C_candidate_without_answers_is_six_unanswered(self):
        """v1 let the engine input omit a candidate's checklist (API, CLI) and nothing
        blocked it, while the web showed six unanswered."""
        offers = [offer("answered"), offer("silent")]
        out = evaluate(make_input(offers=offers, checklists={"answered": ALL_ANSWERED}))
        gate = out["checklists"]["silent"]
        assert gate["unanswered"] == 6
        assert gate["ready_to_sign"] is False
        assert gate["unanswered_questions"] == ["q1", "q2", "q3", "q4", "q5", "q6"]
        blocks = [(f["offer"], f["severity"]) for f in findings_of(out, "C")]
        assert blocks == [("silent", "block")]
        assert "C" in out["signoff"]["silent"]["rules"]
        assert "C" not in out["signoff"]["answered"]["rules"]


# ---------------------------------------------------------------------------------------------
# 6.2 strict input contract (smoke)


class TestStrictContract:
    def test_input_typo_is_an_error_naming_its_path(self):
        """v1 ignored unknown fields: `offsite_alowed: true` silently left offsite_allowed
        false and changed the decision."""
        t = task()
        t["offsite_alowed"] = True
        with pytest.raises(EngineInputError) as err:
            evaluate(make_input(t))
        assert {"field": "task.offsite_alowed", "message": "unknown field"} in err.value.errors

    def test_input_offer_in_another_currency_is_an_error(self):
        data = make_input(offers=[offer("local", currency="USD")])
        data["currency"] = "CNY"
        with pytest.raises(EngineInputError) as err:
            evaluate(data)
        assert [e["field"] for e in err.value.errors] == ["offers[0].currency"]

    def test_input_same_currency_is_accepted(self):
        data = make_input(offers=[offer("local", currency="CNY")])
        data["currency"] = "CNY"
        assert evaluate(data)["currency"] == "CNY"
