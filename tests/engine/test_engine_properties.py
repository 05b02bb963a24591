"""Properties that hold for every valid input (Hypothesis)."""

from __future__ import annotations

import copy
import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import DEFAULT_THRESHOLDS, EngineInputError, evaluate, evaluate_input, parse_input
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
        # SPEC 6.4 and 7.3: preprocessing and preemption hours are segments of their own
        segments = o.transfer_hours + o.queue_hours + o.compute_hours + o.preprocess_hours
        assert close(o.total_hours, segments + o.preemption_hours)
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


# ---------------------------------------------------------------------------------------------
# SPEC 7 (engine 3.0)


def _thresholds(data):
    return {**DEFAULT_THRESHOLDS, **data.get("thresholds", {})}


def _price_by_hand(offer):
    """SPEC P (口径对齐), written out again: the price of one GPU-hour."""
    basis, price, per_machine = offer["billing_basis"], offer["price"], offer["gpus_per_machine"]
    if basis == "gpu_hour":
        return price
    if basis == "machine_hour":
        return price / per_machine
    return price / (offer["contract_hours"] * per_machine * offer["expected_utilization"])


def _losses_by_hand(data, o):
    """SPEC 7.2 and 7.3 for one output option, from the input alone: (compute cost, rerun
    cost, preemption hours, migration cost)."""
    t, limits = data["task"], _thresholds(data)
    offer = next(item for item in data["offers"] if str(item["id"]) == o["offer"])
    hours = t["compute_hours"] / offer["relative_speed"]
    billed = o["billed_gpus"]
    burn = billed * _price_by_hand(offer)
    compute = billed * hours * _price_by_hand(offer)
    package = _package_by_hand(t, offer, o["gpus"], billed, hours)
    if package is not None:
        compute, burn = package[0], billed * package[1]
    runs = [
        b
        for b in data["benchmarks"]
        if str(b["offer"]) == o["offer"] and b["kind"] in ("single", "multi")
    ]
    gpu_hours = sum(b["nodes"] * b["gpus_per_node"] * b["e2e_hours"] for b in runs)
    failures = sum(b["failure_reruns"] for b in runs)
    evidence = gpu_hours > 0 and gpu_hours >= limits["failure_evidence_gpu_hours"]
    rate = failures / gpu_hours if evidence else limits["failure_rate_per_gpu_hour"]
    per_restart = t["checkpoint_interval_hours"] / 2 + t["restart_hours"]
    if t["resumable"]:
        lost = per_restart
    elif evidence and failures:
        lost = sum(b["failure_reruns"] * b["hours_lost_per_rerun"] for b in runs) / failures
    else:
        lost = t["interruption_cost_hours"]
    rerun = rate * billed * hours * lost * burn
    lam = offer.get("preemptions_per_day", 0) * math.ceil(o["gpus"] / offer["gpus_per_machine"])
    x = lam / 24 * hours
    if t["resumable"]:
        preempted = x * per_restart
    elif x > 700:
        preempted = math.inf  # e^x beyond a float: the engine reports null
    elif x == 0:
        preempted = 0.0
    else:
        preempted = math.expm1(x) / (lam / 24) - hours  # renewal: (e^(λT) − 1) ÷ λ − T
    pilots = [b.get("migration_effort_hours") or 0 for b in data["benchmarks"]
              if str(b["offer"]) == o["offer"] and b["kind"] == "pilot_migration"]  # fmt: skip
    effort = offer.get("migration_effort_hours")
    if effort is None:
        effort = max(pilots, default=0.0)
    spread = 1 if t["cadence"] == "one_off" else max(1, t["runs_per_quarter"] * 4)
    migration = effort * limits["engineer_hour_cost"] / spread
    return compute, rerun, preempted, migration


def _package_by_hand(t, offer, gpus, billed, hours):
    """SPEC 7.6 and 7.10 written out again: (compute cost, price of a lost GPU-hour) on a
    contract package that is paid, or new for a one-off task; None otherwise."""
    paid = offer.get("contract_paid", False)
    if offer["billing_basis"] != "contract" or not (paid or t["cadence"] == "one_off"):
        return None
    per_machine = offer["gpus_per_machine"]
    machines = math.ceil(billed / per_machine)
    if paid:
        held = max(offer.get("max_machines") or 0, math.ceil(gpus / per_machine))
    else:
        held = machines
    beyond = max(0.0, billed * hours - offer["contract_hours"] * per_machine * held)
    whole = 0.0 if paid else offer["price"] * machines
    prorated = _price_by_hand(offer)
    return whole + beyond * prorated, prorated if beyond > 0 else 0.0


def _near(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-5)


def _ops_by_hand(data, out, o):
    """SPEC 7.11: hours a month × engineer hour cost ÷ runs a month (runs_per_quarter ÷ 3, at
    least one a year; one for a one-off job), on a distributed candidate of a self-hosted
    distributed layer."""
    item = next(i for i in data["offers"] if str(i["id"]) == o["offer"])
    if (
        item["kind"] != "distributed"
        or out["platform"] not in ("distributed_platform", "both")
        or out["delivery"] != "self_hosted"
    ):
        assert o["scheduler_ops_cost"] == 0.0
        return 0.0
    th = data["thresholds"]
    task = data["task"]
    runs = 1.0 if task["cadence"] == "one_off" else max(task["runs_per_quarter"] / 3, 1 / 12)
    ops = th.get("scheduler_ops_hours_per_month", 0.0) * th["engineer_hour_cost"] / runs
    assert _near(o["scheduler_ops_cost"], ops)
    return ops


@PROPERTY_SETTINGS
@given(engine_inputs(), st.sampled_from([0.0, 40.0]))
def test_total_cost_is_the_sum_of_its_lines_worked_out_again(data, hour_cost):
    """SPEC 7.2: total_cost = compute + scheduling + transfer + preprocess + preemption +
    migration + rerun, each line computed here from the input (7.3 for preemption)."""
    data["thresholds"]["engineer_hour_cost"] = hour_cost
    out = evaluate(data)
    for o in out["options"]:
        compute, rerun, preempted, migration = _losses_by_hand(data, o)
        assert _near(o["compute_cost"], compute)
        assert _near(o["rerun_cost"], rerun)
        assert _near(o["migration_cost"], migration)
        if o["preemption_hours"] is not None:
            assert _near(o["preemption_hours"], preempted)
        if o["total_cost"] is None:
            continue
        fee = (
            compute
            * next(
                item["scheduling_fee_pct"]
                for item in data["offers"]
                if str(item["id"]) == o["offer"]
            )
            / 100
        )
        lines = compute + fee + o["transfer_cost"] + o["preprocess_cost"]
        lines += o["preemption_cost"] + migration + rerun
        lines += _ops_by_hand(data, out, o)  # SPEC 7.11
        assert _near(o["total_cost"], lines)
        bill = next(row for row in out["bill"] if row["offer"] == o["offer"])
        assert bill["total"] == o["total_cost"]  # SPEC 7.2: one figure


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_an_option_below_its_offers_gpus_needed_is_never_chosen(data):
    """SPEC 7.1: a plan with fewer GPUs than one replica needs there is infeasible."""
    out = evaluate(data)
    needed = {row["offer"]: row["gpus_needed"] for row in out["sizing"]["offers"]}
    for o in out["options"]:
        if o["gpus"] < needed[o["offer"]]:
            assert not o["feasible"]
            assert {"too_few_gpus", "no_shared_parallelism"} & set(o["reasons"])
            assert out["chosen"] is None or out["chosen"]["offer"] != o["offer"]


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_J3_fires_exactly_when_the_unit_price_and_total_orders_differ(data):
    """SPEC T / 7.2: among feasible rows with a total, J3 fires when no row of the lowest unit
    price has the lowest total."""
    result = evaluate_input(parse_input(data))
    known = [r for r in result.bill if r.feasible and r.total is not None]
    differ = False
    if len(known) > 1:
        low_unit = min(r.unit_price for r in known)
        low_total = min(r.total for r in known)
        differ = not any(r.total == low_total for r in known if r.unit_price == low_unit)
    assert any(f.rule == "J3" for f in result.findings) == differ


@PROPERTY_SETTINGS
@given(engine_inputs(), st.data())
def test_expected_preemption_hours_never_fall_as_the_rate_rises(data, draw):
    """SPEC 7.3: more preemptions a day never lose fewer hours (renewal or resumable)."""
    index = draw.draw(st.integers(0, len(data["offers"]) - 1))
    low = draw.draw(st.floats(min_value=0, max_value=10))
    high = low + draw.draw(st.floats(min_value=0, max_value=10))
    hours = []
    for rate in (low, high):
        changed = copy.deepcopy(data)
        changed["offers"][index].update(preemptible=True, preemptions_per_day=rate)
        hours.append(evaluate(changed)["options"][index]["preemption_hours"])
    if hours[1] is not None:  # null: beyond any finite figure
        assert hours[0] is not None
        assert hours[1] >= hours[0] - 1e-6


@PROPERTY_SETTINGS
@given(
    engine_inputs(),
    st.floats(min_value=0, max_value=1e6),
    st.one_of(st.just(0.0), st.floats(1e-12, 1e9)),  # 0, or at least 1e-12 (SPEC 7.8)
)
def test_no_figure_is_nan_or_infinite_even_at_extreme_preemption(data, rate, compute_hours):
    """SPEC 7.8: no output figure is ever NaN or infinite (e^(λT) overflows a float)."""
    data["task"]["compute_hours"] = compute_hours
    data["task"]["resumable"] = False
    data["offers"][0].update(preemptible=True, preemptions_per_day=rate)
    out = evaluate(data)
    json.dumps(out, allow_nan=False)


@PROPERTY_SETTINGS
@given(engine_inputs(), st.data())
def test_a_measured_fast_fabric_multi_run_never_makes_an_option_infeasible(data, draw):
    """SPEC 7.4: a multi run on an offer at full scaling efficiency (its single run's hours ÷
    its node count, no memory figure) only proves a fabric; it never refuses an option."""
    index = draw.draw(st.integers(0, len(data["offers"]) - 1))
    nodes = draw.draw(st.integers(2, 16))
    oid = data["offers"][index]["id"]
    singles = [
        b["e2e_hours"]
        for b in data["benchmarks"]
        if b["kind"] == "single" and str(b["offer"]) == str(oid) and b["e2e_hours"] > 0
    ]
    # The fastest single is the baseline the run is measured on (kept well above the input's
    # 1e-12 h floor once divided by the nodes).
    base = max(min([10.0, *singles]), 1e-6)
    before = evaluate(data)
    more = copy.deepcopy(data)
    more["benchmarks"] += [
        {"kind": "single", "offer": oid, "nodes": 1, "gpus_per_node": 8, "e2e_hours": base,
         "compute_hours": base},
        {"kind": "multi", "offer": oid, "nodes": nodes, "gpus_per_node": 8,
         "e2e_hours": base / nodes, "compute_hours": base / nodes},
    ]  # fmt: skip
    after = evaluate(more)
    for old, new in zip(before["options"], after["options"], strict=True):
        if old["feasible"]:
            assert new["feasible"], (old["offer"], new["reasons"])
        if "no_fast_interconnect" not in old["reasons"]:
            assert "no_fast_interconnect" not in new["reasons"]


@PROPERTY_SETTINGS
@given(engine_inputs())
def test_streaming_a_leg_never_lengthens_an_options_hours(data):
    """SPEC 7.5: the same input streamed instead of copied first: in each plan of each option
    (raw or staged, SPEC 6.4) neither the transfer segment nor the total hours grow and no cost
    changes; the objective the option keeps never rises."""
    data["task"]["input_delivery"] = "bulk"
    before = evaluate_input(parse_input(data))
    streamed = copy.deepcopy(data)
    streamed["task"]["input_delivery"] = "streamed"
    after = evaluate_input(parse_input(streamed))
    for old, new in zip(before.options, after.options, strict=True):
        if old.objective is not None:
            assert new.objective is not None and new.objective <= old.objective + 1e-9
        for was in (old, old.other):
            if was is None:
                continue
            now = new if new.plan == was.plan else new.other
            assert now is not None and now.plan == was.plan
            assert now.transfer_cost == was.transfer_cost
            assert now.total_cost == was.total_cost
            if was.transfer_hours is None:
                assert now.transfer_hours is None
                continue
            assert now.transfer_hours <= was.transfer_hours
            if was.total_hours is not None:
                assert now.total_hours <= was.total_hours + 1e-9
