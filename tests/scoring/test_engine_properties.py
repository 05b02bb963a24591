"""Properties that hold for every valid input (Hypothesis)."""

from __future__ import annotations

import copy
import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.scoring.engine import evaluate, evaluate_input, parse_input
from apps.scoring.engine.findings import RULE_RANK

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    engine_inputs,
)

PROPERTY_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_it_never_raises_and_output_is_strict_json(data):
    out = evaluate(data)
    text = json.dumps(out, allow_nan=False)  # no NaN or infinity anywhere
    assert json.loads(text) == out
    assert evaluate(data) == out  # deterministic
    ranks = [RULE_RANK[f["rule"]] for f in out["findings"]]
    assert ranks == sorted(ranks)
    assert len(out["options"]) == len(data["offers"])


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_option_sums_hold(data):
    result = evaluate_input(parse_input(data))
    for o in result.options:
        if o.total_hours is None:
            assert not o.feasible and o.reason is not None
            continue
        assert close(o.total_hours, o.transfer_hours + o.queue_hours + o.compute_hours)
        assert close(o.total_cost, o.compute_cost + o.scheduling_cost + o.transfer_cost)
        assert o.feasible == (o.reason is None)


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_chosen_has_the_least_objective_within_budget(data):
    result = evaluate_input(parse_input(data))
    feasible = [o for o in result.options if o.feasible]
    within = [o for o in feasible if o.within_budget]
    if not feasible:
        assert result.chosen is None
    elif within:
        assert result.chosen in within
        assert all(result.chosen.objective <= o.objective + 1e-9 for o in within)
    else:
        assert result.chosen in feasible
        assert all(result.chosen.total_hours <= o.total_hours + 1e-9 for o in feasible)


@PROPERTY_SETTINGS
@given(engine_inputs(), st.floats(min_value=1.0, max_value=10.0))
def test_more_bandwidth_never_slows_a_transfer(data, factor):
    before = evaluate(data)
    faster = copy.deepcopy(data)
    for link in faster["links"]:
        link["bandwidth_gbps"] *= factor
    after = evaluate(faster)
    for old, new in zip(before["options"], after["options"], strict=True):
        if old["transfer_hours"] is None:
            assert new["transfer_hours"] is None
        else:
            assert new["transfer_hours"] <= old["transfer_hours"]


@PROPERTY_SETTINGS
@given(engine_inputs(), st.data())
def test_a_higher_price_never_makes_an_option_cheaper(data, draw):
    index = draw.draw(st.integers(0, len(data["offers"]) - 1))
    raise_by = draw.draw(st.floats(min_value=0.01, max_value=100))
    before = evaluate(data)
    dearer = copy.deepcopy(data)
    dearer["offers"][index]["price"] += raise_by
    after = evaluate(dearer)
    old, new = before["options"][index], after["options"][index]
    assert new["compute_cost"] >= old["compute_cost"]
    if old["total_cost"] is not None:
        assert new["total_cost"] >= old["total_cost"]


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_an_ineligible_task_only_waits_locally(data):
    data["task"]["stateful"] = True  # SPEC X2: not eligible for cross-domain
    out = evaluate(data)
    assert out["cross_domain"]["eligible"] is False
    for o in out["options"]:
        if o["feasible"]:
            assert o["kind"] == "wait_local"


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_signoff_map_matches_block_findings(data):
    out = evaluate(data)
    for oid, entry in out["signoff"].items():
        expected = {
            f["rule"]
            for f in out["findings"]
            if f["severity"] == "block" and f["offer"] in (None, oid)
        }
        assert set(entry["rules"]) == expected
        assert entry["blocked"] == bool(expected)
