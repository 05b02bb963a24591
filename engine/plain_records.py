"""Plain records read at once: a site, link, offer or benchmark record whose every field is a
plain value in range (what almost every input sends) is built without the field-by-field Reader.

Each function answers None whenever anything about the record is other than plain: a field of
another type (a str or int subclass, a bool for a number, a float for an integer), out of range,
missing where required, a duplicate or unknown reference, an unknown field. The caller then reads
that record field by field (world.py), which names every problem and converts what it may, so
the outputs and errors are the same either way; only the time differs (a quarter to two fifths
less for offers and benchmark records). Engine speed, issue 13.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from .field import F
from .fields import BENCHMARK_FIELDS, LINK_FIELDS, OBJECTS, OFFER_FIELDS, SITE_FIELDS
from .plain_values import (
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
    _within,
)
from .reader import MAX_MAGNITUDE, MIN_POSITIVE, MISSING
from .schema import (
    BENCHMARK_KINDS,
    BILLING_BASES,
    OFFER_KINDS,
    TIERS,
    Benchmark,
    Link,
    Offer,
    Site,
)
from .table_read import CONTEXT, SIMPLE, default_of


def _plain_step(row: F, name: str, default: Any) -> tuple[str, Any, tuple[Any, ...]]:
    if row.kind not in SIMPLE or default is CONTEXT:
        raise ValueError(
            f"{name}: a {row.kind} field with a default of its context is read by hand"
        )
    kind = row.kind
    if kind == "number":
        if row.above is not None:
            if row.above != 0.0:
                raise ValueError(f"{name}: only 0 as an exclusive bound")
            return name, _above_zero, (default, row.maximum or MAX_MAGNITUDE)
        if row.maximum is not None or row.minimum != 0.0:
            return name, _within, (default, row.minimum, row.maximum or MAX_MAGNITUDE)
        return name, _amount, (default,)
    if kind == "integer":
        if row.maximum is not None or row.above is not None:
            raise ValueError(f"{name}: an integer is bounded below only")
        return name, _count, (default, row.minimum)
    if kind == "boolean":
        if default is not False:
            raise ValueError(f"{name}: the fast path reads flags that default to false")
        return name, _flag, ()
    if kind == "string":
        if default is MISSING:
            raise ValueError(f"{name}: a required string is read by hand")
        return name, _text, ()
    if kind == "choice":
        return name, _choice, (row.choices, default)
    return name, _choices, (_subsets(row.choices), default)


def plain_plan(
    obj: str,
    cls: type,
    hand: frozenset[str] = frozenset(),
    defaults: dict[str, Any] | None = None,
    absent: frozenset[str] = frozenset(),
) -> tuple[Any, ...]:
    """The fast path's steps for `obj`, one per field of the dataclass `cls` in its order (so the
    values build it positionally): a field in `hand` is a step with no converter (its value is
    given by the caller); a field in `absent` (the caller takes only records without it) a
    constant, the dataclass's default; any other is its row's, with its row's default unless
    `defaults` gives the one its context sets (a contract's hours are required)."""
    rows = {name: row for row in OBJECTS[obj] for name in row.names}
    steps: list[tuple[str, Any, tuple[Any, ...]]] = []
    for f in dataclass_fields(cls):
        if f.name in hand:
            steps.append((f.name, None, ()))
            continue
        if f.name in absent:
            steps.append((f.name, _constant, (f.default,)))
            continue
        row = rows[f.name]
        default = default_of(row)
        if default is MISSING and row.nullable:
            default = None  # a required key that may be null (task.gpus): its presence is checked
        steps.append(_plain_step(row, f.name, (defaults or {}).get(f.name, default)))
    return tuple(steps)


def _constant(value: Any, constant: Any) -> Any:
    """The step of a field the caller knows absent: its default (plain_builder writes it in)."""
    return constant


def plain_values(get: Any, plan: tuple[Any, ...], hand: dict[str, Any]) -> list[Any]:
    """The values of `plan`'s fields (raises NotPlain, KeyError or TypeError when one is not
    plain): a converted field from `get`, a hand one from `hand`. What plain_builder's function
    computes, step by step."""
    return [
        hand[name] if convert is None else convert(get(name), *args) for name, convert, args in plan
    ]


# The value each converter hands back unchanged, as a test of `_v` ({0}, {1}, … its arguments):
# plain_builder takes such a value without calling the converter (what almost every present
# field is; a test checks the written-out function against the converters, field by field).
_AS_IS: dict[Any, str] = {
    _amount: "type(_v) is float and 0.0 <= _v <= _MAX",
    _above_zero: "type(_v) is float and _MIN <= _v <= {1}",
    _within: "type(_v) is float and {1} <= _v <= {2}",
    _count: "type(_v) is int and {1} <= _v <= _MAX",
    _text: "type(_v) is str",
    _flag: "type(_v) is bool",
    _choice: "type(_v) is str and _v in {0}",
}
# The int a number converter turns into a float (as float(_v)), tested the same way.
_AS_FLOAT: dict[Any, str] = {
    _amount: "type(_v) is int and 0 <= _v <= _MAX",
    _above_zero: "type(_v) is int and _MIN <= _v <= {1}",
    _within: "type(_v) is int and {1} <= _v <= {2}",
}


def plain_builder(cls: type, plan: tuple[Any, ...]) -> Any:
    """`plan` (plain_plan) as one function build(get, <hand fields>) -> cls: the same calls as
    plain_values, written out once when the engine is imported (one call per field, no loop over
    the steps each time: the typical input's parse runs half as fast through plain_values), and
    none for a field that is absent or null (its converter's answer to null is written in) or
    whose value the converter would give back unchanged (_AS_IS) or as float(value) (_AS_FLOAT)."""
    scope: dict[str, Any] = {"_cls": cls, "_MAX": MAX_MAGNITUDE, "_MIN": MIN_POSITIVE}
    hand: list[str] = []
    values: list[str] = []
    for i, (name, convert, args) in enumerate(plan):
        if convert is None:
            hand.append(name)
            values.append(name)
            continue
        if convert is _constant:
            scope[f"_k{i}"] = args[0]
            values.append(f"_k{i}")
            continue
        scope[f"_c{i}"] = convert
        names = [f"_a{i}_{j}" for j in range(len(args))]
        scope.update({f"_a{i}_{j}": arg for j, arg in enumerate(args)})  # the names above
        plain = f"_c{i}(_v{''.join(', ' + n for n in names)})"  # the converter's own answer
        call = plain
        if convert in _AS_FLOAT:
            call = f"float(_v) if {_AS_FLOAT[convert].format(*names)} else {call}"
        if convert in _AS_IS:
            call = f"_v if {_AS_IS[convert].format(*names)} else {call}"
        try:
            # What the converter gives for null (absent): its default, written in, so that an
            # absent field (most optional ones, in most records) costs no call.
            scope[f"_d{i}"] = convert(None, *args)
            null = f"_d{i}"
        except NotPlain:  # required: null is not plain, and the converter says so
            null = plain
        values.append(f"({null} if (_v := get({name!r})) is None else {call})")
    # The hand fields are taken in the dataclass's order, positionally (a third cheaper than by
    # keyword, paid per record).
    params = "".join(f", {name}" for name in hand)
    source = f"def build(get{params}):\n    return _cls({', '.join(values)})\n"
    exec(compile(source, f"<plain {cls.__name__}>", "exec"), scope)  # noqa: S102 - our own text
    return scope["build"]


_BENCHMARK_HAND = frozenset(
    {"index", "kind", "offer", "e2e_hours", "compute_hours", "tier", "succeeded", "id"}
)
_OFFER_HAND = frozenset({"id", "kind", "site", "billing_basis", "index"})
# plain_offer takes only offers without a currency or preemption field of their own, and
# without contract_paid (SPEC 7.6: read by hand, it is refused off a contract).
_OFFER_ABSENT = frozenset({"currency", "preemptible", "preemptions_per_day", "contract_paid"})
_PLAIN_OFFER_FIELDS = OFFER_FIELDS - _OFFER_ABSENT


def builders() -> dict[str, Any]:
    """SPEC 7.9: each record kind's built function, from the field table; the fields read by
    hand are named. Built once when the engine is imported (tests build them again to check
    what the table makes of each field)."""
    return {
        "_SITE": plain_builder(Site, plain_plan("sites[]", Site, frozenset({"code", "index"}))),
        "_LINK": plain_builder(
            Link, plain_plan("links[]", Link, frozenset({"from_site", "to_site", "index"}))
        ),
        "_BENCHMARK": plain_builder(
            Benchmark, plain_plan("benchmarks[]", Benchmark, _BENCHMARK_HAND)
        ),
        "_OFFER": plain_builder(
            Offer, plain_plan("offers[]", Offer, _OFFER_HAND, absent=_OFFER_ABSENT)
        ),
        # SPEC P: contract prices need the package hours and the expected utilisation.
        "_CONTRACT_OFFER": plain_builder(
            Offer,
            plain_plan(
                "offers[]",
                Offer,
                _OFFER_HAND,
                defaults={"contract_hours": MISSING, "expected_utilization": MISSING},
                absent=_OFFER_ABSENT,
            ),
        ),
    }


_BUILT = builders()
_SITE = _BUILT["_SITE"]
_LINK = _BUILT["_LINK"]
_BENCHMARK = _BUILT["_BENCHMARK"]
_OFFER = _BUILT["_OFFER"]
_CONTRACT_OFFER = _BUILT["_CONTRACT_OFFER"]


def plain_site(d: Any, i: int, sites: dict[str, Site]) -> Site | None:
    """parse_sites' site at index i, when plain and of a new code; else None."""
    if type(d) is not dict or not SITE_FIELDS.issuperset(d):
        return None
    code = d.get("code")
    if type(code) is not str or not code.strip() or code in sites:
        return None
    try:
        return _SITE(d.get, code, i)
    except NotPlain:
        return None


def plain_link(d: Any, i: int, site_codes: set[str], seen: set[tuple[str, str]]) -> Link | None:
    """parse_links' link at index i, when plain, joining two known sites, reserved only when
    reservable, not repeating an earlier link; else None. Its ends are added to `seen`."""
    if type(d) is not dict or not LINK_FIELDS.issuperset(d):
        return None
    get = d.get
    try:
        ends = _code(get("from"), site_codes), _code(get("to"), site_codes)
        link = _LINK(get, ends[0], ends[1], i)
    except NotPlain:
        return None
    if ends[0] == ends[1] or ends in seen or (link.reserved and not link.reservable):
        return None
    seen.add(ends)
    return link


def plain_benchmark(d: Any, i: int, offer_ids: set[str]) -> Benchmark | None:
    """parse_benchmarks' record at index i, when plain; else None."""
    if type(d) is not dict or not BENCHMARK_FIELDS.issuperset(d):
        return None
    get = d.get
    kind = get("kind")
    if type(kind) is not str or kind not in BENCHMARK_KINDS:
        return None
    timed = kind == "single" or kind == "multi"
    offer = get("offer")
    tier = get("tier")
    succeeded = get("succeeded")
    if (
        ((timed or offer is not None) and (type(offer) is not str or offer not in offer_ids))
        or (tier is not None and (type(tier) is not str or tier not in TIERS))
        or (succeeded is not None and type(succeeded) is not bool)
    ):
        return None
    if offer is not None and (not offer or offer.isspace()):
        return None  # blank
    hours_default = MISSING if timed else 0.0
    raw_id = get("id")
    try:
        e2e = _amount(get("e2e_hours"), hours_default)
        compute = _amount(get("compute_hours"), hours_default)
        record = _BENCHMARK(  # the hand fields in Benchmark's order
            get,
            i,  # index
            kind,
            offer,
            e2e,  # e2e_hours
            compute,  # compute_hours
            tier,
            succeeded,
            None if raw_id is None or isinstance(raw_id, bool) else str(raw_id),  # id
        )
    except NotPlain:
        return None
    if compute > e2e or (record.comm_hours is not None and record.comm_hours > e2e):
        return None
    return record


def plain_offer(d: Any, i: int, site_codes: set[str], ids: set[str]) -> Offer | None:
    """parse_offers' offer at index i, when plain and without a currency or preemption field of
    its own; else None. Its id is added to `ids`."""
    if type(d) is not dict or not _PLAIN_OFFER_FIELDS.issuperset(d):
        return None
    get = d.get
    oid = get("id")
    basis = get("billing_basis")
    kind = get("kind")
    if (
        type(oid) is not str
        or not oid
        or oid.isspace()
        or oid in ids
        or type(basis) is not str
        or basis not in BILLING_BASES
        or type(kind) is not str
        or kind not in OFFER_KINDS
    ):
        return None
    try:
        build = _CONTRACT_OFFER if basis == "contract" else _OFFER
        # The hand fields in Offer's order: id, kind, site, billing_basis, index.
        offer = build(get, oid, kind, _code(get("site"), site_codes), basis, i)
    except (NotPlain, KeyError, TypeError):  # TypeError: an unhashable strategy
        return None
    ids.add(oid)
    return offer
