"""Bad input is refused with every offending field named (SPEC 4: never a traceback)."""

from __future__ import annotations

import enum
import math

import pytest

from engine import EngineInputError, evaluate, parse_input

from .engine_fixtures import (
    LINKS,
    SITES,
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
            "task": {"workload": "inference", "compute_hours": 1, "gpus": 1, "home_site": "h"},
            "sites": [{"code": "h"}],
        }
        parsed = parse_input(data)
        assert parsed.task.data_site == parsed.task.result_site == "h"
        assert parsed.task.image_gb == 10.0
        # SPEC 6.1 rollout order: a new team has validated same_site only
        assert parsed.task.team.validated_tiers == ("same_site",)
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

    def test_it_requires_workload_compute_hours_gpus_and_home_site(self):
        errors = errors_of({"task": {}, "sites": [{"code": "h"}]})
        assert sorted(errors) == [
            "task.compute_hours",
            "task.gpus",
            "task.home_site",
            "task.workload",
        ]
        assert errors["task.workload"] == "is required"
        assert errors["task.compute_hours"] == "is required"
        assert errors["task.home_site"] == "is required"
        assert errors["task.gpus"].startswith("is required")  # SPEC 6.1: the planned count

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

    @pytest.mark.parametrize("near", ["ANSWERED", "Answered", "answered ", "XXansweredXX"])
    def test_an_answer_that_only_looks_answered_is_refused(self, near):
        # SPEC 6.2: an answer is one of two exact words, so a near miss never counts a question
        # as answered. Worked by hand: offer "local"'s q1 holds the near miss, so the one error
        # is at checklists.local.q1; q2..q6 are missing, which reads as unanswered, no error.
        errors = errors_of(make_input(checklists={"local": {"q1": near}}))
        assert errors == {"checklists.local.q1": "must be one of answered, unanswered"}

    def test_it_refuses_unknown_keys_by_path(self):
        # SPEC 6.2: a typo must never silently change a decision
        t = task(offsite_alowed=True, latency_budget_hours={"transfr": 1})
        t["team"]["has_machine"] = True
        data = make_input(
            t,
            offers=[offer("a", gpu_model="H100", colour="blue")],
            benchmarks=[{"kind": "network_probe", "bandwith_gbps": 1}],
            checklists={"a": {"q1": "answered", "q7": "answered"}},
        )
        data["sites"][1]["storage"] = 5
        data["links"][2]["latency_ms"] = 3
        data["extra"] = {}
        errors = errors_of(data)
        assert errors == {
            "extra": "unknown field",
            "sites[1].storage": "unknown field",
            "task.offsite_alowed": "unknown field",
            "task.latency_budget_hours.transfr": "unknown field",
            "task.team.has_machine": "unknown field",
            "links[2].latency_ms": "unknown field",
            "offers[0].colour": "unknown field",  # gpu_model is a known offer field
            "benchmarks[0].bandwith_gbps": "unknown field",
            "checklists.a.q7": "unknown field",
        }

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


def error_list(data) -> list[dict[str, str]]:
    with pytest.raises(EngineInputError) as caught:
        parse_input(data)
    return caught.value.errors


ANSWERED = {f"q{i}": "answered" for i in range(1, 7)}


class TestPlannedGpus:
    """SPEC 6.1: compute hours are measured on a GPU count, so task.gpus is required."""

    def test_an_absent_gpu_count_is_an_error_naming_task_gpus(self):
        t = task()
        del t["gpus"]
        errors = errors_of(make_input(t))
        assert list(errors) == ["task.gpus"]
        assert errors["task.gpus"].startswith("is required")

    def test_an_explicit_null_is_accepted_and_blocked_by_P3(self):
        out = evaluate(make_input(task(gpus=None), checklists={"local": dict(ANSWERED)}))
        p3 = [f for f in out["findings"] if f["rule"] == "P3"]
        assert [(f["severity"], f["offer"]) for f in p3] == [("block", None)]
        assert out["signoff"]["local"] == {"blocked": True, "rules": ["P3"]}

    def test_a_planned_count_is_accepted_without_P3(self):
        out = evaluate(make_input(task(gpus=8), checklists={"local": dict(ANSWERED)}))
        assert "P3" not in [f["rule"] for f in out["findings"]]
        assert out["signoff"]["local"] == {"blocked": False, "rules": []}


class TestCurrency:
    """SPEC 6.2: `currency` (top level) and `offers[].currency`, ISO 4217, never converted."""

    def test_matching_currencies_are_accepted(self):
        data = make_input(offers=[offer("a", currency="CNY"), offer("b", currency="CNY")])
        data["currency"] = "CNY"
        assert evaluate(data)["currency"] == "CNY"
        # both are optional
        assert parse_input(make_input()).currency is None

    def test_an_offer_in_another_currency_is_an_error_naming_it(self):
        data = make_input(
            offers=[offer("a", currency="CNY"), offer("b", currency="USD"), offer("c")]
        )
        data["currency"] = "CNY"
        errors = errors_of(data)
        assert list(errors) == ["offers[1].currency"]
        assert "USD" in errors["offers[1].currency"] and "CNY" in errors["offers[1].currency"]

    def test_offers_in_two_currencies_without_a_top_level_one_are_an_error(self):
        data = make_input(offers=[offer("a", currency="CNY"), offer("b", currency="USD")])
        assert list(errors_of(data)) == ["offers[1].currency"]

    @pytest.mark.parametrize("code", ["yuan", "usd", "US", 156, "U$D"])
    def test_a_malformed_code_is_an_error(self, code):
        data = make_input(offers=[offer("a", currency=code)])
        data["currency"] = code
        assert sorted(errors_of(data)) == ["currency", "offers[0].currency"]


def _sites(n: int) -> list[dict[str, object]]:
    """The three fixture sites and n − 3 more."""
    return [*SITES, *({"code": f"s{i}"} for i in range(n - 3))]


class TestSizeLimits:
    """SPEC 6.2: at most 200 sites, 5,000 links, 500 offers, 10,000 benchmarks."""

    def test_it_accepts_every_list_at_its_limit(self):
        sites = _sites(200)
        extra = [s["code"] for s in sites[3:]]
        pairs = [(a, b) for a in extra for b in extra if a != b][: 5000 - len(LINKS)]
        links = [
            *LINKS,
            *({"from": a, "to": b, "bandwidth_gbps": 1, "price_per_gb": 0} for a, b in pairs),
        ]
        data = make_input(
            sites=sites,
            links=links,
            offers=[offer(f"o{i}") for i in range(500)],
            benchmarks=[{"kind": "network_probe"}] * 10_000,
        )
        parsed = parse_input(data)
        assert (len(parsed.sites), len(parsed.links)) == (200, 5000)
        assert (len(parsed.offers), len(parsed.benchmarks)) == (500, 10_000)

    @pytest.mark.parametrize(
        ("key", "item", "limit"),
        [
            ("links", {"from": "home", "to": "far", "bandwidth_gbps": 1, "price_per_gb": 0}, 5000),
            ("offers", offer("o"), 500),
            ("benchmarks", {"kind": "network_probe"}, 10_000),
        ],
    )
    def test_one_item_too_many_is_one_error_naming_the_list(self, key, item, limit):
        data = make_input()
        data[key] = [item] * (limit + 1)  # items are not read, so repeats do not matter
        assert error_list(data) == [
            {"field": key, "message": f"at most {limit} items (got {limit + 1})"}
        ]

    def test_too_many_sites_is_one_error_naming_the_list(self):
        # Every site the task, links and offer name is in the list; only its length is wrong,
        # so "sites" is the one offending field (SPEC 4: every *offending* field is named).
        data = make_input(sites=_sites(201))
        assert error_list(data) == [{"field": "sites", "message": "at most 200 items (got 201)"}]

    def test_too_many_offers_is_one_error_even_when_benchmarks_and_checklists_name_them(self):
        offers = [offer(f"o{i}") for i in range(501)]
        run = {"kind": "single", "offer": "o7", "e2e_hours": 2, "compute_hours": 2}
        data = make_input(offers=offers, benchmarks=[run], checklists={"o7": {"q1": "answered"}})
        assert error_list(data) == [{"field": "offers", "message": "at most 500 items (got 501)"}]


class TestErrorCap:
    """SPEC 6.2: at most 100 errors reported, then `{"field": "", "message": "… and N more"}`."""

    @staticmethod
    def _bad_offers(n: int) -> dict[str, object]:
        # each offer has exactly one bad field: n errors in all
        return make_input(offers=[offer(f"o{i}", price="x") for i in range(n)])

    def test_150_errors_report_100_then_how_many_more(self):
        errors = error_list(self._bad_offers(150))
        assert len(errors) == 101
        assert errors[:100] == [
            {"field": f"offers[{i}].price", "message": "must be a number"} for i in range(100)
        ]
        assert errors[100] == {"field": "", "message": "… and 50 more"}  # 150 − 100

    def test_101_errors_report_100_and_1_more(self):
        errors = error_list(self._bad_offers(101))
        assert (len(errors), errors[-1]) == (101, {"field": "", "message": "… and 1 more"})

    def test_100_errors_are_all_reported(self):
        errors = error_list(self._bad_offers(100))
        assert len(errors) == 100
        assert errors[-1] == {"field": "offers[99].price", "message": "must be a number"}
