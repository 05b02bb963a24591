"""Properties that hold for every valid input (Hypothesis)."""

from __future__ import annotations

import copy
import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineInputError, evaluate, evaluate_input, parse_input
from engine.findings import RULE_RANK

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
def test_chosen_is_feasible_with_the_least_objective(data):
    """SPEC 6.1: budgets guide, they do not veto; an infeasible option is never chosen."""
    result = evaluate_input(parse_input(data))
    feasible = [o for o in result.options if o.feasible]
    if not feasible:
        assert result.chosen is None
    else:
        assert result.chosen in feasible
        assert all(result.chosen.objective <= o.objective + 1e-9 for o in feasible)


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
def test_an_ineligible_task_stays_local_or_in_its_home_domain(data):
    """SPEC 6.1 ("留在本地或同域"): X2 keeps every feasible option but waiting locally inside
    home_site's datacenter, legs included."""
    data["task"]["stateful"] = True
    out = evaluate(data)
    assert out["cross_domain"]["eligible"] is False
    sites = {s["code"]: s for s in data["sites"]}
    home = sites[data["task"]["home_site"]]

    def in_home_domain(code):
        site = sites[code]
        return (
            code == home["code"]
            or bool(home["datacenter"])
            and (site["datacenter"] == home["datacenter"])
        )

    for o in out["options"]:
        if o["feasible"] and o["kind"] != "wait_local":
            ends = {
                o["site"],
                *(leg["from"] for leg in o["legs"]),
                *(leg["to"] for leg in o["legs"]),
            }
            assert all(in_home_domain(code) for code in ends)


def _paths(value, path=""):
    """Every object path of an input, so that an unknown key can be planted anywhere."""
    if isinstance(value, dict):
        yield path
        for key, item in value.items():
            yield from _paths(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, f"{path}[{i}]")


def _at(data, path):
    node = data
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        node = node[int(part[1:-1])] if part.startswith("[") else node[part]
    return node


@PROPERTY_SETTINGS
@given(engine_inputs(), st.data())
def test_an_unknown_field_is_always_refused_by_its_path(data, draw):
    """SPEC 6.2: a typo anywhere is an error naming its path, never silently ignored."""
    objects = [p for p in _paths(data) if not p.startswith("thresholds")]
    path = draw.draw(st.sampled_from(objects))
    _at(data, path)["offsite_alowed"] = True
    try:
        parse_input(data)
    except EngineInputError as exc:
        expected = f"{path}.offsite_alowed" if path else "offsite_alowed"
        # Under `checklists` the keys are offer ids: "unknown offer" names the same path.
        assert any(e["field"] == expected for e in exc.errors)
    else:
        raise AssertionError(f"an unknown field at {path or '<top>'} was accepted")


@PROPERTY_SETTINGS
@given(engine_inputs(), st.data())
def test_a_pool_larger_than_the_plan_is_never_too_small(data, draw):
    """SPEC 6.1 capacity: raising a pool's machines above the plan never makes it infeasible."""
    index = draw.draw(st.integers(0, len(data["offers"]) - 1))
    out = evaluate(data)
    before = out["options"][index]
    needed = out["sizing"]["offers"][index]["machines_needed"]  # what one replica's memory needs
    bigger = copy.deepcopy(data)
    offer = bigger["offers"][index]
    # Above the plan: more machines than the planned GPUs and the model's memory take.
    offer["max_machines"] = max(before["gpus"] // offer["gpus_per_machine"], needed) + 1
    after = evaluate(bigger)["options"][index]
    assert "pool_too_small" not in after["reasons"]
    if before["feasible"]:
        assert after["feasible"]
    assert set(after["reasons"]) <= set(before["reasons"])


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_whole_machine_billing_never_bills_fewer_gpus_than_planned(data):
    """SPEC 6.1: machine_hour and contract offers bill whole machines, gpu_hour offers GPUs."""
    out = evaluate(data)
    offers = {str(o["id"]): o for o in data["offers"]}
    for o in out["options"]:
        offer = offers[o["offer"]]
        assert o["billed_gpus"] >= o["gpus"]
        if offer["billing_basis"] == "gpu_hour":
            assert o["billed_gpus"] == o["gpus"]
        else:
            assert o["billed_gpus"] % offer["gpus_per_machine"] == 0
            assert o["billed_gpus"] - o["gpus"] < offer["gpus_per_machine"]


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
