"""Method version 2 (SPEC 6.1 corrections, 6.2 strict input), one class per corrected rule: domains,
compliance, coupling, spread pools and repeated scans.

Each test builds the case that engine 1.x decided wrongly and asserts the figure v2 must give.
Every expected figure is a literal worked out by hand in the comment beside it (never obtained by
running the engine). Leg hours = gb × 8 / (bandwidth_gbps × 3600) × (1 + buffer), with the tier
buffers same_datacenter 0.0, same_city 0.1, cross_hub 0.3.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    evaluate,
)

from .engine_fixtures import (
    LINKS_V2,
    SITES_V2,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    approx,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)

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
        allowed site: nothing is feasible. (SPEC 7.8: G1 failing only on offsite_allowed no
        longer does this, test_engine_v30_x4; a packaging gap still does.)"""
        out = evaluate(self._input(image_packaged=False))
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
        assert "home" in d2["message"] and "1,000 GB" in d2["message"]

    def test_D2_no_room_anywhere(self):
        out = evaluate(self._input(0.5, 0.5))
        assert {o["input_mode"] for o in out["options"]} == {"streamed"}
        # home streamed: 1500 GB × 0.01 = 15.0
        assert option_of(out, "L")["transfer_cost"] == approx(15.0)
        [d2] = findings_of(out, "D2")
        assert d2["key"] == "D2.no_room"
