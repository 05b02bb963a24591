"""SPEC 6.1 R1a with no offer at all: no offer fits one machine and none can split the task, so
the task is not feasible (the plain R1a, not R1a.split, which needs an offer to look at)."""

from __future__ import annotations

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    task,
)


class TestR1aWithoutOffers:
    def test_a_task_that_could_be_split_is_still_not_feasible_without_offers(self):
        out = evaluate(make_input(task(parallelism=["tensor"]), offers=[]))
        assert (out["platform"], out["platform_rule"]) == ("not_feasible", "R1a")
        [f] = findings_of(out, "R1a")
        assert (f["severity"], f["key"], f["data"]) == ("block", "R1a", {"parallelism": ["tensor"]})
        assert f["message"] == (
            "No offer fits the task on one machine and it cannot be split (task strategies: "
            "tensor; no offer supports them): not feasible."
        )
        assert f["message_zh"] == (
            "没有报价能单机装下该任务,也无法切分(任务支持的并行方式:张量并行,没有报价支持):不可行。"
        )

    def test_without_strategies(self):
        out = evaluate(make_input(task(), offers=[]))
        assert (out["platform"], out["platform_rule"]) == ("not_feasible", "R1a")
        assert findings_of(out, "R1a")[0]["data"] == {"parallelism": []}
