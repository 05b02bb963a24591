"""Plain records read at once: an offer or benchmark record whose every field is a plain value
in range (what almost every input sends) is built without the field-by-field Reader.

Each function answers None whenever anything about the record is other than plain: a field of
another type (a str or int subclass, a bool for a number, a float for an integer), out of range,
missing where required, a duplicate or unknown reference, an unknown field. The caller then reads
that record field by field (world.py), which names every problem and converts what it may, so
the outputs and errors are the same either way; only the time differs (a third of it here).
"""

from __future__ import annotations

from typing import Any

from .reader import MAX_MAGNITUDE, MISSING
from .schema import (
    BENCHMARK_FIELDS,
    BENCHMARK_KINDS,
    BILLING_BASES,
    LINK_FIELDS,
    OFFER_FIELDS,
    OFFER_KINDS,
    PARALLELISM,
    TIERS,
    Benchmark,
    Link,
    Offer,
)

# Not plain: the record is read field by field instead.
NOT_PLAIN: Any = object()


def _amount(value: Any, default: Any) -> Any:
    """As Reader.amount (a number ≥ 0; `default` when null, MISSING when required) or
    Reader.optional (default None)."""
    kind = type(value)
    if kind is float:
        return value if 0.0 <= value <= MAX_MAGNITUDE else NOT_PLAIN  # NaN and ±inf fail
    if kind is int:
        return float(value) if 0 <= value <= MAX_MAGNITUDE else NOT_PLAIN
    if value is None and default is not MISSING:
        return default
    return NOT_PLAIN


def _count(value: Any, default: Any, minimum: int) -> Any:
    """As Reader.count, or with default None as a nullable integer ≥ minimum."""
    if type(value) is int and minimum <= value <= MAX_MAGNITUDE:
        return value
    if value is None and default is not MISSING:
        return default
    return NOT_PLAIN


def _above_zero(value: Any, default: Any, maximum: float = MAX_MAGNITUDE) -> Any:
    """As Reader.number with above=0.0 (and a maximum): a float."""
    kind = type(value)
    if (kind is float or kind is int) and 0.0 < value <= maximum:
        return float(value)
    if value is None and default is not MISSING:
        return default
    return NOT_PLAIN


def _text(value: Any) -> Any:
    """As Reader.text (not required): a plain str or None."""
    return value if value is None or type(value) is str else NOT_PLAIN


def _flag(value: Any) -> Any:
    """As Reader.boolean (default False)."""
    if value is None:
        return False
    return value if type(value) is bool else NOT_PLAIN


def plain_link(d: Any, i: int, site_codes: set[str], seen: set[tuple[str, str]]) -> Link | None:
    """parse_links' link at index i, when plain, joining two known sites, reserved only when
    reservable, not repeating an earlier link; else None. Its ends are added to `seen`."""
    if type(d) is not dict or not LINK_FIELDS.issuperset(d):
        return None
    get = d.get
    a = get("from")
    b = get("to")
    if (
        type(a) is not str
        or type(b) is not str
        or a == b
        or a not in site_codes
        or b not in site_codes
        or not a.strip()
        or not b.strip()
        or (a, b) in seen
    ):
        return None
    fields = (
        _above_zero(get("bandwidth_gbps"), MISSING),
        _amount(get("price_per_gb"), MISSING),
        _amount(get("rtt_ms"), 0.0),
        _amount(get("buffer"), None),
        _flag(get("reserved")),
        _flag(get("reservable")),
    )
    if NOT_PLAIN in fields or (fields[4] and not fields[5]):
        return None
    seen.add((a, b))
    return Link(a, b, *fields, i)


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
    if (timed or offer is not None) and (
        type(offer) is not str or not offer or offer.isspace() or offer not in offer_ids
    ):
        return None
    hours_default = MISSING if timed else 0.0
    e2e = _amount(get("e2e_hours"), hours_default)
    compute = _amount(get("compute_hours"), hours_default)
    comm = _amount(get("comm_hours"), None)
    tier = get("tier")
    succeeded = get("succeeded")
    if (
        e2e is NOT_PLAIN
        or compute is NOT_PLAIN
        or comm is NOT_PLAIN
        or compute > e2e
        or (comm is not None and comm > e2e)
        or (tier is not None and (type(tier) is not str or tier not in TIERS))
        or (succeeded is not None and type(succeeded) is not bool)
    ):
        return None
    figures = (
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
    )
    if NOT_PLAIN in figures:
        return None
    raw_id = get("id")
    raw_id = None if raw_id is None or isinstance(raw_id, bool) else str(raw_id)
    return Benchmark(i, kind, offer, *figures, tier, succeeded, raw_id)


def plain_offer(d: Any, i: int, site_codes: set[str], ids: set[str]) -> Offer | None:
    """parse_offers' offer at index i, when plain and without a currency or preemption field of
    its own; else None. Its id is added to `ids`."""
    if (
        type(d) is not dict
        or not OFFER_FIELDS.issuperset(d)
        or "currency" in d
        or "preemptible" in d
        or "preemptions_per_day" in d
    ):
        return None
    get = d.get
    oid = get("id")
    site = get("site")
    basis = get("billing_basis")
    kind = get("kind")
    if (
        type(oid) is not str
        or not oid
        or oid.isspace()
        or oid in ids
        or type(site) is not str
        or site not in site_codes
        or not site.strip()
        or type(basis) is not str
        or basis not in BILLING_BASES
        or type(kind) is not str
        or kind not in OFFER_KINDS
    ):
        return None
    fields = _plain_offer_fields(get, basis == "contract")
    if fields is None:
        return None
    ids.add(oid)
    # In Offer's field order; no currency of its own, not preemptible.
    return Offer(oid, kind, site, fields[0], fields[1], basis, *fields[2:-1], None, fields[-1],
                 False, 0.0, i)  # fmt: skip


def _plain_offer_fields(get: Any, contract: bool) -> tuple[Any, ...] | None:
    """gpu_mem_gb, gpus_per_machine, then price … migration effort (Offer's field order), then
    the GPU model; None when any is not plain."""
    # SPEC P: contract prices need the package hours and the expected utilisation.
    required = MISSING if contract else None
    parallelism = get("parallelism")
    if parallelism is None:
        parallelism = ()
    elif (type(parallelism) is list or type(parallelism) is tuple) and all(
        type(item) is str and item in PARALLELISM for item in parallelism
    ):
        parallelism = tuple(a for a in PARALLELISM if a in parallelism)  # canonical order
    else:
        return None
    fields = (
        _above_zero(get("gpu_mem_gb"), MISSING),
        _count(get("gpus_per_machine"), MISSING, 1),
        _amount(get("price"), MISSING),
        _count(get("max_machines"), None, 1),
        _above_zero(get("contract_hours"), required),
        _above_zero(get("expected_utilization"), required, 1.0),
        _amount(get("scheduling_fee_pct"), 0.0),
        parallelism,
        _above_zero(get("relative_speed"), 1.0),
        _count(get("machines"), None, 1),
        _text(get("name")),
        _text(get("provider")),
        _amount(get("boot_hours"), 0.0),
        _amount(get("migration_effort_hours"), None),
        _text(get("gpu_model")),
    )
    return None if NOT_PLAIN in fields else fields
