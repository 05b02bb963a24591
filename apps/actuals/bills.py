"""Provider bill files: each line matched to an approved review of the team by the tag the team
puts on its jobs (`review:<id>`), the matched lines summed per review and month into one actual
record (compute and transfer apart), the unmatched lines listed for the user to assign by hand.

Two formats, told apart by the header:
- AWS Cost and Usage Report (CUR) CSV: `lineItem/UsageStartDate`, `lineItem/UnblendedCost`,
  `lineItem/CurrencyCode`, `lineItem/ResourceId`, the tag column `resourceTags/user:review`
  (value `12`, `#12` or `review:12`), optionally `identity/LineItemId`, `lineItem/UsageType` and
  `product/productFamily` (a "Data Transfer" family or a `DataTransfer` usage type is transfer,
  anything else compute). The report's other columns are passed over.
- generic: `date, provider, resource, tag, amount, currency` (the tag cell may hold several tags,
  e.g. `team:ml review:12`), with an optional `kind` column (compute | transfer; compute when
  absent) and an optional `reference`.

All or nothing, as every import: one bad line (a date, an amount, a currency that is not the
team's, a line already imported) and nothing is saved. A line imported once is refused the second
time by its fingerprint (`BillLine`), so a bill imported twice saves nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from apps.accounts.fields import CONTROL_CHARACTERS
from apps.accounts.models import Team
from apps.benchmarks.validation import parse_float
from apps.reviews.models import ReviewState
from apps.web.csv_file import CsvShape, ImportResult, RowError, parse_csv
from apps.web.limits import MAX_ERRORS, MAX_MAGNITUDE

from .models import ActualCost, BillLine, Source
from .services import quarterly_changed
from .validation import ReviewLookup, parse_date, period_refusal

CUR = {
    "date": "lineitem/usagestartdate",
    "amount": "lineitem/unblendedcost",
    "currency": "lineitem/currencycode",
    "resource": "lineitem/resourceid",
    "tag": "resourcetags/user:review",
    "reference": "identity/lineitemid",
    "usage_type": "lineitem/usagetype",
    "family": "product/productfamily",
    "provider": "lineitem/productcode",
}
GENERIC = ("date", "provider", "resource", "tag", "amount", "currency")
CUR_SHAPE = CsvShape(
    columns=tuple(CUR.values()), required=(CUR["date"], CUR["amount"], CUR["currency"]),
    max_columns=512, other_columns="pass",
)
GENERIC_SHAPE = CsvShape(columns=(*GENERIC, "kind", "reference"), required=GENERIC)
COMPUTE, TRANSFER = "compute", "transfer"
_TAG = re.compile(r"(?:^|[\s;,|])review:#?(\d{1,18})(?![\d])", re.IGNORECASE)
_BARE = re.compile(r"^(?:review:)?#?(\d{1,18})$", re.IGNORECASE)


@dataclass
class BillLineIn:
    line: int
    date: dt.date
    provider: str
    resource: str
    amount: float
    kind: str
    reference: str
    tagged: int | None  # the review id the tag names
    review_id: int | None = None  # matched (or assigned) approved review of the team
    unmatched: str = ""  # why it was not matched
    fingerprint: str = ""


@dataclass
class BillGroup:
    review_id: int
    period: dt.date
    lines: list[BillLineIn] = field(default_factory=list)

    @property
    def compute_cost(self) -> float:
        return sum(x.amount for x in self.lines if x.kind == COMPUTE)

    @property
    def transfer_cost(self) -> float:
        return sum(x.amount for x in self.lines if x.kind == TRANSFER)


@dataclass
class BillResult(ImportResult):
    format: str = ""
    lines: list[BillLineIn] = field(default_factory=list)
    groups: list[BillGroup] = field(default_factory=list)
    skipped: int = 0  # unmatched lines nobody assigned: left out

    @property
    def unmatched(self) -> list[BillLineIn]:
        return [x for x in self.lines if x.review_id is None]

    @property
    def ok(self) -> bool:
        return bool(self.groups) and not self.errors_by_line

    @property
    def shown_unmatched(self) -> list[BillLineIn]:
        """The unmatched lines offered for assignment: the first MAX_ERRORS."""
        return self.unmatched[:MAX_ERRORS]

    @property
    def more_unmatched(self) -> int:
        return max(0, len(self.unmatched) - MAX_ERRORS)


def bill_format(content: str) -> str | None:
    head = content.lstrip("\ufeff").split("\n", 1)[0].lower()
    if CUR["amount"] in head:
        return "cur"
    if all(name in head for name in GENERIC):
        return "generic"
    return None


def tagged_review(text: str, *, bare: bool) -> int | None:
    """The review id a tag names: `review:12` anywhere in a generic tag cell; in the CUR tag
    column (its key is already `review`) also a bare `12` or `#12`."""
    text = (text or "").strip()
    match = (_BARE.match(text) if bare else None) or _TAG.search(text)
    return int(match.group(1)) if match else None


def _kind(values: dict, fmt: str) -> str:
    if fmt == "cur":
        family = values.get(CUR["family"], "").strip().lower()
        usage = values.get(CUR["usage_type"], "").lower()
        return TRANSFER if family == "data transfer" or "datatransfer" in usage else COMPUTE
    kind = values.get("kind", "").strip().lower() or COMPUTE
    if kind not in (COMPUTE, TRANSFER):
        raise ValueError(_("Kind is compute or transfer."))
    return kind


def _fingerprint(x: BillLineIn, currency: str) -> str:
    text = "|".join(
        [x.provider, x.reference, x.date.isoformat(), x.resource, repr(x.amount), currency, x.kind]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read_line(row, fmt: str, team: Team, errors: list[RowError]) -> BillLineIn | None:
    names = CUR if fmt == "cur" else {n: n for n in (*GENERIC, "reference")}
    values = row.values
    get = lambda name: values.get(names[name], "") or ""  # noqa: E731
    try:
        date = parse_date(get("date"))
    except ValueError as exc:
        errors.append(RowError("date", str(exc)))
        date = None
    try:
        amount = parse_float(get("amount"))
    except ValueError as exc:
        errors.append(RowError("amount", str(exc)))
        amount = None
    currency = get("currency").strip().upper()
    if currency != team.currency.upper():
        errors.append(RowError("currency", _(
            "Team %(team)s records costs in %(ours)s; this line is in %(theirs)s. Nothing is "
            "converted: export the bill in %(ours)s."
        ) % {"team": team.name, "ours": team.currency, "theirs": currency[:12] or "—"}))
    try:
        kind = _kind(values, fmt)
    except ValueError as exc:
        errors.append(RowError("kind", str(exc)))
        kind = COMPUTE
    texts = {name: get(name).strip() for name in ("provider", "resource", "reference")}
    if any(CONTROL_CHARACTERS.search(t) or len(t) > 200 for t in texts.values()):
        errors.append(RowError("", _(
            "A text cell is longer than 200 characters or holds a control character.")))
    if errors or date is None or amount is None:
        return None
    line = BillLineIn(
        line=row.line, date=date, provider=texts["provider"] or ("AWS" if fmt == "cur" else ""),
        resource=texts["resource"], amount=amount, kind=kind, reference=texts["reference"],
        tagged=tagged_review(get("tag"), bare=fmt == "cur"),
    )
    line.fingerprint = _fingerprint(line, currency)
    return line


def _match(line: BillLineIn, lookup: ReviewLookup, assigned: dict[int, int]) -> None:
    wanted = assigned.get(line.line, line.tagged)
    if wanted is None:
        line.unmatched = _("no review:<id> tag")
        return
    state = lookup.state(wanted)
    if state is None:
        line.unmatched = _("no review #%(id)s in this team") % {"id": wanted}
    elif state != ReviewState.APPROVED:
        line.unmatched = _("review #%(id)s is not approved") % {"id": wanted}
    elif refusal := period_refusal(wanted, line.date, lookup):
        line.unmatched = refusal
    else:
        line.review_id = wanted


def read_bill(
    *, team: Team, content: str, assigned: dict[int, int] | None = None
) -> BillResult:
    """Every line of a bill read, checked and matched; the groups one record each would make."""
    fmt = bill_format(content)
    result = BillResult(format=fmt or "")
    if fmt is None:
        result.errors_by_line[1] = [RowError("", _(
            "Not a bill this import reads: the header has neither the AWS Cost and Usage Report "
            "columns (lineItem/UnblendedCost …) nor date, provider, resource, tag, amount, "
            "currency."
        ))]
        return result
    parsed = parse_csv(content, CUR_SHAPE if fmt == "cur" else GENERIC_SHAPE)
    result.rows, result.errors_by_line, result.deadline = (
        parsed.rows, parsed.errors_by_line, parsed.deadline)
    lookup = ReviewLookup(team).preload()
    seen: dict[str, int] = {}
    for row in result.rows:
        if result.out_of_time():
            break
        if row.errors:
            continue
        line = _read_line(row, fmt, team, row.errors)
        if line is None:
            continue
        if line.fingerprint in seen:
            row.errors.append(RowError("", _("The same line as line %(n)s.") % {
                "n": seen[line.fingerprint]}))
            continue
        seen[line.fingerprint] = line.line
        _match(line, lookup, assigned or {})
        result.lines.append(line)
    imported = dict(
        BillLine.objects.filter(team=team, fingerprint__in=list(seen))
        .values_list("fingerprint", "record_id")
    )
    lines_at = {line.line: line for line in result.lines}
    for row in result.rows:
        line = lines_at.get(row.line)
        if line is not None and line.fingerprint in imported:
            row.errors.append(RowError("", _(
                    "Already imported into record #%(id)s; nothing of this bill is saved twice."
                ) % {"id": imported[line.fingerprint]}))
    result.collect_errors()
    _make_groups(result)
    return result


def _make_groups(result: BillResult) -> None:
    """One group per review and month of the matched lines; unmatched ones are counted."""
    groups: dict[tuple[int, dt.date], BillGroup] = {}
    for line in result.lines:
        if line.review_id is None:
            result.skipped += 1
            continue
        month = line.date.replace(day=1)
        groups.setdefault((line.review_id, month), BillGroup(line.review_id, month)).lines.append(
            line
        )
    result.groups = sorted(groups.values(), key=lambda g: (g.period, g.review_id))
    for group in result.groups:
        if group.compute_cost < 0 or group.transfer_cost < 0:
            result.errors_by_line.setdefault(group.lines[0].line, []).append(RowError(
                "amount", _("Review #%(id)s's lines of %(month)s add up below zero.") % {
                    "id": group.review_id, "month": f"{group.period:%Y-%m}"}))
        if max(abs(group.compute_cost), abs(group.transfer_cost)) > MAX_MAGNITUDE:
            # Each line is within 10¹², but one record is the sum of its group (issue 34).
            result.errors_by_line.setdefault(group.lines[0].line, []).append(RowError(
                "amount", _(
                    "Review #%(id)s's lines of %(month)s add up to more than 10¹²: check the "
                    "amounts."
                ) % {"id": group.review_id, "month": f"{group.period:%Y-%m}"}))


def _reference(group: BillGroup) -> str:
    refs = [x.reference or x.resource for x in group.lines if x.reference or x.resource]
    text = _("%(n)s bill lines") % {"n": len(group.lines)}
    if refs:
        text += ": " + ", ".join(refs[:3]) + (" …" if len(refs) > 3 else "")
    return text[:200]


def bill_import(
    *, team: Team, content: str, assigned: dict[int, int] | None = None, created_by=None,
    dry_run: bool = False,
) -> BillResult:
    """Read the bill; unless `dry_run` or any error, save one record per review and month and
    each line under it, in one transaction. Unmatched lines nobody assigned are left out."""
    result = read_bill(team=team, content=content, assigned=assigned)
    if not result.groups and not result.errors_by_line:
        result.errors_by_line[1] = [RowError("", _(
            "No line is matched to an approved review of the team: tag the jobs review:<id>, "
            "or assign the lines below."
        ))]
    if dry_run or not result.ok:
        return result
    try:
        with transaction.atomic():
            for group in result.groups:
                record = ActualCost.objects.create(
                    team=team, review_id=group.review_id, period=group.period,
                    compute_cost=group.compute_cost, transfer_cost=group.transfer_cost,
                    source=Source.BILL, reference=_reference(group), created_by=created_by,
                )
                BillLine.objects.bulk_create([
                    BillLine(team=team, record=record, fingerprint=x.fingerprint, line=x.line,
                             reference=(x.reference or x.resource)[:200], kind=x.kind,
                             amount=x.amount)
                    for x in group.lines
                ])
    except IntegrityError:
        result.errors_by_line.setdefault(1, []).append(
            RowError("", _("Some of these lines were imported meanwhile; nothing saved."))
        )
        return result
    result.saved = True
    quarterly_changed(team)
    return result
