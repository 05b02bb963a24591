"""Bad input is refused with every offending field named (SPEC 4: never a traceback)."""

from __future__ import annotations

import enum
import math

import pytest

from apps.scoring.engine import EngineInputError, evaluate, parse_input

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    task,
)


def errors_of(data) -> dict[str, str]:
    with pytest.raises(EngineInputError) as caught:
        parse_input(data)
    return {e["field"]: e["message"] for e in caught.value.errors}


class TestValidation:
    def test_it_accepts_the_minimal_input(self):
        data = {
            "task": {"workload": "inference", "compute_hours": 1, "home_site": "h"},
            "sites": [{"code": "h"}],
        }
        parsed = parse_input(data)
        assert parsed.task.data_site == parsed.task.result_site == "h"
        assert parsed.task.image_gb == 10.0
        assert parsed.task.team.validated_tiers == ("same_site", "same_datacenter")
        assert evaluate(data)["chosen"] is None  # no offers → P2

    def test_it_rejects_a_top_level_list_with_one_error(self):
        with pytest.raises(EngineInputError) as caught:
            parse_input([1, 2])
        assert caught.value.errors == [{"field": "", "message": "input must be a JSON object"}]

    def test_it_names_every_bad_number_at_once(self):
        t = task(
            compute_hours=math.nan,
            input_gb=math.inf,
            result_gb=-1,
            gpus=True,
            delay_cost_per_hour=-math.inf,
            data_passes=1.5,
        )
        errors = errors_of(make_input(t, offers=[offer("a", price=True, gpu_mem_gb=0)]))
        assert errors == {
            "task.compute_hours": "must be a finite number",
            "task.input_gb": "must be a finite number",
            "task.result_gb": "must be ≥ 0",
            "task.gpus": "must be an integer, not a boolean",
            "task.delay_cost_per_hour": "must be a finite number",
            "task.data_passes": "must be an integer",
            "offers[0].price": "must be a number, not a boolean",
            "offers[0].gpu_mem_gb": "must be > 0",
        }

    @pytest.mark.parametrize(("ratio", "message"), [(0, "must be > 0"), (1.5, "must be ≤ 1")])
    def test_it_bounds_compress_ratio(self, ratio, message):
        assert errors_of(make_input(task(compress_ratio=ratio))) == {"task.compress_ratio": message}

    def test_it_names_nested_budget_and_team_fields(self):
        t = task(
            latency_budget_hours={"transfer": "2h", "queue": None},
            team={"pain": "boredom", "validated_tiers": ["same_city", "orbit"]},
        )
        assert errors_of(make_input(t)) == {
            "task.latency_budget_hours.transfer": "must be a number",
            "task.team.pain": "must be one of none, slow, queueing",
            "task.team.validated_tiers[1]": "must be one of same_site, same_datacenter, same_city, cross_hub",
        }

    def test_it_rejects_unknown_enum_values(self):
        errors = errors_of(
            make_input(task(workload="mining", precision="fp64", parallelism=["expert"]))
        )
        assert set(errors) == {"task.workload", "task.precision", "task.parallelism[0]"}

    def test_it_requires_workload_compute_hours_and_home_site(self):
        errors = errors_of({"task": {}, "sites": [{"code": "h"}]})
        assert errors == {
            "task.workload": "is required",
            "task.compute_hours": "is required",
            "task.home_site": "is required",
        }

    def test_it_checks_site_references(self):
        data = make_input(task(data_site="mars"), offers=[offer("a", site="moon")])
        data["links"].append(
            {"from": "home", "to": "venus", "bandwidth_gbps": 1, "price_per_gb": 0}
        )
        errors = errors_of(data)
        assert errors == {
            "task.data_site": "unknown site 'mars'",
            "offers[0].site": "unknown site 'moon'",
            "links[3].to": "unknown site 'venus'",
        }

    def test_it_rejects_duplicate_offer_ids_and_site_codes(self):
        data = make_input(offers=[offer("a"), offer(7), offer("7")])
        data["sites"].append({"code": "home"})
        errors = errors_of(data)
        assert errors == {
            "offers[2].id": "duplicate offer id '7'",
            "sites[3].code": "duplicate site code 'home'",
        }

    def test_it_rejects_unknown_thresholds_and_bad_values(self):
        errors = errors_of(
            make_input(thresholds={"headroom": 1.2, "sparkle": 1, "data_compute_low": 500})
        )
        assert errors == {
            "thresholds.sparkle": "unknown threshold",
            "thresholds.headroom": "must be ≤ 1",
            "thresholds.data_compute_low": "must be ≤ data_compute_high",
        }

    def test_it_requires_contract_fields_only_for_contracts(self):
        errors = errors_of(make_input(offers=[offer("c", billing_basis="contract", price=100)]))
        assert errors == {
            "offers[0].contract_hours": "is required",
            "offers[0].expected_utilization": "is required",
        }
        parse_input(make_input(offers=[offer("g", contract_hours=None)]))  # gpu_hour: fine

    def test_it_checks_benchmarks_checklists_and_links(self):
        data = make_input(
            benchmarks=[
                {"kind": "multi", "offer": "ghost", "e2e_hours": 2, "compute_hours": 3},
                {"kind": "single", "offer": "local"},
                {"kind": "network_probe"},
            ],
            checklists={"ghost": {"q1": "answered"}, "local": {"q2": "maybe"}},
        )
        data["links"].append(
            {"from": "home", "to": "home", "bandwidth_gbps": 0, "price_per_gb": 0, "reserved": True}
        )
        errors = errors_of(data)
        assert errors == {
            "benchmarks[0].offer": "unknown offer 'ghost'",
            "benchmarks[0].compute_hours": "must be ≤ e2e_hours",
            "benchmarks[1].e2e_hours": "is required",
            "benchmarks[1].compute_hours": "is required",
            "checklists.ghost": "unknown offer 'ghost'",
            "checklists.local.q2": "must be one of answered, unanswered",
            "links[3].bandwidth_gbps": "must be > 0",
            "links[3].reserved": "only a reservable link can be reserved",
            "links[3].to": "a link joins two different sites",
        }

    def test_it_ignores_unknown_keys_inside_objects(self):
        data = make_input(task(colour="blue"), offers=[offer("a", gpu_model="H100")])
        assert parse_input(data).offers[0].id == "a"

    def test_it_reports_wrong_container_types(self):
        errors = errors_of({"task": "train", "sites": {}, "offers": [3]})
        assert errors == {
            "sites": "must be a list",
            "task": "must be an object",
            "offers[0]": "must be an object",
        }

    def test_error_message_lists_fields(self):
        with pytest.raises(EngineInputError) as caught:
            parse_input(make_input(task(compute_hours=-1)))
        assert "task.compute_hours" in str(caught.value)

    def test_it_reads_str_enums_tuples_and_integer_keys_as_plain_values(self):
        # Django's TextChoices members are str subclasses; Python callers may pass tuples.
        class Workload(enum.StrEnum):
            INFERENCE = "inference"

        data = make_input(
            task(workload=Workload.INFERENCE, parallelism=("data",)),
            offers=[offer(7)],
            checklists={7: {"q1": "answered"}},
        )
        out = evaluate(data)
        estimate = out["findings"][0]
        assert type(estimate["data"]["workload"]) is str
        assert estimate["data"]["workload"] == "inference"
        assert list(out["checklists"]) == ["7"]
