"""The world lists of the evaluate input (SPEC 4 and 6.2): sites, links, offers and benchmark
records read field by field: every field given (each lands where it belongs), every optional
field left out or null (its default), and every field wrong at once (each error names its path,
in the order they are reported).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import parse_input
from engine.schema import Benchmark, Link, Offer, Site

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    parse_errors,
    task,
)


class Name(str):
    """A str subclass (as an enum member or a lazy string may be): valid, but not plain."""


def err(field: str, message: str) -> dict[str, str]:
    return {"field": field, "message": message}


# ---------------------------------------------------------------------------------------------
# Sites


class TestSites:
    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_every_field(self, text):
        sites = [
            {"code": text("home")},
            {
                "code": text("x"),
                "name": "Site X",
                "datacenter": "dc",
                "city": "bj",
                "hub": "north",
                "queue_hours": 2.5,
                "storage_tb": 0.5,
            },
        ]
        parsed = parse_input(make_input(sites=sites, links=[], offers=[]))
        assert parsed.sites == {
            "home": Site("home", index=0),
            "x": Site("x", "dc", "bj", "north", 2.5, 0.5, "Site X", 1),
        }

    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_null_fields_take_their_defaults(self, text):
        sites = [{"code": text("home"), "queue_hours": None, "storage_tb": None, "name": None}]
        parsed = parse_input(make_input(sites=sites, links=[], offers=[]))
        assert parsed.sites["home"] == Site("home", None, None, None, 0.0, None, None, 0)

    def test_every_error(self):
        sites = [
            {"code": "home"},
            {
                "code": " ",
                "name": 1,
                "storage_tb": -1,
                "datacenter": 2,
                "city": 3,
                "hub": 4,
                "queue_hours": -1,
                "extra": 0,
            },
            {"code": "home"},
            "not an object",
            {},
        ]
        assert parse_errors(make_input(sites=sites, links=[], offers=[])) == [
            err("sites[1].extra", "unknown field"),
            err("sites[1].code", "must not be blank"),
            err("sites[1].name", "must be a string"),
            err("sites[1].storage_tb", "must be ≥ 0"),
            err("sites[1].datacenter", "must be a string"),
            err("sites[1].city", "must be a string"),
            err("sites[1].hub", "must be a string"),
            err("sites[1].queue_hours", "must be ≥ 0"),
            err("sites[2].code", "duplicate site code 'home'"),
            err("sites[3]", "must be an object"),
            err("sites[4].code", "is required"),
        ]


# ---------------------------------------------------------------------------------------------
# Links

SITES = [{"code": "a"}, {"code": "b"}, {"code": "c"}]


def _links(links: list[Any]) -> dict[str, Any]:
    return make_input(task(home_site="a"), sites=SITES, links=links, offers=[])


class TestLinks:
    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_every_field(self, text):
        links = [
            {"from": text("a"), "to": "b", "bandwidth_gbps": 10, "price_per_gb": 0.5},
            {
                "from": text("b"),
                "to": "a",
                "bandwidth_gbps": 2.5,
                "price_per_gb": 1,
                "rtt_ms": 30,
                "buffer": 0.2,
                "reservable": True,
                "reserved": True,
            },
        ]
        parsed = parse_input(_links(links))
        assert parsed.links == (
            Link("a", "b", 10.0, 0.5, 0.0, None, False, False, 0),
            Link("b", "a", 2.5, 1.0, 30.0, 0.2, True, True, 1),
        )
        assert type(parsed.links[0].bandwidth_gbps) is float

    def test_a_link_read_field_by_field(self):
        # str subclasses for the ends: not a plain link, read by the Reader, same Link
        links = [
            {"from": Name("a"), "to": Name("b"), "bandwidth_gbps": 2, "price_per_gb": 0.5,
             "rtt_ms": None},
        ]  # fmt: skip
        [link] = parse_input(_links(links)).links
        assert link == Link("a", "b", 2.0, 0.5, 0.0, None, False, False, 0)
        assert (type(link.from_site), type(link.to_site)) == (str, str)

    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_null_fields_take_their_defaults(self, text):
        links = [
            {
                "from": text("a"),
                "to": "b",
                "bandwidth_gbps": 1,
                "price_per_gb": 0,
                "rtt_ms": None,
                "buffer": None,
                "reserved": None,
                "reservable": None,
            }
        ]
        assert parse_input(_links(links)).links == (
            Link("a", "b", 1.0, 0.0, 0.0, None, False, False, 0),
        )

    def test_every_error(self):
        links = [
            {
                "from": "z",
                "to": "b",
                "bandwidth_gbps": 0,
                "rtt_ms": -1,
                "price_per_gb": -1,
                "buffer": -1,
                "reserved": True,
                "reservable": "no",
                "speed": 1,
            },
            {"from": "a", "to": "a", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"from": "a", "to": "b", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"from": "a", "to": "b", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"to": "c", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"from": "c", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"from": "c", "to": "a", "price_per_gb": 0},
            [],
        ]
        assert parse_errors(_links(links)) == [
            err("links[0].speed", "unknown field"),
            err("links[0].from", "unknown site 'z'"),
            err("links[0].bandwidth_gbps", "must be > 0"),
            err("links[0].rtt_ms", "must be ≥ 0"),
            err("links[0].price_per_gb", "must be ≥ 0"),
            err("links[0].buffer", "must be ≥ 0"),
            err("links[0].reservable", "must be true or false"),
            err("links[0].reserved", "only a reservable link can be reserved"),
            err("links[1].to", "a link joins two different sites"),
            err("links[3]", "duplicate link a → b"),
            err("links[4].from", "is required"),
            err("links[5].to", "is required"),
            err("links[6].bandwidth_gbps", "is required"),
            err("links[7]", "must be an object"),
        ]

    def test_links_after_one_that_is_not_an_object_are_still_read(self):
        links = ["x", {"from": "a", "to": "zz", "bandwidth_gbps": 1, "price_per_gb": 0}]
        assert parse_errors(_links(links)) == [
            err("links[0]", "must be an object"),
            err("links[1].to", "unknown site 'zz'"),
        ]

    def test_links_with_a_missing_end_are_not_duplicates_of_each_other(self):
        no_to = {"from": "a", "bandwidth_gbps": 1, "price_per_gb": 0}
        no_from = {"to": "b", "bandwidth_gbps": 1, "price_per_gb": 0, "reserved": "yes"}
        assert parse_errors(_links([no_to, dict(no_to), no_from, dict(no_from)])) == [
            err("links[0].to", "is required"),
            err("links[1].to", "is required"),
            err("links[2].from", "is required"),
            err("links[2].reserved", "must be true or false"),
            err("links[3].from", "is required"),
            err("links[3].reserved", "must be true or false"),
        ]

    @pytest.mark.parametrize("first", [str, Name], ids=["plain", "field_by_field"])
    def test_a_duplicate_is_found_whichever_way_each_link_is_read(self, first):
        links = [
            {"from": first("a"), "to": "b", "bandwidth_gbps": 1, "price_per_gb": 0},
            {"from": "a", "to": "b", "bandwidth_gbps": 2, "price_per_gb": 0},
            {"from": Name("a"), "to": "b", "bandwidth_gbps": 3, "price_per_gb": 0},
        ]
        assert parse_errors(_links(links)) == [
            err("links[1]", "duplicate link a → b"),
            err("links[2]", "duplicate link a → b"),
        ]

    def test_a_reserved_link_must_be_reservable_and_the_reverse_is_another_link(self):
        links = [
            {"from": "a", "to": "b", "bandwidth_gbps": 1, "price_per_gb": 0, "reserved": True},
            {"from": "b", "to": "a", "bandwidth_gbps": 1, "price_per_gb": 0, "reservable": True},
        ]
        assert parse_errors(_links(links)) == [
            err("links[0].reserved", "only a reservable link can be reserved")
        ]


# ---------------------------------------------------------------------------------------------
# Offers


def _offers(offers: list[Any], **top: Any) -> dict[str, Any]:
    data = make_input(offers=offers)
    data.update(top)
    return data


class TestOffers:
    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_every_field(self, text):
        full = {
            "id": 42,
            "name": "H100 spot",
            "provider": "cloud",
            "kind": text("managed"),
            "site": "far",
            "gpu_model": "H100",
            "gpu_mem_gb": 80,
            "gpus_per_machine": 8,
            "max_machines": 4,
            "billing_basis": "contract",
            "price": 1000,
            "contract_hours": 0.5,
            "expected_utilization": 1,
            "scheduling_fee_pct": 5,
            "parallelism": ["tensor", "data"],
            "relative_speed": 1.5,
            "machines": 2,
            "boot_hours": 0.25,
            "migration_effort_hours": 12,
            "currency": "CNY",
            "preemptible": True,
            "preemptions_per_day": 0.5,
        }
        parsed = parse_input(_offers([offer("local"), full]))
        assert parsed.currency is None  # the input names none; the offer keeps its own
        assert parsed.offers[1] == Offer(
            id="42",
            kind="managed",
            site="far",
            gpu_mem_gb=80.0,
            gpus_per_machine=8,
            billing_basis="contract",
            price=1000.0,
            max_machines=4,
            contract_hours=0.5,
            expected_utilization=1.0,
            scheduling_fee_pct=5.0,
            parallelism=("data", "tensor"),
            relative_speed=1.5,
            machines=2,
            name="H100 spot",
            provider="cloud",
            boot_hours=0.25,
            migration_effort_hours=12.0,
            currency="CNY",
            gpu_model="H100",
            preemptible=True,
            preemptions_per_day=0.5,
            index=1,
        )

    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_left_out_or_null_fields_take_their_defaults(self, text):
        nulls = {
            "max_machines": None,
            "machines": None,
            "name": None,
            "provider": None,
            "boot_hours": None,
            "migration_effort_hours": None,
            "gpu_model": None,
            "scheduling_fee_pct": None,
            "relative_speed": None,
            "contract_hours": None,
            "expected_utilization": None,
            "parallelism": None,
        }
        parsed = parse_input(
            _offers([offer("a", parallelism=[]), offer("b", kind=text("compute"), **nulls)])
        )
        for o in parsed.offers:
            assert (o.max_machines, o.machines, o.name, o.provider, o.gpu_model) == (None,) * 5
            assert (o.boot_hours, o.migration_effort_hours) == (0.0, None)
            assert (o.scheduling_fee_pct, o.relative_speed, o.parallelism) == (0.0, 1.0, ())
            assert (o.contract_hours, o.expected_utilization, o.currency) == (None, None, None)
            assert (o.preemptible, o.preemptions_per_day) == (False, 0.0)

    def test_left_out_fields_of_an_offer_read_field_by_field_take_their_defaults(self):
        [o] = parse_input(_offers([offer("c", kind=Name("compute"))])).offers
        assert (o.kind, o.boot_hours, o.machines, o.gpu_model) == ("compute", 0.0, None, None)
        assert (o.migration_effort_hours, o.preemptible, o.preemptions_per_day) == (
            None,
            False,
            0.0,
        )

    def test_null_fields_of_a_record_read_field_by_field_take_their_defaults(self):
        # A str subclass for the name: not a plain record, so every field is read by the Reader
        nulls = {"machines": None, "boot_hours": None, "migration_effort_hours": None}
        [o] = parse_input(_offers([offer("a", name=Name("A"), **nulls)])).offers
        assert (o.name, type(o.name)) == ("A", str)
        assert (o.machines, o.boot_hours, o.migration_effort_hours) == (None, 0.0, None)

    def test_preemption_fields(self):
        parsed = parse_input(
            _offers(
                [
                    offer("a", preemptible=False),
                    offer("b", preemptible=True, preemptions_per_day=0),
                    offer("c", preemptible=False, preemptions_per_day=None),
                ]
            )
        )
        assert [(o.preemptible, o.preemptions_per_day) for o in parsed.offers] == [
            (False, 0.0),
            (True, 0.0),
            (False, 0.0),
        ]
        assert parse_errors(
            _offers(
                [
                    offer("a", preemptible=True),
                    offer("b", preemptions_per_day=1),
                    offer("c", preemptible=True, preemptions_per_day=-1),
                ]
            )
        ) == [
            err(
                "offers[0].preemptions_per_day",
                "is required for a preemptible offer (expected preemptions per day; 0 if none)",
            ),
            err(
                "offers[1].preemptions_per_day",
                "only a preemptible offer has preemptions (set preemptible: true)",
            ),
            err("offers[2].preemptions_per_day", "must be ≥ 0"),
        ]

    def test_every_error(self):
        bad = {
            "id": True,
            "name": 5,
            "provider": 6,
            "kind": "x",
            "site": "nowhere",
            "gpu_model": 7,
            "gpu_mem_gb": 0,
            "gpus_per_machine": 0,
            "max_machines": 0,
            "billing_basis": "contract",
            "price": -1,
            "contract_hours": 0,
            "expected_utilization": 1.5,
            "scheduling_fee_pct": -1,
            "parallelism": ["x"],
            "relative_speed": 0,
            "machines": 0,
            "boot_hours": -1,
            "migration_effort_hours": -1,
            "currency": "usd",
            "preemptible": "yes",
            "preemptions_per_day": 2,
            "bogus": 1,
        }
        assert parse_errors(_offers([bad])) == [
            err("offers[0].bogus", "unknown field"),
            err("offers[0].currency", "must be an ISO 4217 code like CNY"),
            err("offers[0].id", "must be a non-blank string or an integer"),
            err("offers[0].site", "unknown site 'nowhere'"),
            err("offers[0].preemptible", "must be true or false"),
            err(
                "offers[0].preemptions_per_day",
                "only a preemptible offer has preemptions (set preemptible: true)",
            ),
            err("offers[0].kind", "must be one of compute, distributed, managed"),
            err("offers[0].gpu_mem_gb", "must be > 0"),
            err("offers[0].gpus_per_machine", "must be ≥ 1"),
            err("offers[0].max_machines", "must be ≥ 1"),
            err("offers[0].price", "must be ≥ 0"),
            err("offers[0].contract_hours", "must be > 0"),
            err("offers[0].expected_utilization", "must be ≤ 1"),
            err("offers[0].scheduling_fee_pct", "must be ≥ 0"),
            err("offers[0].parallelism[0]", "must be one of data, tensor, pipeline, sharded"),
            err("offers[0].relative_speed", "must be ≥ 0.01"),  # SPEC 7.8: [0.01, 100]
            err("offers[0].machines", "must be ≥ 1"),
            err("offers[0].name", "must be a string"),
            err("offers[0].provider", "must be a string"),
            err("offers[0].boot_hours", "must be ≥ 0"),
            err("offers[0].migration_effort_hours", "must be ≥ 0"),
            err("offers[0].gpu_model", "must be a string"),
        ]

    def test_counts_are_integers_and_contracts_need_their_figures(self):
        offers = [
            offer("a", max_machines=1.5, machines=2.5, gpus_per_machine=None),
            offer("b", billing_basis="contract", expected_utilization=0),
            {"id": "c", "site": "home"},
        ]
        assert parse_errors(_offers(offers)) == [
            err("offers[0].gpus_per_machine", "is required"),
            err("offers[0].max_machines", "must be an integer"),
            err("offers[0].machines", "must be an integer"),
            err("offers[1].contract_hours", "is required"),
            err("offers[1].expected_utilization", "must be > 0"),
            err("offers[2].billing_basis", "is required"),
            err("offers[2].kind", "is required"),
            err("offers[2].gpu_mem_gb", "is required"),
            err("offers[2].gpus_per_machine", "is required"),
            err("offers[2].price", "is required"),
        ]

    def test_ids(self):
        offers = [offer("a"), offer(" "), offer("a"), {**offer("x"), "id": None}, offer(7)]
        offers[4]["site"] = None
        assert parse_errors(_offers(offers)) == [
            err("offers[1].id", "must be a non-blank string or an integer"),
            err("offers[2].id", "duplicate offer id 'a'"),
            err("offers[3].id", "is required"),
            err("offers[4].site", "is required"),
        ]
        without = offer("x")
        del without["id"]
        assert parse_errors(_offers([without])) == [err("offers[0].id", "is required")]
        assert [o.id for o in parse_input(_offers([offer(7), offer("7 ")])).offers] == [
            "7",
            "7 ",
        ]
        assert parse_errors(_offers([offer(7), offer("7")])) == [
            err("offers[1].id", "duplicate offer id '7'")
        ]

    def test_offers_after_one_that_is_not_an_object_are_still_read(self):
        assert parse_errors(_offers(["x", offer("a", price=-1)])) == [
            err("offers[0]", "must be an object"),
            err("offers[1].price", "must be ≥ 0"),
        ]

    def test_currencies(self):
        offers = [offer("a", currency="USD"), offer("b", currency="EUR"), offer("c")]
        assert parse_errors(_offers(offers)) == [
            err(
                "offers[1].currency",
                "'EUR' differs from the input's currency 'USD' (no conversion)",
            )
        ]
        assert parse_errors(_offers([offer("a", currency="USD")], currency="CNY")) == [
            err(
                "offers[0].currency",
                "'USD' differs from the input's currency 'CNY' (no conversion)",
            )
        ]
        parsed = parse_input(_offers([offer("a", currency="CNY"), offer("b")], currency="CNY"))
        assert parsed.currency == "CNY"
        assert [o.currency for o in parsed.offers] == ["CNY", None]

    @pytest.mark.parametrize("code", ["cny", "CN", "CNYX", "C1Y", "ÄBC", 156, ""])
    def test_a_currency_is_three_capital_ascii_letters(self, code):
        assert parse_errors(_offers([offer("a")], currency=code)) == [
            err("currency", "must be an ISO 4217 code like CNY")
        ]


# ---------------------------------------------------------------------------------------------
# Benchmark records


def _bench(records: list[Any]) -> dict[str, Any]:
    return make_input(benchmarks=records)


class TestBenchmarks:
    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_every_field(self, text):
        record = {
            "id": 17,
            "kind": text("multi"),
            "offer": "local",
            "nodes": 2,
            "gpus_per_node": 4,
            "e2e_hours": 10,
            "compute_hours": 8,
            "comm_hours": 1.5,
            "peak_gpu_mem_gb": 60,
            "failure_reruns": 2,
            "hours_lost_per_rerun": 0.5,
            "migration_effort_hours": 30,
            "cost": 99.5,
            "tier": "same_city",
            "succeeded": False,
        }
        [parsed] = parse_input(_bench([record])).benchmarks
        assert parsed == Benchmark(
            0, "multi", "local", 2, 4, 10.0, 8.0, 1.5, 60.0, 2, 0.5, 30.0, 99.5, "same_city",
            False, "17",
        )  # fmt: skip

    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_left_out_or_null_fields_take_their_defaults(self, text):
        records = [
            {"kind": text("single"), "offer": 7, "e2e_hours": 5, "compute_hours": 5},
            {
                "kind": text("pilot_migration"),
                "offer": None,
                "id": True,
                "comm_hours": None,
                "peak_gpu_mem_gb": None,
                "migration_effort_hours": None,
                "cost": None,
                "tier": None,
                "succeeded": None,
                "nodes": None,
                "gpus_per_node": None,
                "failure_reruns": None,
                "hours_lost_per_rerun": None,
            },
            {"kind": text("network_probe")},
        ]
        data = make_input(offers=[offer(7)], benchmarks=records)
        a, b, c = parse_input(data).benchmarks
        assert a == Benchmark(0, "single", "7", 1, 1, 5.0, 5.0)
        assert b == Benchmark(1, "pilot_migration")
        assert c == Benchmark(2, "network_probe")
        assert (b.e2e_hours, b.failure_reruns, b.hours_lost_per_rerun) == (0.0, 0, 0.0)

    def test_an_untimed_record_read_field_by_field_has_no_offer(self):
        # a str subclass for the kind: not a plain record, read field by field
        [parsed] = parse_input(_bench([{"kind": Name("network_probe"), "offer": None}])).benchmarks
        assert parsed == Benchmark(0, "network_probe")
        assert parsed.offer is None

    def test_an_untimed_record_may_name_an_offer(self):
        records = [{"kind": "network_probe", "offer": "local", "succeeded": True}]
        [parsed] = parse_input(_bench(records)).benchmarks
        assert (parsed.offer, parsed.succeeded) == ("local", True)

    def test_every_error(self):
        records = [
            {
                "kind": "multi",
                "offer": "ghost",
                "e2e_hours": 2,
                "compute_hours": 3,
                "comm_hours": 4,
                "nodes": 0,
                "gpus_per_node": 0,
                "peak_gpu_mem_gb": -1,
                "failure_reruns": -1,
                "hours_lost_per_rerun": -1,
                "migration_effort_hours": -1,
                "cost": -1,
                "tier": "moon",
                "succeeded": "yes",
                "note": "x",
            },
            {"kind": "single", "offer": " "},
            {"kind": "probe", "offer": 3.5},
            {"kind": "multi", "offer": None, "e2e_hours": -1, "compute_hours": -1},
            {"offer": "local"},
            7,
        ]
        assert parse_errors(_bench(records)) == [
            err("benchmarks[0].note", "unknown field"),
            err("benchmarks[0].offer", "unknown offer 'ghost'"),
            err("benchmarks[0].compute_hours", "must be ≤ e2e_hours"),
            err("benchmarks[0].comm_hours", "must be ≤ e2e_hours"),
            err("benchmarks[0].nodes", "must be ≥ 1"),
            err("benchmarks[0].gpus_per_node", "must be ≥ 1"),
            err("benchmarks[0].peak_gpu_mem_gb", "must be ≥ 0"),
            err("benchmarks[0].failure_reruns", "must be ≥ 0"),
            err("benchmarks[0].hours_lost_per_rerun", "must be ≥ 0"),
            err("benchmarks[0].migration_effort_hours", "must be ≥ 0"),
            err("benchmarks[0].cost", "must be ≥ 0"),
            err(
                "benchmarks[0].tier",
                "must be one of same_site, same_datacenter, same_city, cross_hub",
            ),
            err("benchmarks[0].succeeded", "must be true or false"),
            err("benchmarks[1].offer", "must be a non-blank string or an integer"),
            err("benchmarks[1].e2e_hours", "is required"),
            err("benchmarks[1].compute_hours", "is required"),
            err(
                "benchmarks[2].kind", "must be one of single, multi, network_probe, pilot_migration"
            ),
            err("benchmarks[2].offer", "must be a non-blank string or an integer"),
            err("benchmarks[3].offer", "is required"),
            err("benchmarks[3].e2e_hours", "must be ≥ 0"),
            err("benchmarks[3].compute_hours", "must be ≥ 0"),
            err("benchmarks[4].kind", "is required"),
            err("benchmarks[5]", "must be an object"),
        ]

    def test_records_after_one_that_is_not_an_object_are_still_read(self):
        records = [3, {"kind": "network_probe", "comm_hours": -1}]
        assert parse_errors(_bench(records)) == [
            err("benchmarks[0]", "must be an object"),
            err("benchmarks[1].comm_hours", "must be ≥ 0"),
        ]

    @pytest.mark.parametrize("text", [str, Name], ids=["plain", "field_by_field"])
    def test_hours_at_the_bounds(self, text):
        # compute = e2e and comm = e2e are fine (≤); just over is not
        ok = [
            {
                "kind": text("single"),
                "offer": "local",
                "e2e_hours": 2,
                "compute_hours": 2,
                "comm_hours": 2,
            }
        ]
        [parsed] = parse_input(_bench(ok)).benchmarks
        assert (parsed.e2e_hours, parsed.compute_hours, parsed.comm_hours) == (2.0, 2.0, 2.0)
        over = [{"kind": text("single"), "offer": "local", "e2e_hours": 2, "compute_hours": 2.5}]
        assert parse_errors(_bench(over)) == [
            err("benchmarks[0].compute_hours", "must be ≤ e2e_hours")
        ]
        over = [
            {
                "kind": text("single"),
                "offer": "local",
                "e2e_hours": 2,
                "compute_hours": 1,
                "comm_hours": 2.5,
            }
        ]
        assert parse_errors(_bench(over)) == [
            err("benchmarks[0].comm_hours", "must be ≤ e2e_hours")
        ]
