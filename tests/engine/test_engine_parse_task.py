"""parse_input's task, team, budgets, model shape, staged plan, checklists and thresholds (SPEC 4,
6.2–6.4), field by field: every field given lands where it belongs, every field left out or null
takes its default, and every field wrong at once is named by its path in the order reported.
"""

from __future__ import annotations

from typing import Any

from engine import parse_input
from engine.schema import DEFAULT_THRESHOLDS, LatencyBudget, Task, Team

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    parse_errors,
)


def err(field: str, message: str) -> dict[str, str]:
    return {"field": field, "message": message}


MINIMAL = {"workload": "inference", "compute_hours": 2, "gpus": 1, "home_site": "home"}


def with_task(**fields: Any) -> dict[str, Any]:
    return make_input({**MINIMAL, **fields})


SHAPE_REQUIRED = (
    "is required with the other model shape fields (batch_size, seq_len, hidden_size, layers, "
    "heads)"
)


class TestTaskFields:
    def test_every_field(self):
        full = {
            "name": "nightly",
            "workload": "training",
            "cadence": "recurring",
            "runs_per_quarter": 6,
            "params_b": 7,
            "precision": "fp8",
            "peak_gpu_mem_gb": 70,
            "gpus": 16,
            "parallelism": ["pipeline", "data"],
            "coupling": "loose",
            "input_gb": 500,
            "result_gb": 20,
            "compress_ratio": 0.5,
            "image_gb": 3,
            "access_pattern": "repeated_full_scan",
            "data_passes": 4,
            "compute_hours": 12,
            "resumable": True,
            "resume_verified": True,
            "env_aligned": True,
            "interruption_cost_hours": 1.5,
            "latency_budget_hours": {"transfer": 1, "queue": 2.5, "compute": 30},
            "delay_cost_per_hour": 4,
            "env_simple": True,
            "image_packaged": True,
            "offsite_allowed": True,
            "low_latency_online": True,
            "stateful": True,
            "compliance_restricted": True,
            "strict_consistency": True,
            "allowed_sites": ["far", "data", "far"],
            "results_restricted": True,
            "team": {
                "has_machines": True,
                "has_scheduler": True,
                "can_maintain_scheduler": True,
                "pain": "queueing",
                "validated_tiers": ["same_city"],
            },
            "home_site": "home",
            "data_site": "data",
            "result_site": "far",
            "batch_size": 8,
            "seq_len": 4096,
            "hidden_size": 4096,
            "layers": 32,
            "heads": 32,
            "kv_heads": 8,
            "activation_checkpointing": True,
            "checkpoint_interval_hours": 0.5,
            "processed_gb": 50,
            "preprocess_hours": 2,
            "preprocess_cost_per_hour": 3,
            "rounds_per_refresh": 5,
        }
        parsed = parse_input(make_input(full)).task
        assert parsed == Task(
            "training", 12.0, "home", "data", "far", "nightly", "recurring", 6.0, 7.0, "fp8",
            70.0, 16, ("data", "pipeline"), "loose", 500.0, 20.0, 0.5, 3.0, "repeated_full_scan",
            4, True, True, True, 1.5, LatencyBudget(1.0, 2.5, 30.0), 4.0, True, True, True, True,
            True, True, True, ("data", "far"), True,
            Team(True, True, True, "queueing", ("same_site", "same_city")),
            8, 4096, 4096, 32, 32, 8, True, 0.5, 50.0, 2.0, 3.0, 5,
        )  # fmt: skip

    def test_left_out_fields_take_their_defaults(self):
        parsed = parse_input(with_task()).task
        assert parsed == Task("inference", 2.0, "home", "home", "home", gpus=1)
        assert (parsed.image_gb, parsed.checkpoint_interval_hours, parsed.runs_per_quarter) == (
            10.0,
            1.0,
            1.0,
        )

    def test_null_fields_take_their_defaults(self):
        nulls = dict.fromkeys(
            (
                "name", "cadence", "runs_per_quarter", "params_b", "precision", "peak_gpu_mem_gb",
                "parallelism", "coupling", "input_gb", "result_gb", "compress_ratio", "image_gb",
                "access_pattern", "data_passes", "resumable", "interruption_cost_hours",
                "latency_budget_hours", "delay_cost_per_hour", "allowed_sites", "team",
                "data_site", "result_site", "batch_size", "seq_len", "hidden_size", "layers",
                "heads", "kv_heads", "activation_checkpointing", "checkpoint_interval_hours",
                "processed_gb", "preprocess_hours", "preprocess_cost_per_hour",
                "rounds_per_refresh",
            )
        )  # fmt: skip
        assert parse_input(with_task(**nulls)).task == Task(
            "inference", 2.0, "home", "home", "home", gpus=1
        )

    def test_site_references_must_be_strings(self):
        assert parse_errors(with_task(data_site=3, result_site=["far"], home_site=True)) == [
            err("task.home_site", "must be a string"),
            err("task.data_site", "must be a string"),
            err("task.result_site", "must be a string"),
        ]

    def test_each_unknown_site_reference_is_named(self):
        assert parse_errors(with_task(data_site="venus", result_site="mars")) == [
            err("task.data_site", "unknown site 'venus'"),
            err("task.result_site", "unknown site 'mars'"),
        ]

    def test_blank_data_and_result_sites_mean_home(self):
        parsed = parse_input(with_task(data_site="", result_site="")).task
        assert (parsed.data_site, parsed.result_site) == ("home", "home")

    def test_every_error(self):
        bad = {
            "name": 1,
            "workload": "mining",
            "cadence": "daily",
            "runs_per_quarter": -1,
            "params_b": -1,
            "precision": "fp64",
            "peak_gpu_mem_gb": -1,
            "gpus": 0,
            "parallelism": "data",
            "coupling": "very",
            "input_gb": -1,
            "result_gb": -1,
            "compress_ratio": 0,
            "image_gb": -1,
            "access_pattern": "random",
            "data_passes": 0,
            "compute_hours": -1,
            "resumable": 1,
            "resume_verified": 1,
            "env_aligned": 1,
            "interruption_cost_hours": -1,
            "latency_budget_hours": {"transfer": -1, "queue": -1, "compute": -1, "x": 1},
            "delay_cost_per_hour": -1,
            "env_simple": 1,
            "image_packaged": 1,
            "offsite_allowed": 1,
            "low_latency_online": 1,
            "stateful": 1,
            "compliance_restricted": 1,
            "strict_consistency": 1,
            "allowed_sites": ["home", "mars", 3],
            "results_restricted": 1,
            "team": {
                "has_machines": 1,
                "has_scheduler": 1,
                "can_maintain_scheduler": 1,
                "pain": "much",
                "validated_tiers": ["orbit"],
                "size": 3,
            },
            "home_site": "moon",
            "data_site": "sun",
            "result_site": 5,
            "activation_checkpointing": 1,
            "checkpoint_interval_hours": -1,
            "processed_gb": -1,
            "preprocess_hours": -1,
            "preprocess_cost_per_hour": -1,
            "rounds_per_refresh": 0,
            "colour": "red",
        }
        p = "task"
        assert parse_errors(make_input(bad)) == [
            err("task.colour", "unknown field"),
            err("task.allowed_sites[1]", "unknown site 'mars'"),
            err("task.allowed_sites[2]", "unknown site 3"),
            err("task.result_site", "must be a string"),  # read first, then the codes checked
            err("task.home_site", "unknown site 'moon'"),
            err("task.data_site", "unknown site 'sun'"),
            err(f"{p}.name", "must be a string"),
            err(
                f"{p}.workload",
                "must be one of training, fine_tuning, adapter_tuning, inference, "
                "batch_inference, data_processing, rendering, scientific_batch, online_service",
            ),
            err(f"{p}.cadence", "must be one of one_off, recurring"),
            err(f"{p}.runs_per_quarter", "must be ≥ 0"),
            err(f"{p}.params_b", "must be ≥ 0"),
            err(f"{p}.precision", "must be one of fp32, bf16, fp16, fp8, int8, int4"),
            err(f"{p}.peak_gpu_mem_gb", "must be ≥ 0"),
            err(f"{p}.gpus", "must be ≥ 1"),
            err(f"{p}.parallelism", "must be a list of data, tensor, pipeline, sharded"),
            err(f"{p}.coupling", "must be one of none, loose, tight"),
            err(f"{p}.input_gb", "must be ≥ 0"),
            err(f"{p}.result_gb", "must be ≥ 0"),
            err(f"{p}.compress_ratio", "must be > 0"),
            err(f"{p}.image_gb", "must be ≥ 0"),
            err(f"{p}.access_pattern", "must be one of streaming, repeated_full_scan"),
            err(f"{p}.data_passes", "must be ≥ 1"),
            err(f"{p}.compute_hours", "must be ≥ 0"),
            err(f"{p}.resumable", "must be true or false"),
            err(f"{p}.resume_verified", "must be true or false"),
            err(f"{p}.env_aligned", "must be true or false"),
            err(f"{p}.interruption_cost_hours", "must be ≥ 0"),
            err(f"{p}.latency_budget_hours.x", "unknown field"),
            err(f"{p}.latency_budget_hours.transfer", "must be ≥ 0"),
            err(f"{p}.latency_budget_hours.queue", "must be ≥ 0"),
            err(f"{p}.latency_budget_hours.compute", "must be ≥ 0"),
            err(f"{p}.delay_cost_per_hour", "must be ≥ 0"),
            err(f"{p}.env_simple", "must be true or false"),
            err(f"{p}.image_packaged", "must be true or false"),
            err(f"{p}.offsite_allowed", "must be true or false"),
            err(f"{p}.low_latency_online", "must be true or false"),
            err(f"{p}.stateful", "must be true or false"),
            err(f"{p}.compliance_restricted", "must be true or false"),
            err(f"{p}.strict_consistency", "must be true or false"),
            err(f"{p}.results_restricted", "must be true or false"),
            err(f"{p}.team.size", "unknown field"),
            err(
                f"{p}.team.validated_tiers[0]",
                "must be one of same_site, same_datacenter, same_city, cross_hub",
            ),
            err(f"{p}.team.has_machines", "must be true or false"),
            err(f"{p}.team.has_scheduler", "must be true or false"),
            err(f"{p}.team.can_maintain_scheduler", "must be true or false"),
            err(f"{p}.team.pain", "must be one of none, slow, queueing"),
            err(f"{p}.activation_checkpointing", "must be true or false"),
            err(f"{p}.checkpoint_interval_hours", "must be ≥ 0"),
            err(f"{p}.processed_gb", "must be ≥ 0"),
            err(f"{p}.preprocess_hours", "must be ≥ 0"),
            err(f"{p}.preprocess_cost_per_hour", "must be ≥ 0"),
            err(f"{p}.rounds_per_refresh", "must be ≥ 1"),
        ]

    def test_the_required_fields(self):
        assert parse_errors(make_input({})) == [
            err(
                "task.gpus",
                "is required: the planned GPU count compute_hours is measured on "
                "(null when unknown, which blocks with P3)",
            ),
            err("task.home_site", "is required"),
            err("task.workload", "is required"),
            err("task.compute_hours", "is required"),
        ]
        assert parse_input(with_task(gpus=None)).task.gpus is None  # null: P3 blocks it

    def test_task_missing_null_or_not_an_object(self):
        data = make_input()
        del data["task"]
        assert parse_errors(data) == [err("task", "is required")]
        assert parse_errors({**make_input(), "task": None}) == [err("task", "is required")]
        assert parse_errors({**make_input(), "task": [1]}) == [err("task", "must be an object")]

    def test_compress_ratio_bounds(self):
        assert parse_input(with_task(compress_ratio=1)).task.compress_ratio == 1.0
        assert parse_input(with_task(compress_ratio=0.01)).task.compress_ratio == 0.01
        assert parse_errors(with_task(compress_ratio=1.01)) == [
            err("task.compress_ratio", "must be ≤ 1")
        ]

    def test_allowed_sites_and_containers(self):
        assert parse_input(with_task(allowed_sites=("far", "home"))).task.allowed_sites == (
            "far",
            "home",
        )
        assert parse_errors(with_task(allowed_sites="home")) == [
            err("task.allowed_sites", "must be a list of site codes")
        ]
        assert parse_errors(with_task(latency_budget_hours=[1], team=5)) == [
            err("task.latency_budget_hours", "must be an object"),
            err("task.team", "must be an object"),
        ]
        parsed = parse_input(with_task(latency_budget_hours={}, team={})).task
        assert (parsed.latency_budget_hours, parsed.team) == (LatencyBudget(), Team())


class TestTeam:
    def test_same_site_is_always_validated_and_tiers_keep_their_order(self):
        def tiers(given: list[str]) -> tuple[str, ...]:
            return parse_input(with_task(team={"validated_tiers": given})).task.team.validated_tiers

        assert tiers([]) == ("same_site",)
        assert tiers(["cross_hub", "same_city"]) == ("same_site", "same_city", "cross_hub")
        assert tiers(["same_datacenter", "same_site"]) == ("same_site", "same_datacenter")

    def test_defaults(self):
        team = parse_input(with_task(team={"pain": None})).task.team
        assert team == Team(False, False, False, "none", ("same_site",))


class TestModelShape:
    SHAPE = {"batch_size": 4, "seq_len": 2048, "hidden_size": 4096, "layers": 32, "heads": 32}

    def test_kv_heads_default_to_heads(self):
        parsed = parse_input(with_task(**self.SHAPE)).task
        assert (parsed.heads, parsed.kv_heads, parsed.has_architecture) == (32, 32, True)
        parsed = parse_input(with_task(**self.SHAPE, kv_heads=None)).task
        assert parsed.kv_heads == 32

    def test_all_shape_fields_null_is_no_shape(self):
        nulls = dict.fromkeys((*self.SHAPE, "kv_heads"))
        parsed = parse_input(with_task(**nulls)).task
        assert (parsed.layers, parsed.kv_heads, parsed.has_architecture) == (None, None, False)

    def test_a_partial_shape_names_each_missing_field(self):
        assert parse_errors(with_task(layers=32, kv_heads=8)) == [
            err("task.batch_size", SHAPE_REQUIRED),
            err("task.seq_len", SHAPE_REQUIRED),
            err("task.hidden_size", SHAPE_REQUIRED),
            err("task.heads", SHAPE_REQUIRED),
        ]
        assert parse_errors(with_task(**{**self.SHAPE, "layers": None})) == [
            err("task.layers", SHAPE_REQUIRED)
        ]

    def test_shape_figures_are_positive_integers(self):
        shape = {**self.SHAPE, "batch_size": 0, "seq_len": 1.5, "kv_heads": 0}
        assert parse_errors(with_task(**shape)) == [
            err("task.batch_size", "must be ≥ 1"),
            err("task.seq_len", "must be an integer"),
            err("task.kv_heads", "must be ≥ 1"),
        ]
        one = dict.fromkeys(self.SHAPE, 1)
        assert parse_input(with_task(**one)).task.batch_size == 1

    def test_heads_divide_hidden_size_and_kv_heads_divide_heads(self):
        assert parse_errors(with_task(**{**self.SHAPE, "heads": 30})) == [
            err("task.heads", "must divide hidden_size (4096)")
        ]
        assert parse_errors(with_task(**self.SHAPE, kv_heads=64)) == [
            err("task.kv_heads", "must be ≤ heads (32)")
        ]
        assert parse_errors(with_task(**self.SHAPE, kv_heads=5)) == [
            err("task.kv_heads", "must divide heads (32)")
        ]
        # at the bound: kv_heads = heads is fine, as is kv_heads = 1
        assert parse_input(with_task(**self.SHAPE, kv_heads=32)).task.kv_heads == 32
        assert parse_input(with_task(**self.SHAPE, kv_heads=1)).task.kv_heads == 1


class TestStagedFields:
    def test_without_a_staged_field_nothing_is_staged(self):
        parsed = parse_input(with_task()).task
        assert (parsed.processed_gb, parsed.preprocess_hours) == (None, 0.0)
        assert (parsed.preprocess_cost_per_hour, parsed.rounds_per_refresh) == (0.0, 1)

    def test_each_staged_field_alone_takes_the_others_defaults(self):
        parsed = parse_input(with_task(processed_gb=0)).task
        assert (parsed.processed_gb, parsed.preprocess_hours) == (0.0, 0.0)
        assert (parsed.preprocess_cost_per_hour, parsed.rounds_per_refresh) == (0.0, 1)
        parsed = parse_input(with_task(rounds_per_refresh=3)).task
        assert (parsed.processed_gb, parsed.rounds_per_refresh) == (None, 3)
        assert parse_input(with_task(preprocess_hours=1.5)).task.preprocess_hours == 1.5
        parsed = parse_input(with_task(preprocess_cost_per_hour=2)).task
        assert parsed.preprocess_cost_per_hour == 2.0


class TestChecklists:
    def test_answers_and_defaults(self):
        data = make_input(
            offers=[offer("a"), offer(7)],
            checklists={"a": {"q1": "answered", "q2": "unanswered"}, 7: {}},
        )
        parsed = parse_input(data).checklists
        assert parsed["a"] == {
            "q1": "answered",
            "q2": "unanswered",
            **{f"q{i}": "unanswered" for i in range(3, 7)},
        }
        assert parsed["7"] == {f"q{i}": "unanswered" for i in range(1, 7)}
        assert parse_input(make_input(checklists=None)).checklists == {}

    def test_every_error(self):
        data = make_input(
            offers=[offer("a"), offer("b")],
            checklists={"ghost": {}, True: {}, "a": {"q1": "maybe", "q7": "answered"}, "b": 3},
        )
        assert parse_errors(data) == [
            err("checklists.ghost", "unknown offer 'ghost'"),
            err("checklists.True", "unknown offer 'True'"),
            err("checklists.a.q7", "unknown field"),
            err("checklists.a.q1", "must be one of answered, unanswered"),
            err("checklists.b", "must be an object"),
        ]
        assert parse_errors(make_input(checklists=[1])) == [err("checklists", "must be an object")]


class TestChecklistOrder:
    def test_every_checklist_is_read_whatever_comes_before_it(self):
        all_answered = {f"q{i}": "answered" for i in range(1, 7)}
        data = make_input(
            offers=[offer("a"), offer("b"), offer("c")],
            checklists={"a": all_answered, "b": 3, "c": {"q1": "maybe"}},
        )
        assert parse_errors(data) == [
            err("checklists.b", "must be an object"),
            err("checklists.c.q1", "must be one of answered, unanswered"),
        ]
        data["checklists"] = {"a": all_answered, "c": {"q2": "answered"}}
        parsed = parse_input(data).checklists
        assert parsed["a"] == all_answered
        assert parsed["c"] == {**dict.fromkeys(all_answered, "unanswered"), "q2": "answered"}

    def test_a_boolean_key_is_not_an_offer_id(self):
        # an offer whose id is the text "True": the key True (a Python caller) is not its id
        data = make_input(offers=[offer("True")], checklists={True: {}})
        assert parse_errors(data) == [err("checklists.True", "unknown offer 'True'")]


class TestThresholds:
    def test_given_thresholds_replace_the_defaults(self):
        given = {"headroom": 1, "network_cost_share": 0, "long_run_hours": 30}
        parsed = parse_input(make_input(thresholds=given)).thresholds
        assert parsed == {**DEFAULT_THRESHOLDS, "headroom": 1.0, "network_cost_share": 0.0,
                          "long_run_hours": 30.0}  # fmt: skip
        assert parse_input(make_input(thresholds=None)).thresholds == DEFAULT_THRESHOLDS
        assert parse_input(make_input(thresholds={})).thresholds == DEFAULT_THRESHOLDS

    def test_every_error(self):
        bad = {
            "headroom": 0,
            "multi_machine_efficiency": 1.5,
            "near_capacity_band": 1.5,
            "network_cost_share": -0.1,
            "scaling_efficiency_min": 2,
            "long_run_hours": -1,
            "buffer_same_city": None,
            "typo": 1,
        }
        assert parse_errors(make_input(thresholds=bad)) == [
            err("thresholds.typo", "unknown threshold"),
            err("thresholds.network_cost_share", "must be ≥ 0"),
            err("thresholds.headroom", "must be > 0"),
            err("thresholds.near_capacity_band", "must be ≤ 1"),
            err("thresholds.buffer_same_city", "is required"),
            err("thresholds.scaling_efficiency_min", "must be ≤ 1"),
            err("thresholds.long_run_hours", "must be ≥ 0"),
            err("thresholds.multi_machine_efficiency", "must be ≤ 1"),
        ]
        assert parse_errors(make_input(thresholds=3)) == [err("thresholds", "must be an object")]

    def test_data_compute_low_at_most_high(self):
        at = parse_input(make_input(thresholds={"data_compute_low": 50, "data_compute_high": 50}))
        assert at.thresholds["data_compute_low"] == 50.0
        assert parse_errors(make_input(thresholds={"data_compute_low": 101})) == [
            err("thresholds.data_compute_low", "must be ≤ data_compute_high")
        ]
        over = {"data_compute_low": 60, "data_compute_high": 50}
        assert parse_errors(make_input(thresholds=over)) == [
            err("thresholds.data_compute_low", "must be ≤ data_compute_high")
        ]

    def test_every_threshold_is_bounded_as_its_kind(self):
        for key in DEFAULT_THRESHOLDS:
            data = make_input(thresholds={key: -1})
            low = (
                "must be > 0" if key in ("headroom", "multi_machine_efficiency") else "must be ≥ 0"
            )
            if key == "failure_evidence_gpu_hours":
                low = "must be ≥ 1"  # SPEC 7.2: under one GPU-hour of records is no evidence
            assert parse_errors(data) == [err(f"thresholds.{key}", low)], key
            given = {"data_compute_low": 0, "data_compute_high": 100, key: 1}
            one = parse_input(make_input(thresholds=given))
            assert one.thresholds[key] == 1.0, key
            if key in ("headroom", "multi_machine_efficiency", "near_capacity_band",
                       "network_cost_share", "scaling_efficiency_min"):  # fmt: skip
                assert parse_errors(make_input(thresholds={key: 1.01})) == [
                    err(f"thresholds.{key}", "must be ≤ 1")
                ], key
            elif key not in ("data_compute_low", "data_compute_high"):
                assert parse_input(make_input(thresholds={key: 5})).thresholds[key] == 5.0, key


class TestTopLevel:
    def test_lists_that_are_not_lists(self):
        data = {"task": MINIMAL, "sites": {"code": "home"}, "offers": "a", "links": 1,
                "benchmarks": {}}  # fmt: skip
        assert parse_errors(data) == [
            err("sites", "must be a list"),
            err("links", "must be a list"),
            err("offers", "must be a list"),
            err("benchmarks", "must be a list"),
        ]

    def test_a_list_refused_whole_makes_no_unknown_reference_errors(self):
        # sites refused: the task's and offers' site codes are not reported unknown; offers
        # refused: the benchmarks' and checklists' offer ids are not either
        data = make_input(
            sites="x",
            offers=7,
            benchmarks=[{"kind": "single", "offer": "z", "e2e_hours": 1, "compute_hours": 1}],
            checklists={"z": {}},
        )
        data["task"]["home_site"] = "nowhere"
        assert parse_errors(data) == [
            err("sites", "must be a list"),
            err("offers", "must be a list"),
        ]

    def test_null_lists_are_empty(self):
        data = {"task": {**MINIMAL, "home_site": "h"}, "sites": [{"code": "h"}], "links": None,
                "offers": None, "benchmarks": None, "checklists": None, "thresholds": None,
                "currency": None}  # fmt: skip
        parsed = parse_input(data)
        assert (parsed.links, parsed.offers, parsed.benchmarks) == ((), (), ())
        assert (parsed.checklists, parsed.currency) == ({}, None)

    def test_unknown_top_level_fields_and_the_currency(self):
        data = {**make_input(), "extra": 1, 5: 2, "currency": "CNY"}
        assert parse_errors(data) == [err("extra", "unknown field"), err("5", "unknown field")]
        assert parse_input({**make_input(), "currency": "CNY"}).currency == "CNY"
