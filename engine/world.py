"""Parsers of the world lists of the evaluate input (SPEC 4 and 6.2): sites, links, offers and
benchmark records, each object checked against the fields it may carry."""

from __future__ import annotations

from typing import Any

from .fields import BENCHMARK_FIELDS, LINK_FIELDS, OFFER_FIELDS, SITE_FIELDS
from .plain_records import plain_benchmark, plain_link, plain_offer, plain_site
from .reader import MAX_MAGNITUDE, MISSING, Reader, offer_id
from .schema import Benchmark, Link, Offer, Site
from .table_read import read_field, read_fields, reader_plan

# SPEC 7.9: what the field table reads; by hand only what needs another field (site codes, offer
# ids, a contract's hours, preemption, a record's hours) and the currency (its own form).
_SITE = reader_plan("sites[]", skip=frozenset({"code"}))
_LINK = reader_plan("links[]", skip=frozenset({"from", "to"}))
# An offer's kind … price, then (by hand) a contract's hours, then scheduling_fee_pct … gpu_model.
_OFFER = reader_plan("offers[]", first="kind", last="price")
_OFFER_REST = reader_plan("offers[]", first="scheduling_fee_pct")
_BENCHMARK = reader_plan("benchmarks[]", first="nodes")  # nodes … succeeded


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
        fields = read_fields(r, s, _SITE, p)  # checked whether the code is given or not
        if code is None:
            continue
        if code in sites:
            r.error(f"{p}.code", f"duplicate site code '{code}'")
            continue
        sites[code] = Site(code=code, index=i, **fields)
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
        link = Link(ends[0] or "", ends[1] or "", index=i, **read_fields(r, d, _LINK, p))
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
    basis = read_field(r, d, "offers[]", "billing_basis", p)
    contract = basis == "contract"
    preemptible, preemptions = _preemption(r, d, p)
    # SPEC P: contract prices need the package hours and the expected utilisation.
    values = read_fields(r, d, _OFFER, p)  # kind … price
    need = {"nullable": False, "default": MISSING} if contract else {}
    contract_hours = read_field(r, d, "offers[]", "contract_hours", p, **need)
    utilization = read_field(r, d, "offers[]", "expected_utilization", p, **need)
    paid = _contract_paid(r, d, p, contract)
    return Offer(
        id=oid or "",
        site=site or "",
        billing_basis=basis,
        contract_hours=contract_hours,
        expected_utilization=utilization,
        currency=own_currency,
        preemptible=preemptible,
        preemptions_per_day=preemptions,
        index=i,
        **values,
        **read_fields(r, d, _OFFER_REST, p),  # scheduling_fee_pct … gpu_model
        contract_paid=paid,
    )


def _contract_paid(r: Reader, d: dict[str, Any], p: str, contract: bool) -> bool:
    """SPEC 7.6: only a contract package can be already paid (on any other basis the flag is a
    slip that would silently price the offer at nothing)."""
    paid = read_field(r, d, "offers[]", "contract_paid", p)
    if paid and not contract:
        r.error(
            f"{p}.contract_paid",
            "only a contract offer can be already paid (set billing_basis: contract)",
        )  # the input is refused, so the flag is never read
    return paid


def _preemption(r: Reader, d: dict[str, Any], p: str) -> tuple[bool, float]:
    """SPEC 6.3: a preemptible offer states its expected preemptions per day; no other offer
    may state any (a rate on on-demand capacity is a slip that would silently cost nothing)."""
    if "preemptible" not in d and "preemptions_per_day" not in d:
        return False, 0.0
    preemptible = read_field(r, d, "offers[]", "preemptible", p)
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
    rate = read_field(r, d, "offers[]", "preemptions_per_day", p)  # given and not null here
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
        kind = read_field(r, d, "benchmarks[]", "kind", p)
        timed = kind in ("single", "multi")  # a single/multi run needs its offer and its hours
        offer = _benchmark_offer(r, d, p, timed, offer_ids)
        hours_default = MISSING if timed else 0.0
        e2e = read_field(r, d, "benchmarks[]", "e2e_hours", p, default=hours_default)
        compute = read_field(r, d, "benchmarks[]", "compute_hours", p, default=hours_default)
        comm = read_field(r, d, "benchmarks[]", "comm_hours", p)
        if e2e is not None and compute is not None and compute > e2e:
            r.error(f"{p}.compute_hours", "must be ≤ e2e_hours")
        if e2e is not None and comm is not None and comm > e2e:
            r.error(f"{p}.comm_hours", "must be ≤ e2e_hours")
        raw_id = d.get("id")
        records.append(
            Benchmark(
                index=i,
                kind=kind,
                offer=offer,
                e2e_hours=e2e if e2e is not None else 0.0,
                compute_hours=compute if compute is not None else 0.0,
                comm_hours=comm,
                id=None if raw_id is None or isinstance(raw_id, bool) else str(raw_id),
                **read_fields(r, d, _BENCHMARK, p),  # nodes … succeeded
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
