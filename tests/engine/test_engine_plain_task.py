"""The plain-task fast path (plain_task.py, engine speed, issue 13; SPEC 6.1-6.3 reading).

A task whose every field is plain, without a model shape, a staged plan or allowed sites, is built
at once; anything else goes to the field-by-field Reader. As for the plain records
(test_engine_plain_records.py): the fast path takes every plain task and builds exactly what the
Reader builds from the same fields, types included (the Reader's reading is had by handing the
task over in a dict subclass, never plain); and every kind of value that is not plain is refused
by it, so the Reader names the problem by its path (messages written by hand from reader.py and
validation.py) or, for a valid value, gives the plain task.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import EngineInputError, parse_input
from engine.plain_task import plain_task
from engine.schema import LatencyBudget, Task, Team

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - no Django
    make_input,
)
from .test_engine_plain_records import (  # noqa: F401 - the fixture is used by name
    INF,
    NAN,
    Amount,
    Count,
    Name,
    Rec,
    _built_under_the_test,
    err,
    typed,
)

CODES = {"home", "data", "far"}  # engine_fixtures.SITES
FLAGS = ("resumable", "resume_verified", "env_aligned", "env_simple", "image_packaged",
         "offsite_allowed", "low_latency_online", "stateful", "compliance_restricted",
         "strict_consistency", "results_restricted", "activation_checkpointing")  # fmt: skip
TEAM_FLAGS = ("has_machines", "has_scheduler", "can_maintain_scheduler")
FULL_TASK: dict[str, Any] = {
    "name": "T", "workload": "training", "cadence": "recurring", "runs_per_quarter": 4,
    "params_b": 7, "precision": "fp8", "peak_gpu_mem_gb": 60, "gpus": 16,
    "parallelism": ["pipeline", "data"], "coupling": "tight", "input_gb": 500, "result_gb": 20,
    "compress_ratio": 0.5, "image_gb": 30, "access_pattern": "repeated_full_scan",
    "data_passes": 3, "compute_hours": 100, "interruption_cost_hours": 2,
    "latency_budget_hours": {"transfer": 1, "queue": 2.5, "compute": 200},
    "delay_cost_per_hour": 3, "allowed_sites": [], "home_site": "home", "data_site": "data",
    "result_site": "far", "checkpoint_interval_hours": 2, "attention": "eager",
    "restart_hours": 0.25,
    "team": {"has_machines": True, "has_scheduler": True, "can_maintain_scheduler": True,
             "pain": "queueing", "validated_tiers": ["cross_hub", "same_city"]},
    **dict.fromkeys(FLAGS, True),
}  # fmt: skip
# Every field given, none at its default (a field read under another name would show).
FULL = Task(
    "training", 100.0, "home", "data", "far", "T", "recurring", 4.0, 7.0, "fp8", 60.0, 16,
    ("data", "pipeline"), "tight", 500.0, 20.0, 0.5, 30.0, "repeated_full_scan", 3,
    True, True, True, 2.0, LatencyBudget(1.0, 2.5, 200.0), 3.0, True, True, True, True, True,
    True, True, (), True,
    Team(True, True, True, "queueing", ("same_site", "same_city", "cross_hub")),
    activation_checkpointing=True, checkpoint_interval_hours=2.0, attention="eager",
    restart_hours=0.25,
)  # fmt: skip
MINIMAL = {"workload": "inference", "compute_hours": 0, "gpus": None, "home_site": "home"}


def read(raw: Any) -> Task:
    """The task as parse_input reads it (the fast path first, then the Reader)."""
    return parse_input(make_input(raw)).task


def errors_of(raw: Any) -> list[dict[str, str]]:
    with pytest.raises(EngineInputError) as caught:
        parse_input(make_input(raw))
    return caught.value.errors


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (FULL_TASK, FULL),
        (MINIMAL, Task("inference", 0.0, "home", "home", "home")),
        ({**MINIMAL, "data_site": "", "result_site": None, "gpus": 1, "compute_hours": 1e12},
         Task("inference", 1e12, "home", "home", "home", gpus=1)),
        ({**MINIMAL, "data_site": "far", "result_site": "", "allowed_sites": None,
          "latency_budget_hours": None, "team": None, "compress_ratio": 1, "data_passes": 1,
          **dict.fromkeys(FLAGS, None)},
         Task("inference", 0.0, "home", "far", "home")),
        ({**MINIMAL, "latency_budget_hours": {}, "team": {"validated_tiers": []},
          "params_b": None, "peak_gpu_mem_gb": None, "parallelism": None},
         Task("inference", 0.0, "home", "home", "home")),
        ({**MINIMAL, "latency_budget_hours": {"queue": 0}, "parallelism": [],
          "team": {"validated_tiers": ["same_site"], "pain": "slow", "has_scheduler": False},
          **dict.fromkeys(FLAGS, False)},
         Task("inference", 0.0, "home", "home", "home", latency_budget_hours=LatencyBudget(
             None, 0.0, None), team=Team(pain="slow"))),
    ],
)  # fmt: skip
def test_a_plain_task_is_built_at_once_as_the_reader_builds_it(raw, expected):
    assert typed(plain_task(raw, CODES)) == typed(expected)
    assert typed(read(Rec(raw))) == typed(expected)  # the Reader, field by field


@pytest.mark.parametrize("flag", FLAGS)
def test_each_flag_is_read_from_its_own_field(flag):
    alone = plain_task({**MINIMAL, flag: True}, CODES)
    assert [name for name in FLAGS if getattr(alone, name)] == [flag]
    assert typed(alone) == typed(read(Rec({**MINIMAL, flag: True})))


@pytest.mark.parametrize("flag", TEAM_FLAGS)
def test_each_team_flag_is_read_from_its_own_field(flag):
    team = plain_task({**MINIMAL, "team": {flag: True}}, CODES).team
    assert [name for name in TEAM_FLAGS if getattr(team, name)] == [flag]


WORKLOADS = ("training, fine_tuning, adapter_tuning, inference, batch_inference, "
             "data_processing, rendering, scientific_batch, online_service")  # fmt: skip
STRATEGIES = "data, tensor, pipeline, sharded"
TIER_NAMES = "same_site, same_datacenter, same_city, cross_hub"


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        ({"workload": "x"}, [err("task.workload", f"must be one of {WORKLOADS}")]),
        ({"workload": None}, [err("task.workload", "is required")]),
        ({"workload": Name("nope")}, [err("task.workload", f"must be one of {WORKLOADS}")]),
        ({"compute_hours": None}, [err("task.compute_hours", "is required")]),
        ({"compute_hours": -1}, [err("task.compute_hours", "must be ≥ 0")]),
        ({"compute_hours": "100"}, [err("task.compute_hours", "must be a number")]),
        ({"compute_hours": 10**12 + 1},
         [err("task.compute_hours", "is unreasonably large (limit 1e12)")]),
        ({"home_site": "moon"}, [err("task.home_site", "unknown site 'moon'")]),
        ({"home_site": None}, [err("task.home_site", "is required")]),
        ({"home_site": " "}, [err("task.home_site", "must not be blank")]),
        ({"data_site": "moon"}, [err("task.data_site", "unknown site 'moon'")]),
        ({"data_site": " "}, [err("task.data_site", "unknown site ' '")]),
        ({"result_site": "moon"}, [err("task.result_site", "unknown site 'moon'")]),
        ({"result_site": 3}, [err("task.result_site", "must be a string")]),
        ({"name": 3}, [err("task.name", "must be a string")]),
        ({"cadence": "weekly"}, [err("task.cadence", "must be one of one_off, recurring")]),
        ({"runs_per_quarter": NAN}, [err("task.runs_per_quarter", "must be a finite number")]),
        ({"params_b": -1}, [err("task.params_b", "must be ≥ 0")]),
        ({"precision": "fp64"},
         [err("task.precision", "must be one of fp32, bf16, fp16, fp8, int8, int4")]),
        ({"peak_gpu_mem_gb": True}, [err("task.peak_gpu_mem_gb", "must be a number, not a boolean")]),
        ({"gpus": 0}, [err("task.gpus", "must be ≥ 1")]),
        ({"gpus": 2.5}, [err("task.gpus", "must be an integer")]),
        ({"gpus": True}, [err("task.gpus", "must be an integer, not a boolean")]),
        ({"parallelism": ["ring"]}, [err("task.parallelism[0]", f"must be one of {STRATEGIES}")]),
        ({"parallelism": [{}]}, [err("task.parallelism[0]", f"must be one of {STRATEGIES}")]),
        ({"parallelism": "data"}, [err("task.parallelism", f"must be a list of {STRATEGIES}")]),
        ({"coupling": 1}, [err("task.coupling", "must be one of none, loose, tight")]),
        ({"input_gb": INF}, [err("task.input_gb", "must be a finite number")]),
        ({"result_gb": -0.5}, [err("task.result_gb", "must be ≥ 0")]),
        ({"compress_ratio": 1.5}, [err("task.compress_ratio", "must be ≤ 1")]),
        ({"compress_ratio": 0}, [err("task.compress_ratio", "must be > 0")]),
        ({"image_gb": "10"}, [err("task.image_gb", "must be a number")]),
        ({"access_pattern": "random"},
         [err("task.access_pattern", "must be one of streaming, repeated_full_scan")]),
        ({"data_passes": 0}, [err("task.data_passes", "must be ≥ 1")]),
        ({"data_passes": 2.5}, [err("task.data_passes", "must be an integer")]),
        ({"interruption_cost_hours": -1}, [err("task.interruption_cost_hours", "must be ≥ 0")]),
        ({"delay_cost_per_hour": NAN}, [err("task.delay_cost_per_hour", "must be a finite number")]),
        ({"checkpoint_interval_hours": -1}, [err("task.checkpoint_interval_hours", "must be ≥ 0")]),
        ({"latency_budget_hours": 5}, [err("task.latency_budget_hours", "must be an object")]),
        ({"latency_budget_hours": ["transfer"]},
         [err("task.latency_budget_hours", "must be an object")]),
        ({"latency_budget_hours": {"network": 1}},
         [err("task.latency_budget_hours.network", "unknown field")]),
        ({"latency_budget_hours": {"transfer": -1}},
         [err("task.latency_budget_hours.transfer", "must be ≥ 0")]),
        ({"latency_budget_hours": {"queue": "1"}},
         [err("task.latency_budget_hours.queue", "must be a number")]),
        ({"latency_budget_hours": {"compute": True}},
         [err("task.latency_budget_hours.compute", "must be a number, not a boolean")]),
        ({"team": "yes"}, [err("task.team", "must be an object")]),
        ({"team": ["has_machines"]}, [err("task.team", "must be an object")]),
        ({"team": {"boss": 1}}, [err("task.team.boss", "unknown field")]),
        ({"team": {"pain": "bored"}}, [err("task.team.pain", "must be one of none, slow, queueing")]),
        ({"team": {"validated_tiers": ["moon"]}},
         [err("task.team.validated_tiers[0]", f"must be one of {TIER_NAMES}")]),
        ({"team": {"validated_tiers": "same_city"}},
         [err("task.team.validated_tiers", f"must be a list of {TIER_NAMES}")]),
        ({"allowed_sites": ["moon"]}, [err("task.allowed_sites[0]", "unknown site 'moon'")]),
        ({"allowed_sites": "home"}, [err("task.allowed_sites", "must be a list of site codes")]),
        ({"colour": "red"}, [err("task.colour", "unknown field")]),
        # SPEC 7.1, 7.3 (engine 3.0)
        ({"attention": "fast"}, [err("task.attention", "must be one of flash, eager")]),
        ({"attention": 1}, [err("task.attention", "must be one of flash, eager")]),
        ({"restart_hours": -0.5}, [err("task.restart_hours", "must be ≥ 0")]),
        ({"restart_hours": NAN}, [err("task.restart_hours", "must be a finite number")]),
        ({"restart_hours": "1"}, [err("task.restart_hours", "must be a number")]),
    ],
)  # fmt: skip
def test_what_is_not_plain_goes_to_the_reader(change, errors):
    raw = {**FULL_TASK, **change}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == errors


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("value", [1, 0, "true", 1.0])
def test_a_flag_given_as_a_number_or_a_str_goes_to_the_reader(flag, value):
    raw = {**FULL_TASK, flag: value}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == [err(f"task.{flag}", "must be true or false")]


@pytest.mark.parametrize("flag", TEAM_FLAGS)
def test_a_team_flag_given_as_a_number_goes_to_the_reader(flag):
    raw = {**FULL_TASK, "team": {**FULL_TASK["team"], flag: 1}}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == [err(f"task.team.{flag}", "must be true or false")]


def test_a_task_without_its_gpu_count_goes_to_the_reader():
    # SPEC 6.1: the key is required (null is allowed, and blocked by P3).
    raw = {key: value for key, value in FULL_TASK.items() if key != "gpus"}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == [
        err(
            "task.gpus",
            "is required: the planned GPU count compute_hours is measured on "
            "(null when unknown, which blocks with P3)",
        )
    ]


def test_a_task_that_is_not_an_object_goes_to_the_reader():
    assert plain_task("train", CODES) is None
    assert plain_task(None, CODES) is None
    assert errors_of("train") == [err("task", "must be an object")]


@pytest.mark.parametrize(
    "change",
    [
        {"workload": Name("training")},
        {"home_site": Name("home")},
        {"data_site": Name("data")},
        {"name": Name("T")},
        {"gpus": 16.0},
        {"data_passes": Count(3)},
        {"compute_hours": Amount(100.0)},
        {"attention": Name("eager")},
        {"restart_hours": Amount(0.25)},
        {"latency_budget_hours": Rec(FULL_TASK["latency_budget_hours"])},
        {"team": Rec(FULL_TASK["team"])},
        {"team": {**FULL_TASK["team"], "pain": Name("queueing")}},
        {"allowed_sites": ()},  # a tuple: read field by field, none allowed all the same
        {"batch_size": None, "kv_heads": None},  # a model shape of nulls: no shape
        {"processed_gb": None, "rounds_per_refresh": None},  # a staged plan of nulls: none
    ],
)
def test_valid_values_that_are_not_plain_give_the_plain_task(change):
    raw = {**FULL_TASK, **change}
    assert plain_task(raw, CODES) is None
    assert typed(read(raw)) == typed(FULL)


def test_allowed_sites_model_shapes_and_staged_plans_are_read_by_the_reader():
    raw = {**FULL_TASK, "allowed_sites": ["far", "home"]}
    assert plain_task(raw, CODES) is None
    assert read(raw).allowed_sites == ("far", "home")
    shape = {"batch_size": 8, "seq_len": 4096, "hidden_size": 4096, "layers": 32, "heads": 32}
    assert plain_task({**FULL_TASK, **shape}, CODES) is None
    assert read({**FULL_TASK, **shape}).layers == 32
    assert plain_task({**FULL_TASK, "preprocess_hours": 2}, CODES) is None
    assert read({**FULL_TASK, "processed_gb": 5, "preprocess_hours": 2}).preprocess_hours == 2.0


# An integer beyond float range (JSON allows "compute_hours": 1000…0 with 400 digits) is refused
# by the fast path and named by the Reader (it used to crash there in float(): OverflowError).
@pytest.mark.parametrize("key", ["compute_hours", "input_gb", "params_b", "compress_ratio"])
def test_an_integer_beyond_float_range_is_refused_by_its_path(key):
    raw = {**FULL_TASK, key: 10**400}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == [err(f"task.{key}", "is unreasonably large (limit 1e12)")]


def test_an_integer_beyond_float_range_is_refused_for_a_count():
    raw = {**FULL_TASK, "gpus": 10**400}
    assert plain_task(raw, CODES) is None
    assert errors_of(raw) == [err("task.gpus", "is unreasonably large (limit 1e12)")]
