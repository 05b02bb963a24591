"""Parsers of the world lists of the evaluate input (SPEC 4 and 6.2): sites, links, offers and
benchmark records, each object checked against the fields it may carry."""

from __future__ import annotations

from typing import Any

from .fields import BENCHMARK_FIELDS, LINK_FIELDS, OFFER_FIELDS, SITE_FIELDS, bounds
from .plain_records import plain_benchmark, plain_link, plain_offer, plain_site
from .reader import MAX_MAGNITUDE, MISSING, Reader, offer_id
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

SPEED = bounds("offers[]", "relative_speed")  # SPEC 7.8, from the field table


def read_currency(r: Reader, data: dict[str, Any], path: str) -> str | None:
    """SPEC 6.2: an ISO 4217 code (three capital letters), or absent."""
    code = data.get("currency")
    if code is None:
        return None
    if not (
        isinstance(code, str)
        and len(code) == 3
        and code.isascii()
        and code.isalpha()
        and code.isupper()
    ):
        r.error(f"{path}.currency" if path else "currency", "must be an ISO 4217 code like CNY")
        return None
    return str.__str__(code)


def parse_sites(r: Reader, items: list[Any]) -> dict[str, Site]:
    sites: dict[str, Site] = {}
    for i, raw in enumerate(items):
        plain = plain_site(raw, i, sites)
        if plain is not None:
            sites[plain.code] = plain  # every field plain and in range: read at once
            continue
        p = f"sites[{i}]"
        s = r.obj(raw, p, SITE_FIELDS)
        if s is None:
            continue
        code = r.text(s, "code", p, required=True)
        # Read in the order errors are reported; built positionally, in Site's field order.
        name = r.text(s, "name", p)
        storage_tb = r.optional(s, "storage_tb", p)
        datacenter = r.text(s, "datacenter", p)
        city = r.text(s, "city", p)
        hub = r.text(s, "hub", p)
        queue_hours = r.amount(s, "queue_hours", p, 0.0)
        site = Site(code or "", datacenter, city, hub, queue_hours, storage_tb, name, i)
        if code is None:
            continue
        if code in sites:
            r.error(f"{p}.code", f"duplicate site code '{code}'")
            continue
        sites[code] = site
    return sites


def parse_links(r: Reader, items: list[Any], site_codes: set[str]) -> tuple[Link, ...]:
    links: list[Link] = []
    seen: set[tuple[str, str]] = set()
    for i, raw in enumerate(items):
        plain = plain_link(raw, i, site_codes, seen)
        if plain is not None:
            links.append(plain)  # every field plain and in range: read at once
            continue
        p = f"links[{i}]"
        d = r.obj(raw, p, LINK_FIELDS)
        if d is None:
            continue
        ends = []
        for key in ("from", "to"):
            code = r.text(d, key, p, required=True)
            if code is not None and code not in site_codes:
                r.error(f"{p}.{key}", f"unknown site '{code}'")
            ends.append(code)
        # Read in the order errors are reported; built positionally, in Link's field order.
        bandwidth = r.number(d, "bandwidth_gbps", p, above=0.0)
        rtt_ms = r.amount(d, "rtt_ms", p, 0.0)
        price_per_gb = r.amount(d, "price_per_gb", p)
        buffer = r.optional(d, "buffer", p)
        reserved = r.boolean(d, "reserved", p)
        reservable = r.boolean(d, "reservable", p)
        link = Link(
            ends[0] or "",
            ends[1] or "",
            bandwidth,
            price_per_gb,
            rtt_ms,
            buffer,
            reserved,
            reservable,
            i,
        )
        if link.reserved and not link.reservable:
            r.error(f"{p}.reserved", "only a reservable link can be reserved")
        if ends[0] is not None and ends[0] == ends[1]:
            r.error(f"{p}.to", "a link joins two different sites")
        elif ends[0] is not None and ends[1] is not None:
            if (ends[0], ends[1]) in seen:
                r.error(p, f"duplicate link {ends[0]} → {ends[1]}")
            seen.add((ends[0], ends[1]))
        links.append(link)
    return tuple(links)


def parse_offers(
    r: Reader, items: list[Any], site_codes: set[str], currency: str | None
) -> tuple[Offer, ...]:
    offers: list[Offer] = []
    ids: set[str] = set()
    for i, raw in enumerate(items):
        plain = plain_offer(raw, i, site_codes, ids)
        if plain is not None:
            offers.append(plain)  # every field plain and in range: read at once
            continue
        p = f"offers[{i}]"
        d = r.obj(raw, p, OFFER_FIELDS)
        if d is None:
            continue
        own_currency = None
        if "currency" in d:
            own_currency, currency = _offer_currency(r, d, p, currency)
        oid = _unique_offer_id(r, d, p, ids)
        site = r.text(d, "site", p, required=True)
        if site is not None and site not in site_codes:
            r.error(f"{p}.site", f"unknown site '{site}'")
        offers.append(_offer(r, d, p, i, oid, site, own_currency))
    for offer in offers:
        _check_unit_price(r, offer)
    return tuple(offers)


def _check_unit_price(r: Reader, offer: Offer) -> None:
    """SPEC 7.8: a contract's GPU-hour price (price ÷ (contract_hours × gpus_per_machine ×
    expected_utilization)) within the limit of any figure, so that no cost is infinite."""
    if offer.billing_basis != "contract":
        return  # gpu_hour and machine_hour prices are at most the price itself
    hours, use, price = offer.contract_hours, offer.expected_utilization, offer.price
    if not hours or not use or price is None or not offer.gpus_per_machine:
        return  # refused field by field already
    package = hours * offer.gpus_per_machine * use  # may underflow to 0 for tiny factors
    if package == 0 or not price / package <= MAX_MAGNITUDE:
        r.error(
            f"offers[{offer.index}].price",
            "gives a GPU-hour price beyond 1e12 (price ÷ (contract_hours × gpus_per_machine × "
            "expected_utilization))",
        )


def _offer_currency(
    r: Reader, d: dict[str, Any], p: str, currency: str | None
) -> tuple[str | None, str | None]:
    """The offer's own currency (given), and the input's (the first offer's when the input has
    none)."""
    own_currency = read_currency(r, d, p)
    if own_currency is not None:
        if currency is None:
            currency = own_currency  # without a top-level currency the first offer sets it
        elif own_currency != currency:
            # SPEC 6.2: no conversion is guessed.
            r.error(
                f"{p}.currency",
                f"'{own_currency}' differs from the input's currency '{currency}' (no conversion)",
            )
    return own_currency, currency


def _unique_offer_id(r: Reader, d: dict[str, Any], p: str, ids: set[str]) -> str | None:
    raw_id = d.get("id", MISSING)
    # A plain non-blank string is the commonest id: taken at once (offer_id reads the rest).
    if type(raw_id) is str and raw_id and not raw_id.isspace():
        oid: str | None = raw_id
    else:
        oid = offer_id(raw_id, f"{p}.id", r)
    if oid is not None:
        if oid in ids:
            r.error(f"{p}.id", f"duplicate offer id '{oid}'")
        ids.add(oid)
    return oid


def _offer(
    r: Reader,
    d: dict[str, Any],
    p: str,
    i: int,
    oid: str | None,
    site: str | None,
    own_currency: str | None,
) -> Offer:
    basis = r.choice(d, "billing_basis", p, BILLING_BASES)
    contract = basis == "contract"
    preemptible, preemptions = _preemption(r, d, p)
    # Read in the order errors are reported; built positionally (in Offer's field order),
    # a third of the cost of two dozen keywords.
    kind = r.choice(d, "kind", p, OFFER_KINDS)
    gpu_mem_gb = r.number(d, "gpu_mem_gb", p, above=0.0)
    gpus_per_machine = r.count(d, "gpus_per_machine", p, MISSING, 1)
    max_machines = r.number(d, "max_machines", p, nullable=True, minimum=1, integer=True)
    price = r.amount(d, "price", p)
    # SPEC P: contract prices need the package hours and the expected utilisation.
    contract_hours = r.number(d, "contract_hours", p, nullable=not contract, above=0.0)
    utilization = r.number(
        d, "expected_utilization", p, nullable=not contract, above=0.0, maximum=1.0
    )
    fee_pct = r.amount(d, "scheduling_fee_pct", p, 0.0)
    parallelism = r.choices(d, "parallelism", p, PARALLELISM)
    # SPEC 7.8: a speed in [0.01, 100]; beyond it compute hours leave any sane range.
    relative_speed = r.number(d, "relative_speed", p, default=1.0, **SPEED)
    machines, name, provider, boot_hours, effort, gpu_model = _optional_offer_fields(r, d, p)
    return Offer(
        oid or "",
        kind,
        site or "",
        gpu_mem_gb,
        gpus_per_machine,
        basis,
        price,
        max_machines,
        contract_hours,
        utilization,
        fee_pct,
        parallelism,
        relative_speed,
        machines,
        name,
        provider,
        boot_hours,
        effort,
        own_currency,
        gpu_model,
        preemptible,
        preemptions,
        i,
        _contract_paid(r, d, p, contract),
    )


def _contract_paid(r: Reader, d: dict[str, Any], p: str, contract: bool) -> bool:
    """SPEC 7.6: only a contract package can be already paid (on any other basis the flag is a
    slip that would silently price the offer at nothing)."""
    paid = r.boolean(d, "contract_paid", p)
    if paid and not contract:
        r.error(
            f"{p}.contract_paid",
            "only a contract offer can be already paid (set billing_basis: contract)",
        )
        return False
    return paid


def _optional_offer_fields(
    r: Reader, d: dict[str, Any], p: str
) -> tuple[Any, str | None, str | None, Any, Any, str | None]:
    """machines, name, provider, boot_hours, migration effort and GPU model, in that order.
    Optional fields are read only when present."""
    machines = (
        r.number(d, "machines", p, nullable=True, minimum=1, integer=True)
        if "machines" in d
        else None
    )
    name = r.text(d, "name", p)
    provider = r.text(d, "provider", p)
    boot_hours = r.amount(d, "boot_hours", p, 0.0) if "boot_hours" in d else 0.0
    effort = r.optional(d, "migration_effort_hours", p) if "migration_effort_hours" in d else None
    gpu_model = r.text(d, "gpu_model", p) if "gpu_model" in d else None
    return machines, name, provider, boot_hours, effort, gpu_model


def _preemption(r: Reader, d: dict[str, Any], p: str) -> tuple[bool, float]:
    """SPEC 6.3: a preemptible offer states its expected preemptions per day; no other offer
    may state any (a rate on on-demand capacity is a slip that would silently cost nothing)."""
    if "preemptible" not in d and "preemptions_per_day" not in d:
        return False, 0.0
    preemptible = r.boolean(d, "preemptible", p)
    if d.get("preemptions_per_day") is None:
        if preemptible:
            r.error(
                f"{p}.preemptions_per_day",
                "is required for a preemptible offer (expected preemptions per day; 0 if none)",
            )
        return preemptible, 0.0
    if not preemptible:
        r.error(
            f"{p}.preemptions_per_day",
            "only a preemptible offer has preemptions (set preemptible: true)",
        )
        return False, 0.0
    rate = r.amount(d, "preemptions_per_day", p)
    return True, 0.0 if rate is None else rate


def parse_benchmarks(r: Reader, items: list[Any], offer_ids: set[str]) -> tuple[Benchmark, ...]:
    records: list[Benchmark] = []
    for i, raw in enumerate(items):
        plain = plain_benchmark(raw, i, offer_ids)
        if plain is not None:
            records.append(plain)  # every field plain and in range: read at once
            continue
        p = f"benchmarks[{i}]"
        d = r.obj(raw, p, BENCHMARK_FIELDS)
        if d is None:
            continue
        kind = r.choice(d, "kind", p, BENCHMARK_KINDS)
        timed = kind in ("single", "multi")  # a single/multi run needs its offer and its hours
        offer = _benchmark_offer(r, d, p, timed, offer_ids)
        hours_default = MISSING if timed else 0.0
        e2e = r.amount(d, "e2e_hours", p, hours_default)
        compute = r.amount(d, "compute_hours", p, hours_default)
        comm = r.optional(d, "comm_hours", p) if "comm_hours" in d else None
        if e2e is not None and compute is not None and compute > e2e:
            r.error(f"{p}.compute_hours", "must be ≤ e2e_hours")
        if e2e is not None and comm is not None and comm > e2e:
            r.error(f"{p}.comm_hours", "must be ≤ e2e_hours")
        raw_id = d.get("id")
        # Read in the order errors are reported; built positionally (in Benchmark's field
        # order), which is a third of the cost of sixteen keywords, paid per record.
        nodes = r.count(d, "nodes", p, 1, 1)
        gpus_per_node = r.count(d, "gpus_per_node", p, 1, 1)
        # Optional figures are read only when present: most records carry few of them.
        peak = r.optional(d, "peak_gpu_mem_gb", p) if "peak_gpu_mem_gb" in d else None
        failure_reruns = r.count(d, "failure_reruns", p, 0, 0)
        hours_lost = r.amount(d, "hours_lost_per_rerun", p, 0.0)
        effort = (
            r.optional(d, "migration_effort_hours", p) if "migration_effort_hours" in d else None
        )
        cost = r.optional(d, "cost", p) if "cost" in d else None
        tier = r.choice(d, "tier", p, TIERS, nullable=True) if "tier" in d else None
        succeeded = None if d.get("succeeded") is None else r.boolean(d, "succeeded", p)
        records.append(
            Benchmark(
                i,
                kind,
                offer,
                nodes,
                gpus_per_node,
                e2e if e2e is not None else 0.0,
                compute if compute is not None else 0.0,
                comm,
                peak,
                failure_reruns,
                hours_lost,
                effort,
                cost,
                tier,
                succeeded,
                None if raw_id is None or isinstance(raw_id, bool) else str(raw_id),
            )
        )
    return tuple(records)


def _benchmark_offer(
    r: Reader, d: dict[str, Any], p: str, timed: bool, offer_ids: set[str]
) -> str | None:
    """The record's offer: required for a single/multi run, else read only when given."""
    raw_offer = d.get("offer", MISSING)
    offer = None
    if timed or raw_offer not in (MISSING, None):
        if type(raw_offer) is str and raw_offer and not raw_offer.isspace():
            offer = raw_offer  # the commonest reference, taken at once
        else:
            offer = offer_id(raw_offer, f"{p}.offer", r)
        if offer is not None and offer not in offer_ids:
            r.error(f"{p}.offer", f"unknown offer '{offer}'")
    return offer
