"""SPEC 7.4 (engine 3.1): a tightly coupled job needs a fast fabric between its machines (seed B
§3 "整体放在一个高速互联的池子里"; seed A Q2 "跨机通信走什么网络"). Every figure worked by hand."""

from __future__ import annotations

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    findings_of,
    make_input,
    multi,
    offer,
    option_of,
    rules,
    single,
    task,
)


def tight_task(**overrides):
    """A 64-GPU tightly coupled training job at home: 8 machines of 8 GPUs, 10 h."""
    t = task(
        workload="training",
        params_b=1,
        coupling="tight",
        gpus=64,
        parallelism=["data", "sharded"],
    )
    t.update(overrides)
    return t


def two_pools(ethernet: dict | None = None, *, benchmarks=None, **task_overrides):
    """E: 2.0 a GPU-hour on ethernet; I: 3.0 a GPU-hour on InfiniBand; both at home."""
    offers = [
        offer("E", "home", **{"parallelism": ["data", "sharded"], "interconnect": "ethernet",
                              **(ethernet or {})}),
        offer("I", "home", price=3.0, parallelism=["data", "sharded"], interconnect="infiniband"),
    ]  # fmt: skip
    return make_input(
        tight_task(**task_overrides),
        offers=offers,
        benchmarks=benchmarks,
        checklists=answered("E", "I"),
    )


class FabricTests:
    def test_it_refuses_the_ethernet_pool_that_2_2_chose(self):
        """2.2 placed the 64-GPU job on the cheaper ethernet pool: 64 × 10 h × 2.0 = 1,280.
        3.1: E runs ⌈64 ÷ 8⌉ = 8 machines > 1 on ethernet → no_fast_interconnect; I is
        chosen at 64 × 10 h × 3.0 = 1,920."""
        out = evaluate(two_pools())
        e = option_of(out, "E")
        assert e["feasible"] is False
        assert e["reason"] == "no_fast_interconnect"
        assert e["compute_cost"] == approx(1280.0)  # still costed, for information
        assert out["chosen"]["offer"] == "I"
        assert option_of(out, "I")["total_cost"] == approx(1920.0)
        assert "K3" not in rules(out)  # InfiniBand is known

    def test_one_machine_is_never_refused(self):
        # 8 GPUs: ⌈8 ÷ 8⌉ = 1 machine, no fabric between machines: E at 8 × 10 × 2.0 = 160.
        out = evaluate(two_pools(gpus=8))
        assert option_of(out, "E")["feasible"] is True
        assert out["chosen"]["offer"] == "E"
        assert option_of(out, "E")["total_cost"] == approx(160.0)

    def test_a_loose_task_is_not_refused(self):
        out = evaluate(two_pools(coupling="loose"))
        assert option_of(out, "E")["feasible"] is True
        assert out["chosen"]["offer"] == "E"

    def test_a_multi_run_measured_at_the_plan_size_lifts_it(self):
        """Single on E: 8 GPUs in 10 h. Multi on E: 8 nodes × 8 = 64 GPUs in 1.6 h: speedup
        10 ÷ 1.6 = 6.25 on 64 ÷ 8 = 8× the GPUs, efficiency 6.25 ÷ 8 = 0.78125 ≥ 0.7: the
        fabric is proven for 8 machines, so E is feasible and chosen at 1,280."""
        runs = [single(10, "E"), multi(1.6, "E", nodes=8)]
        out = evaluate(two_pools(benchmarks=runs))
        assert option_of(out, "E")["feasible"] is True
        assert out["chosen"]["offer"] == "E"
        assert option_of(out, "E")["compute_cost"] == approx(1280.0)

    def test_a_smaller_measured_run_does_not_prove_a_larger_plan(self):
        """Multi on E at 4 nodes (32 GPUs) in 3 h: 10 ÷ 3 = 3.333 on 4×, efficiency 0.8333:
        proven up to 4 machines; the plan's 8 machines stay refused."""
        runs = [single(10, "E"), multi(3, "E", nodes=4)]
        out = evaluate(two_pools(benchmarks=runs))
        assert option_of(out, "E")["reason"] == "no_fast_interconnect"
        # 32 planned GPUs = 4 machines: proven.
        out = evaluate(two_pools(benchmarks=runs, gpus=32))
        assert option_of(out, "E")["feasible"] is True

    def test_an_inefficient_run_proves_nothing(self):
        """Multi at 8 nodes in 2.5 h: 10 ÷ 2.5 = 4 on 8×, efficiency 0.5 < 0.7."""
        runs = [single(10, "E"), multi(2.5, "E", nodes=8)]
        out = evaluate(two_pools(benchmarks=runs))
        assert option_of(out, "E")["reason"] == "no_fast_interconnect"

    def test_the_largest_qualifying_run_counts(self):
        # 4 nodes at 0.8333 qualifies, 8 nodes at 0.5 does not: proven up to 4 machines.
        runs = [single(10, "E"), multi(3, "E", nodes=4), multi(2.5, "E", nodes=8)]
        assert option_of(evaluate(two_pools(benchmarks=runs, gpus=32)), "E")["feasible"]
        out = evaluate(two_pools(benchmarks=runs, gpus=40))  # ⌈40 ÷ 8⌉ = 5 machines
        assert option_of(out, "E")["reason"] == "no_fast_interconnect"

    def test_a_run_on_another_offer_proves_nothing_here(self):
        runs = [single(10, "I"), multi(1.6, "I", nodes=8)]
        out = evaluate(two_pools(benchmarks=runs))
        assert option_of(out, "E")["reason"] == "no_fast_interconnect"


class K3Tests:
    def test_an_unknown_fabric_is_feasible_with_K3_when_chosen(self):
        """E's interconnect unknown: feasible at 1,280 and chosen over I's 1,920, with K3
        naming its 8 machines."""
        out = evaluate(two_pools({"interconnect": None}))
        assert option_of(out, "E")["feasible"] is True
        assert out["chosen"]["offer"] == "E"
        [k3] = findings_of(out, "K3")
        assert k3["severity"] == "warn"
        assert k3["data"] == {"offer": "E", "machines": 8, "gpus": 64}
        assert "InfiniBand or RoCE" in k3["message"]
        assert "InfiniBand 或 RoCE" in k3["message_zh"]

    def test_no_K3_when_the_unknown_pool_is_not_chosen(self):
        # E unknown but dearer (4.0): I is chosen, nothing to confirm.
        out = evaluate(two_pools({"interconnect": None, "price": 4.0}))
        assert out["chosen"]["offer"] == "I"
        assert "K3" not in rules(out)

    def test_no_K3_when_a_measured_run_proves_the_fabric(self):
        runs = [single(10, "E"), multi(1.6, "E", nodes=8)]
        out = evaluate(two_pools({"interconnect": None}, benchmarks=runs))
        assert out["chosen"]["offer"] == "E"
        assert "K3" not in rules(out)

    def test_roce_counts_as_fast(self):
        out = evaluate(two_pools({"interconnect": "roce"}))
        assert out["chosen"]["offer"] == "E"
        assert "K3" not in rules(out)


class InterconnectInputTests:
    def test_a_bad_interconnect_is_named(self):
        from engine import EngineInputError

        data = two_pools({"interconnect": "fibre"})
        try:
            evaluate(data)
        except EngineInputError as refused:
            fields = [e["field"] for e in refused.errors]
        else:  # pragma: no cover - the assertion below says what went wrong
            fields = []
        assert fields == ["offers[0].interconnect"]
