"""SPEC 7.11 (engine 3.1): what running the distributed layer oneself costs (seed A "调度器的运维
成本可能高于算力本身"). Every figure worked by hand."""

from __future__ import annotations

from engine import EngineInputError, evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    bill_row,
    findings_of,
    make_input,
    offer,
    option_of,
    task,
)


def ops_input(*, can_maintain=True, hours=40.0, rate=100.0, **overrides):
    """Queueing team that can run a scheduler (R3 → distributed_platform, self_hosted). S: a
    distributed offer at 2.0 a GPU-hour; G: a managed one at 2.5. 8 GPUs × 10 h at home, run 6
    times a quarter (2 a month)."""
    t = task(cadence="recurring", runs_per_quarter=6)
    t["team"] = {"has_machines": True, "can_maintain_scheduler": can_maintain, "pain": "queueing"}
    t.update(overrides)
    return make_input(
        t,
        offers=[offer("S", "home", kind="distributed"), offer("G", "home", kind="managed",
                                                               price=2.5)],
        checklists=answered("S", "G"),
        thresholds={"engineer_hour_cost": rate, "scheduler_ops_hours_per_month": hours},
    )  # fmt: skip


class SchedulerOpsTests:
    def test_the_upkeep_2_2_left_out_turns_the_choice(self):
        """2.2: S 8 × 10 × 2.0 = 160 against G 8 × 10 × 2.5 = 200: S. 3.1: 40 h a month × 100
        ÷ (6 ÷ 3 = 2 runs a month) = 2,000 a run on S: 2,160 against 200: G, 1,960 less."""
        out = evaluate(ops_input())
        assert out["platform"] == "distributed_platform"
        assert out["delivery"] == "self_hosted"
        s, g = option_of(out, "S"), option_of(out, "G")
        assert s["scheduler_ops_cost"] == approx(2000.0)
        assert s["total_cost"] == approx(2160.0)
        assert g["scheduler_ops_cost"] == 0.0
        assert g["total_cost"] == approx(200.0)
        assert out["chosen"]["offer"] == "G"
        assert bill_row(out, "S")["scheduler_ops_cost"] == approx(2000.0)
        assert bill_row(out, "S")["total"] == approx(2160.0)
        [r1e] = findings_of(out, "R1e")
        assert r1e["key"] == "R1e.self_hosted.managed_cheaper"
        assert r1e["data"]["ops_cost"] == approx(2000.0)
        assert r1e["data"]["difference"] == approx(1960.0)  # 2,160 − 200
        assert "self-hosting costs 2,000 a run in engineer time" in r1e["message"]
        assert "(40 h a month × 100 an hour ÷ 2 runs a month)" in r1e["message"]
        assert "每次少 1,960" in r1e["message_zh"]

    def test_a_one_off_job_carries_a_month(self):
        # one_off: 40 × 100 ÷ 1 = 4,000 on S.
        out = evaluate(ops_input(cadence="one_off"))
        assert option_of(out, "S")["scheduler_ops_cost"] == approx(4000.0)

    def test_cheap_upkeep_keeps_the_self_hosted_choice(self):
        """2 h a month × 10 ÷ 2 runs = 10 a run: S 170 against G 200: S, 30 less than G."""
        out = evaluate(ops_input(hours=2.0, rate=10.0))
        assert out["chosen"]["offer"] == "S"
        assert option_of(out, "S")["total_cost"] == approx(170.0)
        [r1e] = findings_of(out, "R1e")
        assert r1e["key"] == "R1e.self_hosted.managed_dearer"
        assert r1e["data"]["difference"] == approx(30.0)

    def test_nothing_is_priced_by_default(self):
        out = evaluate(ops_input(hours=0.0))
        assert option_of(out, "S")["scheduler_ops_cost"] == 0.0
        assert out["chosen"]["offer"] == "S"
        assert not findings_of(out, "R1e")

    def test_a_managed_layer_carries_no_upkeep(self):
        # Nobody can maintain a scheduler: R3 gives a compute platform; no layer is hosted.
        out = evaluate(ops_input(can_maintain=False))
        assert option_of(out, "S")["scheduler_ops_cost"] == 0.0

    def test_without_a_managed_candidate_it_says_the_upkeep_alone(self):
        data = ops_input()
        data["offers"] = [data["offers"][0]]
        data["checklists"] = answered("S")
        out = evaluate(data)
        [r1e] = findings_of(out, "R1e")
        assert r1e["key"] == "R1e.self_hosted"
        assert "costs 2,000 a run" in r1e["message"]

    def test_a_bad_setting_is_named(self):
        data = ops_input(hours=-1.0)
        try:
            evaluate(data)
        except EngineInputError as refused:
            fields = [e["field"] for e in refused.errors]
            assert fields == ["thresholds.scheduler_ops_hours_per_month"]
        else:  # pragma: no cover
            raise AssertionError("a negative scheduler_ops_hours_per_month was accepted")
