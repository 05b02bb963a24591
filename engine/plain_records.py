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

from typing import Any

from .fields import BENCHMARK_FIELDS, LINK_FIELDS, OFFER_FIELDS, SITE_FIELDS, SPEED_RANGE
from .reader import MAX_MAGNITUDE, MIN_POSITIVE, MISSING
from .schema import (
    BENCHMARK_KINDS,
    BILLING_BASES,
    OFFER_KINDS,
    PARALLELISM,
    TIERS,
    Benchmark,
    Link,
    Offer,
    Site,
)


class NotPlain(Exception):
    """A field is not plain: the record is read field by field instead."""


def _subsets(allowed: tuple[str, ...]) -> dict[frozenset[str], tuple[str, ...]]:
    """Every set of choices, as Reader.choices gives it back (in canonical order)."""
    return {
        frozenset(combo): combo
        for combo in (
            tuple(a for bit, a in enumerate(allowed) if mask >> bit & 1)
            for mask in range(1 << len(allowed))
        )
    }


_STRATEGIES = _subsets(PARALLELISM)


def _amount(value: Any, default: Any) -> Any:
    """As Reader.amount (a number ≥ 0; `default` when null, MISSING when required) or
    Reader.optional (default None)."""
    kind = type(value)
    if kind is float:
        if 0.0 <= value <= MAX_MAGNITUDE:  # false for NaN and ±infinity
            return value
    elif kind is int:
        if 0 <= value <= MAX_MAGNITUDE:
            return float(value)
    elif value is None and default is not MISSING:
        return default
    raise NotPlain


def _count(value: Any, default: Any, minimum: int) -> Any:
    """As Reader.count, or with default None as a nullable integer ≥ minimum."""
    if type(value) is int and minimum <= value <= MAX_MAGNITUDE:
        return value
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _above_zero(value: Any, default: Any, maximum: float = MAX_MAGNITUDE) -> Any:
    """As Reader.number with above=0.0 (and a maximum): a float."""
    kind = type(value)
    if (kind is float or kind is int) and MIN_POSITIVE <= value <= maximum:
        return float(value)
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _within(value: Any, default: Any, low: float, high: float) -> Any:
    """As Reader.number with a minimum and a maximum: a float."""
    kind = type(value)
    if (kind is float or kind is int) and low <= value <= high:
        return float(value)
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _text(value: Any) -> Any:
    """As Reader.text (not required): a plain str or None."""
    if value is None or type(value) is str:
        return value
    raise NotPlain


def _flag(value: Any) -> bool:
    """As Reader.boolean (default False)."""
    if value is None:
        return False
    if type(value) is bool:
        return value
    raise NotPlain


def _choice(value: Any, allowed: tuple[str, ...], default: Any = MISSING) -> Any:
    """As Reader.choice: a plain str among `allowed`, or `default` when null."""
    if type(value) is str and value in allowed:
        return value
    if value is None and default is not MISSING:
        return default
    raise NotPlain


def _choices(value: Any, sets: dict[frozenset[str], tuple[str, ...]], default: Any) -> Any:
    """As Reader.choices: a list of choices in canonical order (KeyError or TypeError when an
    item is not one of them)."""
    if value is None:
        return default
    if type(value) is list or type(value) is tuple:
        return sets[frozenset(value)]
    raise NotPlain


def _code(value: Any, known: Any) -> str:
    """A required, non-blank str that is one of `known`."""
    if type(value) is str and value in known and value.strip():
        return value
    raise NotPlain


def plain_site(d: Any, i: int, sites: dict[str, Site]) -> Site | None:
    """parse_sites' site at index i, when plain and of a new code; else None."""
    if type(d) is not dict or not SITE_FIELDS.issuperset(d):
        return None
    get = d.get
    code = get("code")
    if type(code) is not str or not code.strip() or code in sites:
        return None
    try:
        return Site(
            code,
            _text(get("datacenter")),
            _text(get("city")),
            _text(get("hub")),
            _amount(get("queue_hours"), 0.0),
            _amount(get("storage_tb"), None),
            _text(get("name")),
            i,
        )
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
        bandwidth = _above_zero(get("bandwidth_gbps"), MISSING)
        price = _amount(get("price_per_gb"), MISSING)
        rtt = _amount(get("rtt_ms"), 0.0)
        buffer = _amount(get("buffer"), None)
        reserved, reservable = _flag(get("reserved")), _flag(get("reservable"))
    except NotPlain:
        return None
    if ends[0] == ends[1] or ends in seen or (reserved and not reservable):
        return None
    seen.add(ends)
    return Link(*ends, bandwidth, price, rtt, buffer, reserved, reservable, i)


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
    try:
        e2e = _amount(get("e2e_hours"), hours_default)
        compute = _amount(get("compute_hours"), hours_default)
        comm = _amount(get("comm_hours"), None)
        if compute > e2e or (comm is not None and comm > e2e):
            return None
        record = Benchmark(
            i,
            kind,
            offer,
            _count(get("nodes"), 1, 1),
            _count(get("gpus_per_node"), 1, 1),
            e2e,
            compute,
            comm,
            _amount(get("peak_gpu_mem_gb"), None),
            _count(get("failure_reruns"), 0, 0),
            _amount(get("hours_lost_per_rerun"), 0.0),
            _amount(get("migration_effort_hours"), None),
            _amount(get("cost"), None),
            tier,
            succeeded,
            None,
        )
    except NotPlain:
        return None
    raw_id = get("id")
    if raw_id is not None and not isinstance(raw_id, bool):
        record.id = str(raw_id)
    return record


def plain_offer(d: Any, i: int, site_codes: set[str], ids: set[str]) -> Offer | None:
    """parse_offers' offer at index i, when plain and without a currency or preemption field of
    its own; else None. Its id is added to `ids`."""
    if (
        type(d) is not dict
        or not OFFER_FIELDS.issuperset(d)
        or "currency" in d
        or "preemptible" in d
        or "preemptions_per_day" in d
        or "contract_paid" in d
    ):
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
        offer = _offer(get, i, oid, kind, basis, site_codes)
    except (NotPlain, KeyError, TypeError):  # TypeError: an unhashable strategy
        return None
    ids.add(oid)
    return offer


def _offer(get: Any, i: int, oid: str, kind: str, basis: str, site_codes: set[str]) -> Offer:
    """The offer in Offer's field order: no currency of its own, not preemptible."""
    # SPEC P: contract prices need the package hours and the expected utilisation.
    required = MISSING if basis == "contract" else None
    strategies = _choices(get("parallelism"), _STRATEGIES, ())
    return Offer(
        oid,
        kind,
        _code(get("site"), site_codes),
        _above_zero(get("gpu_mem_gb"), MISSING),
        _count(get("gpus_per_machine"), MISSING, 1),
        basis,
        _amount(get("price"), MISSING),
        _count(get("max_machines"), None, 1),
        _above_zero(get("contract_hours"), required),
        _above_zero(get("expected_utilization"), required, 1.0),
        _amount(get("scheduling_fee_pct"), 0.0),
        strategies,
        _within(get("relative_speed"), 1.0, *SPEED_RANGE),  # SPEC 7.8
        _count(get("machines"), None, 1),
        _text(get("name")),
        _text(get("provider")),
        _amount(get("boot_hours"), 0.0),
        _amount(get("migration_effort_hours"), None),
        None,
        _text(get("gpu_model")),
        False,
        0.0,
        i,
    )
