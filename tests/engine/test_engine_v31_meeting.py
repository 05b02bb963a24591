"""Where the two halves of engine 3.1 meet: a deadline plan (SPEC 7.7) obeys the fabric rule
(7.4) at the plan's GPUs and carries the run's scheduler upkeep (7.11), which is one of "the
option's other lines". Every figure worked by hand."""

from __future__ import annotations

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    make_input,
    offer,
    option_of,
    task,
)


def _tight_two_pools(interconnect: str | None) -> dict:
    """8 GPUs × 40 h = 320 GPU-hours of tightly coupled work, a compute budget of 10 h.
    `a-pool` (max one machine) can never meet it; `b-big` (boots an hour later) could, with
    ⌈320 ÷ 10 ÷ 0.8⌉ = 40 GPUs, 5 machines of 8, joined by `interconnect`."""
    t = task(
        compute_hours=40,
        delay_cost_per_hour=1,
        coupling="tight",
        parallelism=["data", "tensor"],
        latency_budget_hours={"compute": 10},
    )
    big = offer("b-big", boot_hours=1)
    if interconnect is not None:
        big["interconnect"] = interconnect
    return make_input(t, offers=[offer("a-pool", max_machines=1), big])


class DeadlinePlanFabricTests:
    def test_no_plan_over_machines_joined_by_ethernet(self):
        """At the planned 8 GPUs b-big is one machine (no fabric constraint, feasible); its plan
        at 40 GPUs spans 5 machines, which SPEC 7.4 refuses on ethernet: no plan to offer."""
        out = evaluate(_tight_two_pools("ethernet"))
        assert option_of(out, "b-big")["feasible"] is True
        assert out["deadline_plans"] == []

    def test_infiniband_keeps_the_plan(self):
        """On InfiniBand the 5 machines may run it: 320 ÷ (40 × 0.8 × 1) = 10 h, 40 × 10 × 2.0
        = 800 against a-pool's 8 × 40 × 2.0 = 640: +160."""
        [plan] = evaluate(_tight_two_pools("infiniband"))["deadline_plans"]
        assert (plan["offer"], plan["gpus"], plan["compute_hours"]) == ("b-big", 40, 10.0)
        assert (plan["total_cost"], plan["extra_cost"]) == (800.0, 160.0)


def test_a_deadline_plan_carries_the_runs_scheduler_upkeep():
    """A queueing team that runs its own distributed layer (SPEC 7.11): 40 h a month × 100 ÷
    (6 runs a quarter ÷ 3 = 2 a month) = 2,000 a run on the distributed offer S. 8 GPUs × 10 h =
    80 GPU-hours against a 5 h compute budget: neither S nor G meets it; each plan takes
    ⌈80 ÷ 5 ÷ 0.8⌉ = 20 GPUs, 80 ÷ (20 × 0.8) = 5 h. G (managed, 2.5): 20 × 5 × 2.5 = 250;
    S (2.0): 20 × 5 × 2.0 = 200 + its upkeep 2,000 = 2,200. The chosen option is G at
    8 × 10 × 2.5 = 200, so the plans cost +50 (G) and +2,000 (S)."""
    t = task(
        cadence="recurring", runs_per_quarter=6, latency_budget_hours={"compute": 5}
    )
    t["team"] = {"has_machines": True, "can_maintain_scheduler": True, "pain": "queueing"}
    data = make_input(
        t,
        offers=[offer("S", "home", kind="distributed"), offer("G", "home", kind="managed",
                                                               price=2.5)],
        checklists=answered("S", "G"),
        thresholds={"engineer_hour_cost": 100.0, "scheduler_ops_hours_per_month": 40.0},
    )  # fmt: skip
    out = evaluate(data)
    assert out["chosen"]["offer"] == "G"
    assert option_of(out, "S")["scheduler_ops_cost"] == approx(2000.0)
    plans = {p["offer"]: p for p in out["deadline_plans"]}
    assert (plans["G"]["gpus"], plans["G"]["compute_hours"]) == (20, 5.0)
    assert plans["G"]["total_cost"] == approx(250.0)
    assert plans["G"]["extra_cost"] == approx(50.0)
    assert plans["S"]["total_cost"] == approx(2200.0)
    assert plans["S"]["extra_cost"] == approx(2000.0)
