"""Cases the mutation run showed untested in hints.py (SPEC 6.1 D2's severity) and indicators.py
(SPEC M3 / 7.7: only the compute segment's warning names a deadline plan). Every figure is worked
by hand in the comments."""

from __future__ import annotations

from typing import Any

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    offer,
    option_of,
    task,
    three_way_input,
)

# ---------------------------------------------------------------------------------------------
# SPEC 6.1 D2: `repeated_full_scan` → info, whichever advice it gives.


def _scans() -> dict[str, Any]:
    # three_way_input: L at home (165 staged), M at data (88.3, no input leg), D at far (410.9).
    data = three_way_input(access_pattern="repeated_full_scan", data_passes=3)
    del data["offers"][1]  # without M: L (home, staged, 165) is chosen over D (410.9)
    return data


class TestD2IsInfo:
    def test_the_staged_advice_is_info(self):
        out = evaluate(_scans())
        assert out["chosen"]["offer"] == "L"
        [f] = findings_of(out, "D2")
        assert (f["key"], f["severity"]) == ("D2.staged", "info")

    def test_the_streamed_advice_is_info(self):
        data = _scans()
        data["sites"][0]["storage_tb"] = 0.4  # home: 400 GB < the 500 GB input, far has room
        out = evaluate(data)
        # L streams 3 × 500 GB at 0.01 a GB = 15 instead of 5, still far below D's 410.9.
        assert out["chosen"]["offer"] == "L"
        assert option_of(out, "L")["input_mode"] == "streamed"
        [f] = findings_of(out, "D2")
        assert (f["key"], f["severity"]) == ("D2.streamed", "info")


# ---------------------------------------------------------------------------------------------
# SPEC M3 / 7.7: a deadline plan meets the compute budget, so only the compute segment's M3
# names one; another segment over its budget is warned about without it.


def test_only_the_compute_segments_M3_names_the_deadline_plan():
    """8 GPUs × 40 h with a compute budget of 10 h and a queue budget of 0.5 h. a-pool (one
    machine at most) is chosen as in test_engine_v31_money._two_pools: 8 × 40 × 2.0 = 640, its
    objective 640 + 50 = 690 against b-big's 691. Its queue at home is 10 h > 0.5 and its compute
    40 h > 10: two M3 warnings. The deadline plan (b-big, 40 GPUs, 10 h, 800, +160) is named by
    the compute one only; no option meets a 0.5 h queue (home queues 10 h), so no alternative."""
    t = task(
        compute_hours=40,
        delay_cost_per_hour=1,
        latency_budget_hours={"compute": 10, "queue": 0.5},
    )
    out = evaluate(
        make_input(t, offers=[offer("a-pool", max_machines=1), offer("b-big", boot_hours=1)])
    )
    assert out["chosen"]["offer"] == "a-pool"
    assert option_of(out, "a-pool")["queue_hours"] == 10.0
    assert [p["offer"] for p in out["deadline_plans"]] == ["b-big"]
    queue, compute = findings_of(out, "M3")
    assert (queue["key"], queue["data"]) == (
        "M3",
        {"segment": "queue", "hours": 10.0, "budget": 0.5},
    )
    assert compute["key"] == "M3.deadline"
    assert (compute["data"]["segment"], compute["data"]["plan_offer"]) == ("compute", "b-big")
    assert (compute["data"]["plan_gpus"], compute["data"]["plan_extra_cost"]) == (40, 160.0)
