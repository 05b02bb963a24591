"""The bill formats the import reads, told apart by the header (lower-cased by the reader), and
how one row of each reads: its charge period, cost (billed or effective), currency, resource,
usage type, line-item id, kind (compute or transfer), charge category and tags.

- FOCUS 1.0–1.3 (the FinOps Foundation's format, exported by AWS, Azure, Google Cloud, Oracle):
  `ChargePeriodStart`, `ChargePeriodEnd`, `BilledCost`, `EffectiveCost`, `BillingCurrency`,
  `ResourceId`, `ServiceCategory`/`SkuMeter`/`ConsumedUnit` (transfer), the `Tags` JSON object,
  `ChargeCategory` (Usage and Purchase counted; Tax, Credit and Adjustment shown apart).
- AWS CUR 2.0 (Data Exports): `line_item_*` columns, tags in the `resource_tags` map (keys
  `user_<key>`) or `resource_tags_user_<key>` columns.
- AWS legacy CUR: `lineItem/*` columns, tags in `resourceTags/user:<key>`; without
  `lineItem/CurrencyCode` the lines are taken in the team's currency, with a warning.
- generic: `date, provider, resource, tag, amount, currency` (+ `kind`, `reference`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from apps.web.ingest import CsvShape, read_json_text

FOCUS, CUR2, CUR, GENERIC = "focus", "cur2", "cur", "generic"
COMPUTE, TRANSFER = "compute", "transfer"
COUNTED_FOCUS = {"usage", "purchase"}
APART_CUR = {"tax", "credit", "refund", "bundleddiscount", "discount"}
GENERIC_COLUMNS = ("date", "provider", "resource", "tag", "amount", "currency")
HEADERS = {
    FOCUS: "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,"
           "BillingCurrency,ResourceId,ServiceCategory,SkuMeter,Tags",
    CUR2: "identity_line_item_id,line_item_usage_start_date,line_item_usage_end_date,"
          "line_item_usage_type,line_item_resource_id,line_item_unblended_cost,"
          "line_item_currency_code,resource_tags",
    CUR: "identity/LineItemId,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/UsageType,"
         "lineItem/ResourceId,lineItem/UnblendedCost,lineItem/CurrencyCode,"
         "resourceTags/user:review",
    GENERIC: "date,provider,resource,tag,amount,currency,kind,reference",
}
NAMES = {FOCUS: "FOCUS 1.0–1.3", CUR2: "AWS CUR 2.0", CUR: "AWS legacy CUR",
         GENERIC: "generic (date, provider, resource, tag, amount, currency)"}
# The columns each format reads, by what they mean.
COLUMNS = {
    FOCUS: {"start": "chargeperiodstart", "end": "chargeperiodend", "billed": "billedcost",
            "effective": "effectivecost", "currency": "billingcurrency",
            "resource": "resourceid", "usage_type": "skuid", "category": "chargecategory",
            "provider": "providername", "tags": "tags", "service": "servicecategory",
            "meter": "skumeter", "unit": "consumedunit", "reference": ""},
    CUR2: {"start": "line_item_usage_start_date", "end": "line_item_usage_end_date",
           "billed": "line_item_unblended_cost", "effective": "",
           "currency": "line_item_currency_code", "resource": "line_item_resource_id",
           "usage_type": "line_item_usage_type", "category": "line_item_line_item_type",
           "provider": "line_item_product_code", "tags": "resource_tags",
           "family": "product_product_family", "reference": "identity_line_item_id"},
    CUR: {"start": "lineitem/usagestartdate", "end": "lineitem/usageenddate",
          "billed": "lineitem/unblendedcost", "effective": "",
          "currency": "lineitem/currencycode", "resource": "lineitem/resourceid",
          "usage_type": "lineitem/usagetype", "category": "lineitem/lineitemtype",
          "provider": "lineitem/productcode", "family": "product/productfamily",
          "reference": "identity/lineitemid"},
    GENERIC: {"start": "date", "end": "", "billed": "amount", "effective": "",
              "currency": "currency", "resource": "resource", "usage_type": "",
              "category": "", "provider": "provider", "reference": "reference", "tags": "tag"},
}
# CUR's amortised (effective) cost of a line, by its line item type.
CUR_EFFECTIVE = {
    "discountedusage": ("reservation_effective_cost", "reservation/effectivecost"),
    "savingsplancoveredusage": ("savings_plan_savings_plan_effective_cost",
                                "savingsplan/savingsplaneffectivecost"),
    "rifee": None, "savingsplanrecurringfee": None, "savingsplannegation": None,
}


def detect(header_line: str) -> str | None:
    head = [name.strip().strip('"').lower() for name in header_line.split(",")]
    present = set(head)
    if {"billedcost", "chargeperiodstart"} <= present:
        return FOCUS
    if "line_item_unblended_cost" in present:
        return CUR2
    if "lineitem/unblendedcost" in present:
        return CUR
    if set(GENERIC_COLUMNS) <= present:
        return GENERIC
    return None


def not_a_bill_message(header_line: str) -> str:
    found = ", ".join(n.strip() for n in header_line.split(",")[:6] if n.strip()) or "—"
    return _(
        "Not a bill this import reads: its header starts %(found)s. The formats read are "
        "%(formats)s; the README shows each one's header."
    ) % {"found": found[:200], "formats": "; ".join(NAMES.values())}


def shape(fmt: str) -> CsvShape:
    if fmt == GENERIC:
        return CsvShape(columns=(*GENERIC_COLUMNS, "kind", "reference"), required=GENERIC_COLUMNS)
    cols = COLUMNS[fmt]
    required = tuple(cols[n] for n in ("start", "billed") if cols[n])
    if fmt == FOCUS:
        required += (cols["currency"],)
    return CsvShape(columns=required, required=required, max_columns=1024, other_columns="pass")


@dataclass
class RawLine:
    """One row as its format says it, before any check."""

    start: str
    end: str
    cost: str
    currency: str
    resource: str
    usage_type: str
    provider: str
    reference: str
    category: str  # "" counted, else why it is shown apart (tax, credit …)
    kind: str
    tag: str  # the text naming a review, "" for none


def _get(values: dict, name: str) -> str:
    return (values.get(name) or "").strip() if name else ""


def _focus_kind(values: dict) -> str:
    meter = _get(values, "skumeter").lower()
    service = _get(values, "servicecategory").lower()
    unit = _get(values, "consumedunit").lower()
    if "transfer" in meter or (service == "networking" and unit in {"gb", "gib", "tb", "tib"}):
        return TRANSFER
    return COMPUTE


def _cur_kind(values: dict, cols: dict) -> str:
    family = _get(values, cols.get("family", "")).lower()
    usage = _get(values, cols["usage_type"]).lower()
    return TRANSFER if family == "data transfer" or "datatransfer" in usage else COMPUTE


def _tag_from_map(text: str, keys: tuple[str, ...]) -> str:
    tags = read_json_text(text)
    lowered = {str(k).lower(): v for k, v in tags.items()}
    for key in keys:
        if key in lowered and lowered[key] not in (None, ""):
            return str(lowered[key])
    return ""


def _cur_effective(values: dict, fmt: str, billed: str) -> str:
    kind = _get(values, COLUMNS[fmt]["category"]).lower()
    if kind not in CUR_EFFECTIVE:
        return billed
    names = CUR_EFFECTIVE[kind]
    if names is None:
        return "0"  # a fee amortised into the covered usage lines
    return _get(values, names[0] if fmt == CUR2 else names[1]) or billed


def raw_line(values: dict, fmt: str, *, tag_key: str, basis: str) -> RawLine:
    """The row read as its format says; ValueError naming the column of a bad tag map."""
    cols = COLUMNS[fmt]
    billed = _get(values, cols["billed"])
    key = tag_key.lower()
    if fmt == FOCUS:
        cost = _get(values, cols["effective"]) if basis == "effective" else billed
        category = _get(values, cols["category"]).lower()
        apart = "" if category in COUNTED_FOCUS or not category else category
        kind = _focus_kind(values)
        try:
            tag = _tag_from_map(_get(values, "tags"), (key, f"user:{key}", f"user_{key}"))
        except ValueError as exc:
            raise ValueError(("tags", str(exc))) from None
    elif fmt in (CUR, CUR2):
        cost = _cur_effective(values, fmt, billed) if basis == "effective" else billed
        category = _get(values, cols["category"]).lower()
        apart = category if category in APART_CUR else ""
        kind = _cur_kind(values, cols)
        if fmt == CUR:
            tag = _get(values, f"resourcetags/user:{key}")
        else:
            tag = _get(values, f"resource_tags_user_{key}")
            if not tag and "resource_tags" in values:
                try:
                    tag = _tag_from_map(values["resource_tags"], (f"user_{key}", key))
                except ValueError as exc:
                    raise ValueError(("resource_tags", str(exc))) from None
    else:
        cost, apart, kind = billed, "", _get(values, "kind").lower() or COMPUTE
        tag = _get(values, "tag")
    return RawLine(
        start=_get(values, cols["start"]), end=_get(values, cols["end"]), cost=cost,
        currency=_get(values, cols["currency"]).upper(), resource=_get(values, cols["resource"]),
        usage_type=_get(values, cols["usage_type"]), provider=_get(values, cols["provider"]),
        reference=_get(values, cols["reference"]), category=apart, kind=kind, tag=tag,
    )


_KEYED = r"(?:^|[\s;,|]){key}:#?(\d{{1,18}})(?![\d])"


def tagged_review(text: str, *, bare: bool, key: str = "review") -> int | None:
    """The review id a tag names: `<key>:12` (or `review:12`) anywhere in a generic tag cell; in
    a tag column or map entry whose key is already the team's key, also a bare `12` or `#12`."""
    text = (text or "").strip()
    keys = {re.escape(key.lower()), "review"}
    for name in keys:
        match = re.search(_KEYED.format(key=name), text, re.IGNORECASE)
        if match:
            return int(match.group(1))
    if bare:
        match = re.fullmatch(r"#?(\d{1,18})", text)
        if match:
            return int(match.group(1))
    return None
