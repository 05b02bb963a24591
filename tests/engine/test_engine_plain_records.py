"""The plain-record fast paths (plain_records.py, engine speed, issue 13; SPEC 6.2 reading).

A site, link, offer or benchmark record whose every field is plain (the right type, in range) is
built at once; anything else goes to the field-by-field Reader, which names every problem. Two
things are checked here, field by field:

* the fast path takes every plain record (so no plain input pays the slow path), and what it
  builds is exactly what the Reader builds from the same fields, types included (1 and 1.0 show
  differently in the output). The Reader's reading of the same record is had by handing it over
  in a dict subclass (``Rec``): valid for the Reader, never plain;
* every kind of value that is not plain (a bool for a number, a number for a flag, a str for a
  number, NaN, infinity, negative, out of range, missing, an unknown field, a str subclass) is
  refused by the fast path, so the Reader reads it: its errors name the path (written by hand
  from reader.py's and world.py's messages), and a valid non-plain value gives the plain result.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from engine import evaluate
from engine.plain_records import (
    plain_benchmark,
    plain_link,
    plain_offer,
    plain_site,
)
from engine.plain_values import (
    NotPlain,
    _above_zero,
    _amount,
    _choice,
    _choices,
    _code,
    _count,
    _flag,
    _subsets,
    _text,
)
from engine.reader import MISSING, Reader
from engine.schema import Benchmark, Link, Offer, Site
from engine.world import parse_benchmarks, parse_links, parse_offers, parse_sites

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - no Django
    multi,
    single,
    three_way_input,
)


@pytest.fixture(autouse=True)
def _built_under_the_test(monkeypatch):
    """SPEC 7.9: the fast path's functions built again from the field table under each test
    (not only when the engine was imported), so what is checked here is what the table makes
    of each field now."""
    from engine import plain_records, plain_task

    for module in (plain_records, plain_task):
        for name, built in module.builders().items():
            monkeypatch.setattr(module, name, built)


class Rec(dict):
    """A dict subclass: the Reader reads it like any object, the fast path never takes it."""


class Name(str):
    """A str subclass (an enum member, a lazy string): valid, but not plain."""


class Count(int):
    """An int subclass (an IntEnum): valid, but not plain."""


class Amount(float):
    """A float subclass (a numpy float64): valid, but not plain."""


def typed(value: Any) -> Any:
    """The value with the type of every part: equal only when the output would be identical."""
    if is_dataclass(value):
        return type(value).__name__, [
            (f.name, typed(getattr(value, f.name))) for f in fields(value)
        ]
    if isinstance(value, tuple):
        return tuple(typed(v) for v in value)
    return type(value).__name__, value


def err(field: str, message: str) -> dict[str, str]:
    return {"field": field, "message": message}


REFUSED = (NotPlain, KeyError, TypeError)  # what the callers catch as "not plain"

# ---------------------------------------------------------------------------------------------
# The field helpers, each against the Reader method it stands for, on every kind of value.

NAN, INF = float("nan"), float("inf")
PROBES: dict[str, Any] = {
    "int_0": 0,
    "float_0": 0.0,
    "minus_0": -0.0,
    "half": 0.5,
    "int_1": 1,
    "float_1": 1.0,
    "int_2": 2,
    "float_2": 2.0,
    "float_max": 1e12,  # MAX_MAGNITUDE itself is allowed
    "int_max": 10**12,
    "float_over": 1.000001e12,
    "int_over": 10**12 + 1,
    "minus_half": -0.5,
    "int_minus_1": -1,
    "nan": NAN,
    "inf": INF,
    "minus_inf": -INF,
    "true": True,
    "false": False,
    "str_1": "1",
    "null": None,
    "int_sub": Count(2),
    "float_sub": Amount(2.5),
    "list": [],
}
# A number ≥ 0 up to 1e12 of type int or float (-0.0 compares equal to 0.0: the Reader takes it).
AMOUNTS = {"int_0", "float_0", "minus_0", "half", "int_1", "float_1", "int_2", "float_2",
           "float_max", "int_max"}  # fmt: skip
ABOVE_ZERO = AMOUNTS - {"int_0", "float_0", "minus_0"}
COUNTS = {"int_1", "int_2", "int_max"}  # integers ≥ 1 of type int only: 2.0 is not plain
RATIOS = {"half", "int_1", "float_1"}  # > 0 and ≤ 1

NUMBER_HELPERS: dict[str, tuple[Any, Any, set[str]]] = {
    # name: (fast path, the Reader's reading of field "f" of object "o", values taken at once)
    "amount_required": (
        lambda v: _amount(v, MISSING),
        lambda r, o: r.amount(o, "f", "o"),
        AMOUNTS,
    ),
    "amount_default": (
        lambda v: _amount(v, 3.5),
        lambda r, o: r.amount(o, "f", "o", 3.5),
        AMOUNTS | {"null"},
    ),
    "amount_optional": (
        lambda v: _amount(v, None),
        lambda r, o: r.optional(o, "f", "o"),
        AMOUNTS | {"null"},
    ),
    "count_required": (
        lambda v: _count(v, MISSING, 1),
        lambda r, o: r.count(o, "f", "o", MISSING, 1),
        COUNTS,
    ),
    "count_from_0": (
        lambda v: _count(v, 0, 0),
        lambda r, o: r.count(o, "f", "o", 0, 0),
        COUNTS | {"int_0", "null"},
    ),
    "count_nullable": (
        lambda v: _count(v, None, 1),
        lambda r, o: r.number(o, "f", "o", nullable=True, minimum=1, integer=True),
        COUNTS | {"null"},
    ),
    "above_zero_required": (
        lambda v: _above_zero(v, MISSING),
        lambda r, o: r.number(o, "f", "o", above=0.0),
        ABOVE_ZERO,
    ),
    "above_zero_default": (
        lambda v: _above_zero(v, 1.0),
        lambda r, o: r.number(o, "f", "o", default=1.0, above=0.0),
        ABOVE_ZERO | {"null"},
    ),
    "ratio_nullable": (
        lambda v: _above_zero(v, None, 1.0),
        lambda r, o: r.number(o, "f", "o", nullable=True, above=0.0, maximum=1.0),
        RATIOS | {"null"},
    ),
    "ratio_default": (
        lambda v: _above_zero(v, 1.0, 1.0),
        lambda r, o: r.number(o, "f", "o", default=1.0, above=0.0, maximum=1.0),
        RATIOS | {"null"},
    ),
}


def _agrees(plain: Any, read: Any, value: Any, taken: bool) -> None:
    r = Reader()
    expected = read(r, {"f": value})
    if taken:
        assert typed(plain(value)) == typed(expected)
        assert r.errors == []
    else:
        with pytest.raises(REFUSED):
            plain(value)


@pytest.mark.parametrize("probe", PROBES)
@pytest.mark.parametrize("helper", NUMBER_HELPERS)
def test_number_helpers_take_plain_numbers_as_the_reader_reads_them(helper, probe):
    plain, read, taken = NUMBER_HELPERS[helper]
    _agrees(plain, read, PROBES[probe], probe in taken)


TEXTS: dict[str, Any] = {
    "plain": "a",
    "empty": "",
    "blank": " ",
    "null": None,
    "sub": Name("a"),
    "int": 1,
    "true": True,
    "unknown": "z",
}


@pytest.mark.parametrize("probe", TEXTS)
def test_text_takes_a_plain_str_or_null(probe):
    _agrees(_text, lambda r, o: r.text(o, "f", "o"), TEXTS[probe],
            probe in {"plain", "empty", "blank", "null", "unknown"})  # fmt: skip


@pytest.mark.parametrize("probe", TEXTS)
def test_code_takes_a_plain_known_non_blank_str(probe):
    # As Reader.text(required=True) followed by the "unknown site" check.
    known = {"a", " ", ""}  # blank codes are refused even when "known"
    _agrees(lambda v: _code(v, known), lambda r, o: r.text(o, "f", "o", required=True),
            TEXTS[probe], probe == "plain")  # fmt: skip


FLAGS: dict[str, Any] = {"true": True, "false": False, "null": None, "int_1": 1, "int_0": 0,
                         "float_1": 1.0, "str_true": "true", "str_empty": ""}  # fmt: skip


@pytest.mark.parametrize("probe", FLAGS)
def test_flag_takes_only_a_bool_or_null(probe):
    # A number or a str where true/false is expected goes to the Reader: "must be true or false".
    _agrees(_flag, lambda r, o: r.boolean(o, "f", "o"), FLAGS[probe],
            probe in {"true", "false", "null"})  # fmt: skip


CHOICES: dict[str, Any] = {"a": "a", "b": "b", "c": "c", "null": None, "sub": Name("a"),
                           "int": 1, "empty": "", "true": True}  # fmt: skip


@pytest.mark.parametrize("probe", CHOICES)
def test_choice_takes_a_plain_allowed_str(probe):
    allowed = ("a", "b")
    _agrees(lambda v: _choice(v, allowed), lambda r, o: r.choice(o, "f", "o", allowed),
            CHOICES[probe], probe in {"a", "b"})  # fmt: skip
    _agrees(lambda v: _choice(v, allowed, "b"),
            lambda r, o: r.choice(o, "f", "o", allowed, default="b"),
            CHOICES[probe], probe in {"a", "b", "null"})  # fmt: skip


LISTS: dict[str, Any] = {
    "empty": [],
    "one": ["b"],
    "reversed": ["c", "a"],  # canonical order: ("a", "c")
    "repeated": ["a", "a", "b"],
    "tuple": ("c", "b"),
    "null": None,
    "str_item_sub": [Name("a")],  # equal and of equal hash: the set lookup gives plain "a"
    "str": "a",
    "unknown_item": ["a", "d"],
    "int_item": [1],
    "unhashable_item": [["a"]],
    "set": {"a"},
    "dict": {"a": 1},
}


@pytest.mark.parametrize("probe", LISTS)
def test_choices_take_a_list_or_tuple_of_allowed_strs(probe):
    allowed = ("a", "b", "c")
    sets = _subsets(allowed)
    taken = {"empty", "one", "reversed", "repeated", "tuple", "null", "str_item_sub"}
    _agrees(lambda v: _choices(v, sets, ()), lambda r, o: r.choices(o, "f", "o", allowed),
            LISTS[probe], probe in taken)  # fmt: skip
    _agrees(lambda v: _choices(v, sets, ("b",)),
            lambda r, o: r.choices(o, "f", "o", allowed, default=("b",)),
            LISTS[probe], probe in taken)  # fmt: skip


def test_subsets_are_every_set_of_choices_in_canonical_order():
    # 2**3 = 8 subsets of three choices, each keyed by its set, valued in the allowed order.
    assert _subsets(("a", "b", "c")) == {
        frozenset(): (),
        frozenset({"a"}): ("a",),
        frozenset({"b"}): ("b",),
        frozenset({"c"}): ("c",),
        frozenset({"a", "b"}): ("a", "b"),
        frozenset({"a", "c"}): ("a", "c"),
        frozenset({"b", "c"}): ("b", "c"),
        frozenset({"a", "b", "c"}): ("a", "b", "c"),
    }
    assert _subsets(()) == {frozenset(): ()}


# ---------------------------------------------------------------------------------------------
# Sites


def _read_sites(items: list[Any]) -> tuple[dict[str, Site], list[dict[str, str]]]:
    r = Reader()
    return parse_sites(r, items), r.errors


FULL_SITE = {"code": "x", "name": "Site X", "datacenter": "dc", "city": "bj", "hub": "north",
             "queue_hours": 2.5, "storage_tb": 0}  # fmt: skip


class TestPlainSite:
    @pytest.mark.parametrize(
        ("record", "expected"),
        [
            (FULL_SITE, Site("x", "dc", "bj", "north", 2.5, 0.0, "Site X", 3)),
            ({"code": "y"}, Site("y", None, None, None, 0.0, None, None, 3)),
            ({"code": "y", "queue_hours": None, "storage_tb": None, "name": None},
             Site("y", None, None, None, 0.0, None, None, 3)),
        ],
    )  # fmt: skip
    def test_a_plain_site_is_built_at_once_as_the_reader_builds_it(self, record, expected):
        assert typed(plain_site(record, 3, {})) == typed(expected)
        sites, errors = _read_sites([Rec(record)])
        assert errors == []
        assert typed(sites[record["code"]]) == typed(plain_site(record, 0, {}))

    @pytest.mark.parametrize(
        ("change", "errors"),
        [
            ({"code": " "}, [err("sites[0].code", "must not be blank")]),
            ({"code": 7}, [err("sites[0].code", "must be a string")]),
            ({"code": None}, [err("sites[0].code", "is required")]),
            ({"city": 3}, [err("sites[0].city", "must be a string")]),
            ({"queue_hours": -1}, [err("sites[0].queue_hours", "must be ≥ 0")]),
            ({"queue_hours": True}, [err("sites[0].queue_hours", "must be a number, not a boolean")]),
            ({"storage_tb": "1"}, [err("sites[0].storage_tb", "must be a number")]),
            ({"storage_tb": NAN}, [err("sites[0].storage_tb", "must be a finite number")]),
            ({"rack": 1}, [err("sites[0].rack", "unknown field")]),
        ],
    )  # fmt: skip
    def test_what_is_not_plain_goes_to_the_reader(self, change, errors):
        record = {**FULL_SITE, **change}
        assert plain_site(record, 0, {}) is None
        assert _read_sites([record])[1] == errors

    def test_a_repeated_code_goes_to_the_reader(self):
        first = plain_site({"code": "x"}, 0, {})
        assert plain_site({"code": "x"}, 1, {"x": first}) is None
        assert _read_sites([{"code": "x"}, {"code": "x"}])[1] == [
            err("sites[1].code", "duplicate site code 'x'")
        ]

    def test_valid_values_that_are_not_plain_give_the_plain_site(self):
        record = {**FULL_SITE, "code": Name("x"), "queue_hours": Amount(2.5)}
        assert plain_site(record, 0, {}) is None
        sites, errors = _read_sites([record])
        assert errors == []
        assert typed(sites["x"]) == typed(plain_site(FULL_SITE, 0, {}))
        assert plain_site(Rec(FULL_SITE), 0, {}) is None


# ---------------------------------------------------------------------------------------------
# Links

CODES = {"a", "b", "c"}
FULL_LINK = {"from": "a", "to": "b", "bandwidth_gbps": 10, "rtt_ms": 3.5, "price_per_gb": 0.02,
             "buffer": 0.25, "reserved": True, "reservable": True}  # fmt: skip


def _read_links(items: list[Any]) -> tuple[tuple[Link, ...], list[dict[str, str]]]:
    r = Reader()
    return parse_links(r, items, CODES), r.errors


class TestPlainLink:
    @pytest.mark.parametrize(
        ("record", "expected"),
        [
            (FULL_LINK, Link("a", "b", 10.0, 0.02, 3.5, 0.25, True, True, 4)),
            ({"from": "c", "to": "a", "bandwidth_gbps": 0.5, "price_per_gb": 0},
             Link("c", "a", 0.5, 0.0, 0.0, None, False, False, 4)),
            ({"from": "b", "to": "c", "bandwidth_gbps": 1e12, "price_per_gb": 1e12,
              "rtt_ms": None, "buffer": None, "reserved": False, "reservable": True},
             Link("b", "c", 1e12, 1e12, 0.0, None, False, True, 4)),
            ({"from": "b", "to": "a", "bandwidth_gbps": 2, "price_per_gb": 1,
              "reserved": None, "reservable": False},
             Link("b", "a", 2.0, 1.0, 0.0, None, False, False, 4)),
        ],
    )  # fmt: skip
    def test_a_plain_link_is_built_at_once_as_the_reader_builds_it(self, record, expected):
        seen: set[tuple[str, str]] = set()
        assert typed(plain_link(record, 4, CODES, seen)) == typed(expected)
        assert seen == {(expected.from_site, expected.to_site)}
        links, errors = _read_links([Rec(record)])
        assert errors == []
        assert typed(links[0]) == typed(plain_link(record, 0, CODES, set()))

    @pytest.mark.parametrize(
        ("change", "errors"),
        [
            ({"to": "a"}, [err("links[0].to", "a link joins two different sites")]),
            ({"to": "z"}, [err("links[0].to", "unknown site 'z'")]),
            ({"from": "z"}, [err("links[0].from", "unknown site 'z'")]),
            ({"from": None}, [err("links[0].from", "is required")]),
            ({"to": " "}, [err("links[0].to", "must not be blank")]),
            ({"reservable": False},
             [err("links[0].reserved", "only a reservable link can be reserved")]),
            ({"reservable": None},
             [err("links[0].reserved", "only a reservable link can be reserved")]),
            ({"reserved": 1}, [err("links[0].reserved", "must be true or false")]),
            ({"reservable": "yes"}, [err("links[0].reservable", "must be true or false"),
                                     err("links[0].reserved",
                                         "only a reservable link can be reserved")]),
            ({"bandwidth_gbps": 0}, [err("links[0].bandwidth_gbps", "must be > 0")]),
            ({"bandwidth_gbps": None}, [err("links[0].bandwidth_gbps", "is required")]),
            ({"bandwidth_gbps": True},
             [err("links[0].bandwidth_gbps", "must be a number, not a boolean")]),
            ({"bandwidth_gbps": INF}, [err("links[0].bandwidth_gbps", "must be a finite number")]),
            ({"price_per_gb": None}, [err("links[0].price_per_gb", "is required")]),
            ({"price_per_gb": "0.1"}, [err("links[0].price_per_gb", "must be a number")]),
            ({"price_per_gb": NAN}, [err("links[0].price_per_gb", "must be a finite number")]),
            ({"rtt_ms": -1}, [err("links[0].rtt_ms", "must be ≥ 0")]),
            ({"rtt_ms": -INF}, [err("links[0].rtt_ms", "must be a finite number")]),
            ({"buffer": 1e13}, [err("links[0].buffer", "is unreasonably large (limit 1e12)")]),
            ({"buffer": False}, [err("links[0].buffer", "must be a number, not a boolean")]),
            ({"latency": 1}, [err("links[0].latency", "unknown field")]),
        ],
    )  # fmt: skip
    def test_what_is_not_plain_goes_to_the_reader(self, change, errors):
        record = {**FULL_LINK, **change}
        assert plain_link(record, 0, CODES, set()) is None
        assert _read_links([record])[1] == errors

    def test_a_repeated_link_goes_to_the_reader(self):
        seen: set[tuple[str, str]] = set()
        assert plain_link(FULL_LINK, 0, CODES, seen) is not None
        assert plain_link(FULL_LINK, 1, CODES, seen) is None
        # The opposite direction is another link.
        assert plain_link({**FULL_LINK, "from": "b", "to": "a"}, 2, CODES, seen) is not None
        assert _read_links([FULL_LINK, FULL_LINK])[1] == [err("links[1]", "duplicate link a → b")]

    def test_valid_values_that_are_not_plain_give_the_plain_link(self):
        record = {**FULL_LINK, "from": Name("a"), "to": Name("b"), "bandwidth_gbps": Count(10)}
        assert plain_link(record, 0, CODES, set()) is None
        links, errors = _read_links([record])
        assert errors == []
        assert typed(links[0]) == typed(plain_link(FULL_LINK, 0, CODES, set()))


# ---------------------------------------------------------------------------------------------
# Offers

SITE_CODES = {"home", "far"}
FULL_OFFER = {
    "id": "o1", "name": "Big", "provider": "acme", "kind": "distributed", "site": "far",
    "gpu_model": "H100", "gpu_mem_gb": 80, "gpus_per_machine": 8, "max_machines": 4,
    "billing_basis": "contract", "price": 2.5, "contract_hours": 1000,
    "expected_utilization": 0.75, "scheduling_fee_pct": 5, "parallelism": ["tensor", "data"],
    "relative_speed": 1.5, "machines": 2, "boot_hours": 0.5, "migration_effort_hours": 3,
}  # fmt: skip
MIN_OFFER = {"id": "o2", "kind": "compute", "site": "home", "gpu_mem_gb": 24.0,
             "gpus_per_machine": 1, "billing_basis": "gpu_hour", "price": 0}  # fmt: skip


def _read_offers(items: list[Any]) -> tuple[tuple[Offer, ...], list[dict[str, str]]]:
    r = Reader()
    return parse_offers(r, items, SITE_CODES, None), r.errors


class TestPlainOffer:
    @pytest.mark.parametrize(
        ("record", "expected"),
        [
            (FULL_OFFER, Offer(
                "o1", "distributed", "far", 80.0, 8, "contract", 2.5, 4, 1000.0, 0.75, 5.0,
                ("data", "tensor"), 1.5, 2, "Big", "acme", 0.5, 3.0, None, "H100", False, 0.0, 6,
            )),
            (MIN_OFFER, Offer("o2", "compute", "home", 24.0, 1, "gpu_hour", 0.0, index=6)),
            ({**MIN_OFFER, "billing_basis": "machine_hour", "kind": "managed",
              "contract_hours": 0.5, "expected_utilization": 1, "parallelism": [],
              "relative_speed": None, "machines": None, "max_machines": None, "name": None},
             Offer("o2", "managed", "home", 24.0, 1, "machine_hour", 0.0, None, 0.5, 1.0,
                   index=6)),
            ({**MIN_OFFER, "max_machines": 1, "machines": 1, "gpus_per_machine": 10**12,
              "expected_utilization": 0.5, "contract_hours": None},
             Offer("o2", "compute", "home", 24.0, 10**12, "gpu_hour", 0.0, 1, None, 0.5,
                   machines=1, index=6)),
        ],
    )  # fmt: skip
    def test_a_plain_offer_is_built_at_once_as_the_reader_builds_it(self, record, expected):
        ids: set[str] = {"other"}
        assert typed(plain_offer(record, 6, SITE_CODES, ids)) == typed(expected)
        assert ids == {"other", record["id"]}
        offers, errors = _read_offers([Rec(record)])
        assert errors == []
        assert typed(offers[0]) == typed(plain_offer(record, 0, SITE_CODES, set()))

    @pytest.mark.parametrize(
        ("change", "errors"),
        [
            ({"contract_hours": None}, [err("offers[0].contract_hours", "is required")]),
            ({"expected_utilization": None},
             [err("offers[0].expected_utilization", "is required")]),
            ({"expected_utilization": 1.5}, [err("offers[0].expected_utilization", "must be ≤ 1")]),
            ({"expected_utilization": 0}, [err("offers[0].expected_utilization", "must be > 0")]),
            ({"contract_hours": 0}, [err("offers[0].contract_hours", "must be > 0")]),
            ({"gpus_per_machine": 0}, [err("offers[0].gpus_per_machine", "must be ≥ 1")]),
            ({"gpus_per_machine": 8.5}, [err("offers[0].gpus_per_machine", "must be an integer")]),
            ({"gpus_per_machine": None}, [err("offers[0].gpus_per_machine", "is required")]),
            ({"max_machines": True},
             [err("offers[0].max_machines", "must be an integer, not a boolean")]),
            ({"machines": 0}, [err("offers[0].machines", "must be ≥ 1")]),
            ({"gpu_mem_gb": 0}, [err("offers[0].gpu_mem_gb", "must be > 0")]),
            ({"gpu_mem_gb": None}, [err("offers[0].gpu_mem_gb", "is required")]),
            ({"price": None}, [err("offers[0].price", "is required")]),
            ({"price": NAN}, [err("offers[0].price", "must be a finite number")]),
            ({"price": -0.5}, [err("offers[0].price", "must be ≥ 0")]),
            ({"scheduling_fee_pct": "5"}, [err("offers[0].scheduling_fee_pct", "must be a number")]),
            # SPEC 7.8: a speed lies in [0.01, 100]
            ({"relative_speed": 0}, [err("offers[0].relative_speed", "must be ≥ 0.01")]),
            ({"boot_hours": INF}, [err("offers[0].boot_hours", "must be a finite number")]),
            ({"migration_effort_hours": -1},
             [err("offers[0].migration_effort_hours", "must be ≥ 0")]),
            ({"parallelism": ["data", "ring"]},
             [err("offers[0].parallelism[1]", "must be one of data, tensor, pipeline, sharded")]),
            ({"parallelism": [["data"]]},
             [err("offers[0].parallelism[0]", "must be one of data, tensor, pipeline, sharded")]),
            ({"parallelism": "data"},
             [err("offers[0].parallelism", "must be a list of data, tensor, pipeline, sharded")]),
            ({"id": " "}, [err("offers[0].id", "must be a non-blank string or an integer")]),
            ({"id": ""}, [err("offers[0].id", "must be a non-blank string or an integer")]),
            ({"id": None}, [err("offers[0].id", "is required")]),
            ({"site": "moon"}, [err("offers[0].site", "unknown site 'moon'")]),
            ({"site": ""}, [err("offers[0].site", "must not be blank")]),
            ({"kind": "rental"},
             [err("offers[0].kind", "must be one of compute, distributed, managed")]),
            ({"kind": None}, [err("offers[0].kind", "is required")]),
            ({"billing_basis": 1},
             [err("offers[0].billing_basis", "must be one of gpu_hour, machine_hour, contract")]),
            ({"name": 5}, [err("offers[0].name", "must be a string")]),
            ({"provider": True}, [err("offers[0].provider", "must be a string")]),
            ({"gpu_model": 100}, [err("offers[0].gpu_model", "must be a string")]),
            ({"preemptions_per_day": 2},
             [err("offers[0].preemptions_per_day",
                  "only a preemptible offer has preemptions (set preemptible: true)")]),
            ({"currency": "cny"}, [err("offers[0].currency", "must be an ISO 4217 code like CNY")]),
            ({"colour": "red"}, [err("offers[0].colour", "unknown field")]),
        ],
    )  # fmt: skip
    def test_what_is_not_plain_goes_to_the_reader(self, change, errors):
        record = {**FULL_OFFER, **change}
        ids: set[str] = set()
        assert plain_offer(record, 0, SITE_CODES, ids) is None
        assert ids == set()
        assert _read_offers([record])[1] == errors

    def test_a_repeated_id_goes_to_the_reader(self):
        assert plain_offer(FULL_OFFER, 1, SITE_CODES, {"o1"}) is None
        assert _read_offers([FULL_OFFER, FULL_OFFER])[1] == [
            err("offers[1].id", "duplicate offer id 'o1'")
        ]

    @pytest.mark.parametrize(
        "change",
        [
            {"id": Name("o1")},
            {"site": Name("far")},
            {"kind": Name("distributed")},
            {"billing_basis": Name("contract")},
            {"gpus_per_machine": 8.0},
            {"max_machines": Count(4)},
            {"gpu_mem_gb": Amount(80.0)},
            {"name": Name("Big")},
            {"preemptible": False},  # a preemption field of its own: read field by field
            {"preemptible": None, "preemptions_per_day": None},
        ],
    )
    def test_valid_values_that_are_not_plain_give_the_plain_offer(self, change):
        record = {**FULL_OFFER, **change}
        assert plain_offer(record, 0, SITE_CODES, set()) is None
        offers, errors = _read_offers([record])
        assert errors == []
        assert typed(offers[0]) == typed(plain_offer(FULL_OFFER, 0, SITE_CODES, set()))

    def test_a_str_subclass_strategy_is_taken_as_its_plain_constant(self):
        # Equal and of equal hash, so the set lookup answers the canonical plain tuple.
        record = {**FULL_OFFER, "parallelism": ["tensor", Name("data")]}
        taken = plain_offer(record, 0, SITE_CODES, set())
        assert typed(taken) == typed(plain_offer(FULL_OFFER, 0, SITE_CODES, set()))
        assert typed(taken) == typed(_read_offers([Rec(record)])[0][0])

    def test_an_offer_with_its_own_currency_is_read_by_the_reader(self):
        record = {**MIN_OFFER, "currency": "EUR"}
        assert plain_offer(record, 0, SITE_CODES, set()) is None
        offers, errors = _read_offers([record])
        assert errors == []
        assert offers[0].currency == "EUR"

    def test_an_integer_id_is_read_by_the_reader_as_its_digits(self):
        assert plain_offer({**MIN_OFFER, "id": 7}, 0, SITE_CODES, set()) is None
        offers, errors = _read_offers([{**MIN_OFFER, "id": 7}])
        assert (offers[0].id, errors) == ("7", [])


# ---------------------------------------------------------------------------------------------
# Benchmark records

OFFER_IDS = {"o1", "o2"}
FULL_BENCHMARK = {
    "id": "b1", "kind": "multi", "offer": "o1", "nodes": 2, "gpus_per_node": 4, "e2e_hours": 10,
    "compute_hours": 8, "comm_hours": 1.5, "peak_gpu_mem_gb": 70, "failure_reruns": 1,
    "hours_lost_per_rerun": 2, "migration_effort_hours": 5, "cost": 100, "tier": "same_city",
    "succeeded": True,
}  # fmt: skip


def _read_benchmarks(items: list[Any]) -> tuple[tuple[Benchmark, ...], list[dict[str, str]]]:
    r = Reader()
    return parse_benchmarks(r, items, OFFER_IDS), r.errors


class TestPlainBenchmark:
    @pytest.mark.parametrize(
        ("record", "expected"),
        [
            (FULL_BENCHMARK, Benchmark(5, "multi", "o1", 2, 4, 10.0, 8.0, 1.5, 70.0, 1, 2.0, 5.0,
                                       100.0, "same_city", True, "b1")),
            ({"kind": "single", "offer": "o2", "e2e_hours": 3, "compute_hours": 3.0},
             Benchmark(5, "single", "o2", 1, 1, 3.0, 3.0)),
            ({"kind": "single", "offer": "o2", "e2e_hours": 3, "compute_hours": 0,
              "comm_hours": 3, "nodes": None, "failure_reruns": 0, "id": 7},
             Benchmark(5, "single", "o2", 1, 1, 3.0, 0.0, 3.0, id="7")),
            ({"kind": "multi", "offer": "o1", "e2e_hours": 0, "compute_hours": 0,
              "nodes": 1, "gpus_per_node": 1, "failure_reruns": 0},
             Benchmark(5, "multi", "o1", 1, 1, 0.0, 0.0)),
            ({"kind": "network_probe", "tier": "cross_hub", "succeeded": False, "id": True},
             Benchmark(5, "network_probe", None, tier="cross_hub", succeeded=False)),
            ({"kind": "network_probe", "offer": None, "tier": None, "succeeded": None},
             Benchmark(5, "network_probe")),
            ({"kind": "pilot_migration", "offer": "o1", "migration_effort_hours": 4,
              "e2e_hours": 6},
             Benchmark(5, "pilot_migration", "o1", e2e_hours=6.0, migration_effort_hours=4.0)),
        ],
    )  # fmt: skip
    def test_a_plain_record_is_built_at_once_as_the_reader_builds_it(self, record, expected):
        assert typed(plain_benchmark(record, 5, OFFER_IDS)) == typed(expected)
        records, errors = _read_benchmarks([Rec(record)])
        assert errors == []
        assert typed(records[0]) == typed(plain_benchmark(record, 0, OFFER_IDS))

    @pytest.mark.parametrize(
        ("change", "errors"),
        [
            ({"e2e_hours": None}, [err("benchmarks[0].e2e_hours", "is required")]),
            ({"compute_hours": None}, [err("benchmarks[0].compute_hours", "is required")]),
            ({"kind": "single", "offer": None}, [err("benchmarks[0].offer", "is required")]),
            ({"offer": "o9"}, [err("benchmarks[0].offer", "unknown offer 'o9'")]),
            ({"offer": " "},
             [err("benchmarks[0].offer", "must be a non-blank string or an integer")]),
            ({"kind": "pilot_migration", "offer": "o9"},
             [err("benchmarks[0].offer", "unknown offer 'o9'")]),
            ({"kind": "network_probe", "offer": 3}, [err("benchmarks[0].offer", "unknown offer '3'")]),
            ({"kind": "triple"}, [err("benchmarks[0].kind",
                                      "must be one of single, multi, network_probe, pilot_migration")]),
            ({"kind": None}, [err("benchmarks[0].kind", "is required")]),
            ({"kind": Name("x")}, [err("benchmarks[0].kind",
                                       "must be one of single, multi, network_probe, pilot_migration")]),
            ({"tier": "moon"}, [err("benchmarks[0].tier",
                                    "must be one of same_site, same_datacenter, same_city, cross_hub")]),
            ({"tier": 1}, [err("benchmarks[0].tier",
                               "must be one of same_site, same_datacenter, same_city, cross_hub")]),
            ({"succeeded": 1}, [err("benchmarks[0].succeeded", "must be true or false")]),
            ({"succeeded": "yes"}, [err("benchmarks[0].succeeded", "must be true or false")]),
            ({"compute_hours": 10.5}, [err("benchmarks[0].compute_hours", "must be ≤ e2e_hours")]),
            ({"comm_hours": 11}, [err("benchmarks[0].comm_hours", "must be ≤ e2e_hours")]),
            ({"comm_hours": -1}, [err("benchmarks[0].comm_hours", "must be ≥ 0")]),
            ({"nodes": 0}, [err("benchmarks[0].nodes", "must be ≥ 1")]),
            ({"gpus_per_node": 1.5}, [err("benchmarks[0].gpus_per_node", "must be an integer")]),
            ({"failure_reruns": -1}, [err("benchmarks[0].failure_reruns", "must be ≥ 0")]),
            ({"hours_lost_per_rerun": True},
             [err("benchmarks[0].hours_lost_per_rerun", "must be a number, not a boolean")]),
            ({"peak_gpu_mem_gb": NAN}, [err("benchmarks[0].peak_gpu_mem_gb", "must be a finite number")]),
            ({"cost": INF}, [err("benchmarks[0].cost", "must be a finite number")]),
            ({"migration_effort_hours": "5"},
             [err("benchmarks[0].migration_effort_hours", "must be a number")]),
            ({"e2e_hours": 1e13, "compute_hours": 1},
             [err("benchmarks[0].e2e_hours", "is unreasonably large (limit 1e12)")]),
            ({"speed": 1}, [err("benchmarks[0].speed", "unknown field")]),
        ],
    )  # fmt: skip
    def test_what_is_not_plain_goes_to_the_reader(self, change, errors):
        record = {**FULL_BENCHMARK, **change}
        assert plain_benchmark(record, 0, OFFER_IDS) is None
        assert _read_benchmarks([record])[1] == errors

    def test_a_blank_offer_goes_to_the_reader_even_when_every_id_is_taken_as_known(self):
        # When the offers list is refused whole, every offer reference is taken as known
        # (validation._Anything): a blank one is still refused, by the Reader.
        class Anything(set):
            def __contains__(self, item: object) -> bool:
                return True

        for blank in ("", " "):
            record = {"kind": "single", "offer": blank, "e2e_hours": 1, "compute_hours": 1}
            assert plain_benchmark(record, 0, Anything()) is None
            r = Reader()
            parse_benchmarks(r, [record], Anything())
            assert r.errors == [
                err("benchmarks[0].offer", "must be a non-blank string or an integer")
            ]

    def test_a_multi_or_single_run_needs_its_hours_others_default_them(self):
        # SPEC 6.2: single and multi runs are timed; a probe or pilot takes 0 hours when absent.
        for kind in ("single", "multi"):
            record = {"kind": kind, "offer": "o1", "compute_hours": 1}
            assert plain_benchmark(record, 0, OFFER_IDS) is None
            assert _read_benchmarks([record])[1] == [err("benchmarks[0].e2e_hours", "is required")]
        for kind in ("network_probe", "pilot_migration"):
            taken = plain_benchmark({"kind": kind, "e2e_hours": 2}, 0, OFFER_IDS)
            assert typed(taken) == typed(Benchmark(0, kind, e2e_hours=2.0))

    @pytest.mark.parametrize(
        "change",
        [
            {"kind": Name("multi")},
            {"offer": Name("o1")},
            {"tier": Name("same_city")},
            {"nodes": 2.0},
            {"failure_reruns": Count(1)},
            {"cost": Amount(100.0)},
        ],
    )
    def test_valid_values_that_are_not_plain_give_the_plain_record(self, change):
        record = {**FULL_BENCHMARK, **change}
        assert plain_benchmark(record, 0, OFFER_IDS) is None
        records, errors = _read_benchmarks([record])
        assert errors == []
        assert typed(records[0]) == typed(plain_benchmark(FULL_BENCHMARK, 0, OFFER_IDS))

    def test_an_integer_offer_reference_is_read_by_the_reader_as_its_digits(self):
        record = {"kind": "single", "offer": 12, "e2e_hours": 1, "compute_hours": 1}
        assert plain_benchmark(record, 0, {"12"}) is None
        r = Reader()
        assert parse_benchmarks(r, [record], {"12"})[0].offer == "12"
        assert r.errors == []


# ---------------------------------------------------------------------------------------------
# The whole output


def test_evaluate_gives_the_same_output_read_at_once_or_field_by_field():
    # The placement scenario of test_engine_rules_placement.py with benchmark records: read at
    # once (every object plain), then with every object a dict subclass (all read by the Reader).
    data = three_way_input(gpus=8, compute_hours=12, team={"has_machines": True})
    data["benchmarks"] = [
        single(12, "L", succeeded=True, id=1),
        multi(5, "M", nodes=2, gpn=8, comm_hours=1, tier="same_city"),
        {"kind": "network_probe", "tier": "cross_hub", "succeeded": False},
    ]
    field_by_field = {
        **data,
        "task": Rec(data["task"]),
        **{
            key: [Rec(item) for item in data[key]]
            for key in ("sites", "links", "offers", "benchmarks")
        },
    }
    at_once = evaluate(data)
    assert at_once["options"] and at_once["benchmark"]  # a full output, not an error
    assert json.dumps(at_once, sort_keys=True) == json.dumps(
        evaluate(field_by_field), sort_keys=True
    )
