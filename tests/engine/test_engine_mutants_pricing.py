"""SPEC 7.6 and 7.10 (packages: paid or new) and 7.11 (what running the distributed layer
oneself costs), engine 3.1, at the inputs that tell a correct engine from a near miss: part of a
machine, two machines, a run of exactly one GPU-hour or none, a run that just fits its package
or passes it by half a GPU-hour; a managed layer, a tie, two candidates of each kind, a cheaper
candidate that is refused. Every figure is worked by hand.

The package (as in test_engine_v31_money.py): 57,600 a machine for 720 h on 8-GPU machines at an
expected utilisation of 0.8, so it holds 720 × 8 = 5,760 GPU-hours a machine and its pro-rated
price is 57,600 ÷ (720 × 8 × 0.8) = 57,600 ÷ 4,608 = 12.5 a GPU-hour. The task
(engine_fixtures.task) runs at home, moves nothing and is resumable with a 1 h checkpoint
interval: 0.5 h lost a failure.
"""

from __future__ import annotations

from typing import Any

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    big_sharded_training,
    bill_row,
    findings_of,
    make_input,
    offer,
    option_of,
    task,
)

PACKAGE = {
    "billing_basis": "contract",
    "price": 57600,
    "contract_hours": 720,
    "expected_utilization": 0.8,
}


def _package(t: dict[str, Any], **offer_fields: Any) -> dict[str, Any]:
    return make_input(t, offers=[offer("pkg", **PACKAGE, **offer_fields)])


def _paid(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in findings_of(out, "T") if f["key"] == "T.paid"]


class TestNewPackages:
    """SPEC 7.6: a one-off task pays a new package whole, price × machines billed."""

    def test_four_gpus_pay_the_whole_machine(self):
        """4 GPUs use ⌈4 ÷ 8⌉ = 1 machine, billed whole (8 GPUs): 57,600 × 1 = 57,600 for 16 h,
        a unit price of 57,600 ÷ (8 × 16) = 450 (not half a package)."""
        out = evaluate(_package(task(gpus=4, compute_hours=16)))
        pkg = option_of(out, "pkg")
        assert (pkg["billed_gpus"], pkg["compute_cost"]) == (8, 57600.0)
        assert pkg["effective_price"] == 450.0

    def test_two_machines_pay_two_packages(self):
        """16 GPUs on 2 machines: 57,600 × 2 = 115,200, holding 720 × 8 × 2 = 11,520 GPU-hours;
        the run's 16 × 16 = 256 fit; unit price 115,200 ÷ 256 = 450."""
        out = evaluate(_package(task(gpus=16, compute_hours=16)))
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 115200.0
        assert pkg["effective_price"] == 450.0

    def test_a_new_package_is_not_paid(self):
        """A new package bought for a one-off run is money spent on this run, not sunk: no
        T.paid (SPEC 7.6 T.paid is for a package already paid)."""
        out = evaluate(_package(task(compute_hours=16)))
        assert out["chosen"]["offer"] == "pkg"
        assert _paid(out) == []

    def test_a_run_of_one_gpu_hour_pays_the_package_for_it(self):
        """8 GPUs × 0.125 h = 1 GPU-hour: the unit price is what it really pays, 57,600 ÷ 1 =
        57,600 a GPU-hour."""
        out = evaluate(_package(task(compute_hours=0.125)))
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 57600.0
        assert pkg["effective_price"] == 57600.0
        assert bill_row(out, "pkg")["unit_price"] == 57600.0

    def test_a_run_of_no_gpu_hours_shows_the_pro_rated_price(self):
        """0 h: the package is still bought (57,600), but no GPU-hour is run to divide it by:
        the unit price shown is the pro-rated 12.5, never a division by zero (SPEC 7.8)."""
        out = evaluate(_package(task(compute_hours=0)))
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 57600.0
        assert pkg["effective_price"] == 12.5


class TestPaidPackages:
    """SPEC 7.6 and 7.10: a paid package costs nothing while the run fits it; beyond it, the
    pro-rated price, which also prices the hours lost to reruns."""

    def test_four_gpus_hold_a_whole_machine_of_package(self):
        """4 GPUs use 1 machine (billed whole: 8 GPUs); max_machines null, so the package holds
        720 × 8 × 1 = 5,760 GPU-hours. 1,000 h × 8 billed = 8,000: 2,240 beyond, at 12.5 =
        28,000; the paid 5,760 GPU-hours are reported by T.paid."""
        out = evaluate(_package(task(gpus=4, compute_hours=1000, cadence="recurring"),
                                contract_paid=True))  # fmt: skip
        pkg = option_of(out, "pkg")
        assert pkg["compute_cost"] == 28000.0
        [paid] = _paid(out)
        assert paid["data"]["paid_gpu_hours"] == 5760.0

    def test_a_pool_too_small_still_holds_the_machines_it_would_use(self):
        """16 GPUs on a paid pool of max_machines 1: refused (pool_too_small), but its figures
        count the 2 machines it would use: 720 × 8 × 2 = 11,520 GPU-hours hold 16 × 500 =
        8,000, so compute costs 0 (not 2,240 beyond one machine's 5,760 × 12.5 = 28,000)."""
        out = evaluate(_package(task(gpus=16, compute_hours=500), contract_paid=True,
                                max_machines=1))  # fmt: skip
        pkg = option_of(out, "pkg")
        assert pkg["reason"] == "pool_too_small"
        assert pkg["compute_cost"] == 0.0

    def _rerun(self, hours: float) -> dict[str, Any]:
        data = _package(task(compute_hours=hours, cadence="recurring"), contract_paid=True)
        data["thresholds"] = {"failure_rate_per_gpu_hour": 1e-4}
        return option_of(evaluate(data), "pkg")

    def test_a_run_that_exactly_fills_the_package_loses_package_hours_only(self):
        """8 GPUs × 720 h = 5,760 GPU-hours, exactly the package: compute 0, and its rerun
        hours (1e-4 × 8 × 720 = 0.576 failures × 0.5 h) are package hours: burn 0, cost 0."""
        pkg = self._rerun(720)
        assert (pkg["compute_cost"], pkg["effective_price"], pkg["rerun_cost"]) == (0.0, 0.0, 0.0)

    def test_half_a_gpu_hour_beyond_the_package_prices_the_reruns_pro_rated(self):
        """8 GPUs × 720.0625 h = 5,760.5 GPU-hours: 0.5 beyond, 0.5 × 12.5 = 6.25. Beyond the
        package the burn is the pro-rated price: failures 1e-4 × 8 × 720.0625 = 0.57605 × 0.5
        h = 0.288025 h × 8 GPUs × 12.5 = 28.8025."""
        pkg = self._rerun(720.0625)
        assert pkg["compute_cost"] == 6.25
        assert pkg["rerun_cost"] == approx(0.288025 * 8 * 12.5)


# ---------------------------------------------------------------------------------------------
# SPEC 7.11: what running the distributed layer oneself costs


def _ops(offers: list[dict[str, Any]], *, hours: float = 40.0, rate: float = 100.0):
    """Queueing team that can run a scheduler (R3 → distributed_platform, self_hosted), 8 GPUs
    × 10 h at home run 6 times a quarter (2 a month): upkeep hours × rate ÷ 2 a run on each
    distributed candidate."""
    t = task(cadence="recurring", runs_per_quarter=6)
    t["team"] = {"has_machines": True, "can_maintain_scheduler": True, "pain": "queueing"}
    return make_input(
        t,
        offers=offers,
        checklists=answered(*(o["id"] for o in offers)),
        thresholds={"engineer_hour_cost": rate, "scheduler_ops_hours_per_month": hours},
    )


class TestSchedulerUpkeep:
    def test_a_distributed_layer_bought_managed_carries_no_upkeep(self):
        """70B training needs 3 machines (engine_fixtures.big_sharded_training) and no offer
        fits one, the team has machines and the job recurs: R1d, a distributed platform. Nobody
        can maintain a scheduler, so it is bought managed (R1e): the team hosts nothing, and
        the distributed candidate S carries no upkeep although 40 h × 100 is set."""
        t = big_sharded_training(
            cadence="recurring",
            runs_per_quarter=6,
            team={"has_machines": True, "can_maintain_scheduler": False},
        )
        data = make_input(
            t,
            offers=[offer("S", kind="distributed"), offer("G", kind="managed")],
            checklists=answered("S", "G"),
            thresholds={"engineer_hour_cost": 100, "scheduler_ops_hours_per_month": 40},
        )
        out = evaluate(data)
        assert (out["platform"], out["delivery"]) == ("distributed_platform", "managed")
        assert option_of(out, "S")["scheduler_ops_cost"] == 0.0
        assert [f["key"] for f in findings_of(out, "R1e")] == ["R1e"]

    def test_the_upkeep_alone_is_an_info_naming_the_platform(self):
        """Only a distributed candidate: R1e says the upkeep alone, 40 × 100 ÷ 2 = 2,000."""
        out = evaluate(_ops([offer("S", kind="distributed")]))
        [r1e] = findings_of(out, "R1e")
        assert (r1e["key"], r1e["severity"]) == ("R1e.self_hosted", "info")
        assert r1e["data"]["platform"] == "distributed_platform"
        assert r1e["data"]["ops_cost"] == 2000.0

    def test_it_compares_the_cheapest_feasible_candidate_of_each_kind(self):
        """Self-hosted: S-dear 8 × 10 × 2.5 = 200 and S 8 × 10 × 2.0 = 160, each + 2,000 of
        upkeep: S, 2,160. Managed: G-dear 3.0 → 240, G 2.5 → 200, and G-small 1.0 → 80 but on
        4-GPU machines with max_machines 1, too small for 8 GPUs (refused): G, 200. Managed is
        2,160 − 200 = 1,960 cheaper. The cheaper of each kind is listed second."""
        offers = [
            offer("S-dear", kind="distributed", price=2.5),
            offer("S", kind="distributed"),
            offer("G-dear", kind="managed", price=3.0),
            offer("G-small", kind="managed", price=1.0, gpus_per_machine=4, max_machines=1),
            offer("G", kind="managed", price=2.5),
        ]
        out = evaluate(_ops(offers))
        assert option_of(out, "G-small")["reason"] == "pool_too_small"
        assert option_of(out, "G-small")["total_cost"] == 80.0
        [r1e] = findings_of(out, "R1e")
        assert (r1e["key"], r1e["severity"]) == ("R1e.self_hosted.managed_cheaper", "info")
        assert (r1e["data"]["offer"], r1e["data"]["total"]) == ("S", 2160.0)
        assert (r1e["data"]["managed_offer"], r1e["data"]["managed_total"]) == ("G", 200.0)
        assert r1e["data"]["difference"] == 1960.0

    def test_managed_is_dearer_by_half_a_unit(self):
        """Upkeep 1 h × 19 ÷ 2 = 9.5: S 160 + 9.5 = 169.5; G at 2.125: 8 × 10 × 2.125 = 170,
        0.5 dearer than self-hosting."""
        out = evaluate(_ops([offer("S", kind="distributed"),
                             offer("G", kind="managed", price=2.125)], hours=1, rate=19))  # fmt: skip
        [r1e] = findings_of(out, "R1e")
        assert (r1e["key"], r1e["severity"]) == ("R1e.self_hosted.managed_dearer", "info")
        assert r1e["data"]["difference"] == 0.5

    def test_at_a_tie_self_hosting_is_not_said_to_cost_less(self):
        """Upkeep 1 h × 20 ÷ 2 = 10: S 160 + 10 = 170 = G's 170. The dearer message would say
        self-hosting is 0 less "even so"; at a tie it only states both totals."""
        out = evaluate(_ops([offer("S", kind="distributed"),
                             offer("G", kind="managed", price=2.125)], hours=1, rate=20))  # fmt: skip
        [r1e] = findings_of(out, "R1e")
        assert r1e["key"] == "R1e.self_hosted.managed_cheaper"
        assert (r1e["data"]["total"], r1e["data"]["managed_total"]) == (170.0, 170.0)
        assert r1e["data"]["difference"] == 0.0
