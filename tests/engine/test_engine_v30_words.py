"""SPEC 7.8 words: D2 speaks of the chosen option (tested with the other D2 texts in
test_engine_hints.py), M1 does not tell a task that may not move to schedule freely, and A's
"fits on N of M offers" counts the offers where the task is not refused for its size.
Every expected figure is worked by hand beside it."""

from __future__ import annotations

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    offer,
    option_of,
    task,
)


class M1WordsTests:
    # 50 GB over 10 compute hours: 50 × 1.0 / 10 = 5 GB/h < 10 (data_compute_low): M1.low.

    def test_a_light_task_that_may_move_is_told_to_schedule_freely(self):
        [m1] = findings_of(evaluate(make_input(task(input_gb=50))), "M1")
        assert (m1["key"], m1["data"]) == ("M1.low", {"ratio": 5.0, "limit": 10.0})
        assert m1["message"].endswith("light task, schedule freely.")

    def test_a_light_task_that_may_not_move_is_not(self):
        # env_simple false: G1 (portability) fails, the task is not eligible to move (SPEC X).
        out = evaluate(make_input(task(input_gb=50, env_simple=False)))
        assert out["cross_domain"]["eligible"] is False
        [m1] = findings_of(out, "M1")
        assert (m1["key"], m1["data"]) == ("M1.low.stays", {"ratio": 5.0, "limit": 10.0})
        assert m1["message"] == (
            "Data/compute ratio 5 GB/h < 10: a light task, but it is not eligible to move: it "
            "runs where the cross-domain gates allow."
        )
        assert "schedule freely" not in m1["message"]
        assert m1["message_zh"] == (
            "数据计算比 5 GB/小时 < 10:任务轻便,但不满足跨域条件,只能在跨域门槛允许的地方运行。"
        )


class AFitCountTests:
    def test_offers_refused_for_the_tasks_size_are_not_counted(self):
        # A measured peak of 700 GB, tensor-split, 16 GPUs planned. Usable a GPU: 0.9 × the card.
        #   small (80 GB, 8 a machine): 700 / 72 = 9.7 → 10 GPUs (2 machines) ≤ 16: feasible
        #   big and big2 (141 GB, one machine of 8): 700 / 126.9 = 5.5 → 6 GPUs fit one machine,
        #   but 16 planned > 1 × 8: pool_too_small
        t = task(peak_gpu_mem_gb=700, parallelism=["tensor"], gpus=16)
        offers = [
            offer("small"),
            offer("big", gpu_mem_gb=141, max_machines=1),
            offer("big2", gpu_mem_gb=141, max_machines=1),
        ]
        out = evaluate(make_input(t, offers=offers))
        assert option_of(out, "small")["feasible"] is True
        assert [option_of(out, o)["reason"] for o in ("big", "big2")] == ["pool_too_small"] * 2
        [a] = findings_of(out, "A")
        # 2.2 counted the offers where one replica fits one machine: big and big2, 2 of 3.
        # SPEC 7.8 counts those where the option is not refused for its size: small, 1 of 3.
        assert a["data"] == {"mem_gb": 700.0, "fit_count": 1, "offer_count": 3}
        assert a["message"].endswith("fits on 1 of 3 offers.")

    def test_too_few_gpus_is_a_refusal_for_size(self):
        # 700 GB on 80 GB cards needs 10 GPUs; 8 planned: too_few_gpus (SPEC 7.1), 0 of 1.
        t = task(peak_gpu_mem_gb=700, parallelism=["tensor"], gpus=8)
        out = evaluate(make_input(t, offers=[offer("small")]))
        assert option_of(out, "small")["reason"] == "too_few_gpus"
        assert findings_of(out, "A")[0]["data"]["fit_count"] == 0

    def test_a_task_split_over_machines_fits_where_it_runs(self):
        # 100 GB measured, tensor-split, 8 GPUs planned, on an offer of 1-GPU machines: 100 / 72
        # → 2 GPUs on 2 machines. It does not fit one machine (2.2 said 0 of 1), but the plan
        # holds it: fits on 1 of 1.
        t = task(peak_gpu_mem_gb=100, parallelism=["tensor"], gpus=8)
        out = evaluate(make_input(t, offers=[offer("b", gpus_per_machine=1)]))
        assert option_of(out, "b")["feasible"] is True
        [a] = findings_of(out, "A")
        assert a["data"]["fit_count"] == 1
