"""SPEC 6.1 R7 (a long multi-machine run without resume) in the cases the worked examples left
out: a plan that fits one machine's GPU count but whose memory needs two machines, no chosen
option at all, and a task that is not feasible.

One 8 × 80 GB offer: 80 × 0.9 = 72 GB usable a GPU. A measured peak of 648 GB needs 648 / 72 = 9
GPUs: 2 machines. long_run_hours is 12 (DEFAULT_THRESHOLDS).
"""

from __future__ import annotations

from typing import Any

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    big_training,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)


def _two_machines(**overrides: Any) -> dict[str, Any]:
    t = task(peak_gpu_mem_gb=648, parallelism=["tensor"], compute_hours=24, resumable=False)
    t.update(overrides)
    return t


class TestR7:
    def test_memory_over_two_machines_spans_them_even_with_eight_gpus_planned(self):
        out = evaluate(make_input(_two_machines(gpus=8)))
        # SPEC 7.1: 8 planned GPUs cannot hold one replica that needs 9 (too_few_gpus), so
        # nothing is chosen (2.2 chose local); memory alone (no offer fits one machine) still
        # makes the plan span machines
        assert out["chosen"] is None
        assert option_of(out, "local")["reasons"] == ["too_few_gpus"]
        [f] = findings_of(out, "R7")
        assert (f["severity"], f["data"]) == ("warn", {"compute_hours": 24.0, "limit": 12.0})
        # R1b's compute platform gains the distributed layer: both
        assert (out["platform"], out["platform_rule"]) == ("both", "R7")

    def test_twelve_hours_is_long_just_under_is_not(self):
        assert "R7" in rules(evaluate(make_input(_two_machines(gpus=8, compute_hours=12))))
        assert "R7" not in rules(evaluate(make_input(_two_machines(gpus=8, compute_hours=11.9))))

    def test_without_a_chosen_option_the_memory_decides(self):
        # 16 GPUs on a 1-machine pool: pool_too_small, nothing chosen; no offer fits one machine
        out = evaluate(make_input(_two_machines(gpus=16), offers=[offer("local", max_machines=1)]))
        assert out["chosen"] is None
        assert "R7" in rules(out)
        assert out["platform"] == "both"

    def test_not_for_a_task_that_is_not_feasible(self):
        # 70B training, no parallelism: R1a, not feasible; long and not resumable, yet no R7
        out = evaluate(make_input(big_training(compute_hours=24, resumable=False)))
        assert out["platform"] == "not_feasible"
        assert "R7" not in rules(out)
