"""SPEC 7.8 degenerate numbers: relative_speed lies in [0.01, 100], every price, size and rate is
finite, and no figure the engine works out is ever NaN or infinite: an input that would make one
is refused by its path (exit 2 / HTTP 422 naming the field), never evaluated into a bogus J3.

The property draws inputs whose figures sit at the edges of what validation accepts (0, the
smallest subnormal float, 1e-300, 1e12) and checks every float of every option, bill row,
metric and flip inside the engine's own output objects (the JSON rounds a NaN to null, which
would hide one)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineInputError, evaluate, evaluate_input, parse_input

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    engine_inputs,
    make_input,
    offer,
    parse_errors,
    task,
)

EDGES = st.sampled_from([0.0, 5e-324, 1e-300, 1e-12, 0.01, 1.0, 100.0, 1e6, 1e12])


class RelativeSpeedRangeTests:
    def test_a_speed_below_a_hundredth_is_refused_by_its_path(self):
        data = make_input(task(), offers=[offer("a", price=0.0, relative_speed=1e-320)])
        # 2.2: compute hours 10 ÷ 1e-320 = inf, × price 0 = NaN total, and a bogus J3.
        assert parse_errors(data) == [
            {"field": "offers[0].relative_speed", "message": "must be ≥ 0.01"}
        ]

    def test_a_speed_above_a_hundred_is_refused_by_its_path(self):
        data = make_input(task(), offers=[offer("a", relative_speed=100.5)])
        assert parse_errors(data) == [
            {"field": "offers[0].relative_speed", "message": "must be ≤ 100"}
        ]

    def test_the_ends_of_the_range_are_accepted(self):
        for speed, hours in ((0.01, 1000.0), (100, 0.1)):
            # 10 compute hours ÷ 0.01 = 1000 h; ÷ 100 = 0.1 h
            out = evaluate(make_input(task(), offers=[offer("a", relative_speed=speed)]))
            assert out["options"][0]["compute_hours"] == pytest.approx(hours)


class SmallestPositiveTests:
    def test_a_gpu_memory_below_1e_12_is_refused_by_its_path(self):
        # 2.2 took 5e-324 GB: a replica ÷ 5e-324 is infinite GPUs, and evaluate raised.
        data = make_input(task(), offers=[offer("a", gpu_mem_gb=5e-324)])
        assert parse_errors(data) == [
            {"field": "offers[0].gpu_mem_gb", "message": "is unreasonably small (limit 1e-12)"}
        ]

    def test_a_bandwidth_of_1e_12_is_accepted(self):
        links = [{"from": "data", "to": "home", "bandwidth_gbps": 1e-12, "price_per_gb": 0}]
        data = make_input(task(data_site="data", input_gb=1), links=links)
        # 1 GB × 8 ÷ (1e-12 × 3600) × 1.0 (same city buffer 0.1 → × 1.1) = 2.444444e9 h
        leg = evaluate(data)["options"][0]["legs"][0]
        assert leg["hours"] == pytest.approx(8 / (1e-12 * 3600) * 1.1, rel=1e-9)


class ComputeHoursTests:
    def test_a_subnormal_compute_time_is_refused_by_its_path(self):
        # M1 divides the input by it: 1e-12 GB ÷ 5e-324 h is infinite GB/h.
        data = make_input(task(compute_hours=5e-324, input_gb=1e-12))
        assert parse_errors(data) == [
            {"field": "task.compute_hours", "message": "is unreasonably small (limit 1e-12)"}
        ]

    def test_a_subnormal_benchmark_run_is_refused_by_its_path(self):
        # A speedup divides one run's hours by another's.
        record = {"kind": "multi", "offer": "local", "e2e_hours": 5e-324, "compute_hours": 0}
        data = make_input(task(), benchmarks=[record])
        assert parse_errors(data) == [
            {"field": "benchmarks[0].e2e_hours", "message": "is unreasonably small (limit 1e-12)"}
        ]

    def test_zero_and_1e_12_hours_are_accepted(self):
        for hours in (0, 1e-12):
            assert evaluate(make_input(task(compute_hours=hours)))["options"]


class EffectivePriceTests:
    def test_a_contract_whose_gpu_hour_price_passes_any_float_is_refused(self):
        # 1e12 ÷ (1e-12 h × 8 GPUs × 1e-12) = 1.25e35 per GPU-hour, past the 1e12 any figure
        # may reach (each factor alone is at the smallest an input may state).
        data = make_input(task(), offers=[offer("a", billing_basis="contract", price=1e12,
                          contract_hours=1e-12, expected_utilization=1e-12)])  # fmt: skip
        [error] = parse_errors(data)
        assert error["field"] == "offers[0].price"
        assert "GPU-hour" in error["message"]

    def test_a_contract_at_the_limit_is_accepted(self):
        # 1e12 ÷ (1 h × 8 × 0.125) = 1e12 per GPU-hour: the largest figure an input may state.
        # Recurring: its share is pro-rated (SPEC 7.6; a one-off job would pay it whole).
        data = make_input(task(cadence="recurring"), offers=[offer("a", billing_basis="contract",
                          price=1e12, contract_hours=1, expected_utilization=0.125)])  # fmt: skip
        out = evaluate(data)
        assert out["options"][0]["effective_price"] == 1e12


def _floats_of(value, path="", seen=None):
    """Every float reachable through the engine's output dataclasses, lists and dicts, with
    where it was found."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    if isinstance(value, float):
        yield path, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen.add(id(value))
        for f in dataclasses.fields(value):
            yield from _floats_of(getattr(value, f.name), f"{path}.{f.name}", seen)
    elif isinstance(value, dict):
        seen.add(id(value))
        for key, item in value.items():
            yield from _floats_of(item, f"{path}[{key!r}]", seen)
    elif isinstance(value, (list, tuple)):
        seen.add(id(value))
        for i, item in enumerate(value):
            yield from _floats_of(item, f"{path}[{i}]", seen)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
@given(engine_inputs(), st.data())
def test_no_figure_is_nan_or_infinite(data, draw):
    """SPEC 7.8: put edge values in prices, speeds, sizes, rates and hours; the input is either
    refused or every figure the engine works out is a finite number."""
    t = data["task"]
    for key in ("compute_hours", "input_gb", "delay_cost_per_hour", "interruption_cost_hours"):
        if draw.draw(st.booleans()):
            t[key] = draw.draw(EDGES)
    for item in data["offers"]:
        for key in ("price", "relative_speed", "gpu_mem_gb", "scheduling_fee_pct"):
            if draw.draw(st.booleans()):
                item[key] = draw.draw(EDGES)
        if item["billing_basis"] == "contract" and draw.draw(st.booleans()):
            item["contract_hours"] = draw.draw(EDGES)
            item["expected_utilization"] = draw.draw(st.sampled_from([5e-324, 1e-300, 1.0]))
    for link in data["links"]:
        if draw.draw(st.booleans()):
            link["bandwidth_gbps"] = draw.draw(EDGES)
            link["price_per_gb"] = draw.draw(EDGES)
    try:
        inp = parse_input(data)
    except EngineInputError as refused:
        assert all(e["field"] for e in refused.errors)  # each refusal names its field
        return
    result = evaluate_input(inp)
    bad = [(path, x) for path, x in _floats_of(result) if not math.isfinite(x)]
    assert bad == []
