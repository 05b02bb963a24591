"""Provider bill files: each line matched to an approved review of the team by the tag the team
puts on its jobs (the team's tag key, `review` unless it chose another; value `12`, `#12` or
`review:12`), the matched lines summed per review and month into one actual record (compute and
transfer apart), the unmatched lines listed for the user to assign by hand. The formats read
(FOCUS 1.0–1.3, AWS CUR 2.0, AWS legacy CUR, a generic CSV) are in `bill_formats.py`.

All or nothing, as every import: one bad line (a date, an amount, a currency that is not the
team's, a line already imported) and nothing is saved. A line's fingerprint is its full charge
period, usage type, resource and amount (or the file's line-item id when it has one), and how
many identical lines came before it in the file: identical rows of one file are distinct lines,
and only lines imported before are refused, so a bill imported twice saves nothing the second
time, and a bill split in two files imports as it would whole.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from apps.accounts.fields import CONTROL_CHARACTERS
from apps.accounts.models import Team
from apps.reviews.models import ReviewState
from apps.web.ingest import (
    MAX_ERRORS,
    MAX_MAGNITUDE,
    ImportResult,
    RowError,
    parse_csv,
    parse_float,
    save_all,
)

from . import bill_formats as formats
from .bill_formats import COMPUTE, TRANSFER, tagged_review
from .models import ActualCost, ActualsSettings, BillCost, BillLine, Source
from .services import quarterly_changed
from .validation import ReviewLookup, parse_date, period_refusal

__all__ = [
    "COMPUTE", "TRANSFER", "BillResult", "bill_import", "read_bill", "summary", "tagged_review",
]


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
    currency: str = ""
    apart: str = ""  # a tax, credit … line: shown apart, never matched
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
    warnings: list[str] = field(default_factory=list)
    totals: dict[str, float] = field(default_factory=dict)  # every line read, per currency
    basis: str = BillCost.BILLED
    tag_key: str = "review"

    @property
    def unmatched(self) -> list[BillLineIn]:
        return [x for x in self.lines if x.review_id is None and not x.apart]

    @property
    def apart(self) -> list[BillLineIn]:
        return [x for x in self.lines if x.apart]

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
    return formats.detect(_header_line(content))


def _header_line(content: str) -> str:
    return content.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")[:20_000]


def _fingerprint(x: BillLineIn, raw: formats.RawLine) -> str:
    """The line's identity: the file's line-item id when it has one, else everything that tells
    two charges apart (the full charge period, usage type, resource, amount)."""
    if x.reference:
        parts = [x.provider, "id", x.reference]
    else:
        parts = [x.provider, raw.start, raw.end, raw.usage_type, x.resource, repr(x.amount),
                 x.currency, x.kind]
    return "|".join(parts)


def _currency_error(team: Team, column: str, theirs: str) -> RowError:
    return RowError(column, _(
        "Team %(team)s records costs in %(ours)s; this line is in %(theirs)s. Nothing is "
        "converted: export the bill in %(ours)s."
    ) % {"team": team.name, "ours": team.currency, "theirs": theirs[:12] or "—"})


def _read_line(row, fmt: str, team: Team, settings: dict, result: BillResult):
    cols = formats.COLUMNS[fmt]
    errors = row.errors
    try:
        raw = formats.raw_line(row.values, fmt, tag_key=settings["tag_key"],
                               basis=settings["basis"])
    except ValueError as exc:
        column, message = exc.args[0]
        errors.append(RowError(column, message))
        return None
    try:
        date = parse_date(raw.start)
    except ValueError as exc:
        errors.append(RowError(cols["start"], str(exc)))
        date = None
    try:
        amount = parse_float(raw.cost)
    except ValueError as exc:
        errors.append(RowError(cols["effective"] if settings["basis"] == BillCost.EFFECTIVE
                               and cols["effective"] else cols["billed"], str(exc)))
        amount = None
    currency = raw.currency or (team.currency.upper() if fmt in (formats.CUR, formats.CUR2)
                                and cols["currency"] not in row.values else "")
    if amount is not None and currency:
        result.totals[currency[:12]] = result.totals.get(currency[:12], 0.0) + amount
    if currency != team.currency.upper():
        errors.append(_currency_error(team, "currency", currency))
    if raw.kind not in (COMPUTE, TRANSFER):
        errors.append(RowError("kind", _("Kind is compute or transfer.")))
    texts = (raw.provider, raw.resource, raw.reference)
    if any(CONTROL_CHARACTERS.search(t) or len(t) > 200 for t in texts):
        errors.append(RowError("", _(
            "A text cell is longer than 200 characters or holds a control character.")))
    if errors or date is None or amount is None:
        return None
    bare = fmt != formats.GENERIC
    line = BillLineIn(
        line=row.line, date=date, provider=raw.provider or ("AWS" if fmt != formats.GENERIC
                                                            and fmt != formats.FOCUS else ""),
        resource=raw.resource, amount=amount, kind=raw.kind, reference=raw.reference,
        tagged=tagged_review(raw.tag, bare=bare, key=settings["tag_key"]), currency=currency,
        apart=raw.category,
    )
    return line, raw


def team_bill_settings(team: Team) -> dict:
    found = ActualsSettings.objects.filter(team=team).values("bill_tag_key", "bill_cost").first()
    if found is None:
        return {"tag_key": "review", "basis": BillCost.BILLED}
    return {"tag_key": found["bill_tag_key"] or "review", "basis": found["bill_cost"]}


def _match(line: BillLineIn, lookup: ReviewLookup, assigned: dict[int, int]) -> None:
    wanted = assigned.get(line.line, line.tagged)
    if line.apart:
        return
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
    settings = team_bill_settings(team)
    result = BillResult(format=fmt or "", basis=settings["basis"], tag_key=settings["tag_key"])
    if fmt is None:
        result.errors_by_line[1] = [RowError("", formats.not_a_bill_message(
            _header_line(content)))]
        return result
    parsed = parse_csv(content, formats.shape(fmt))
    result.rows, result.errors_by_line, result.deadline, result.records_read = (
        parsed.rows, parsed.errors_by_line, parsed.deadline, parsed.records_read)
    if parsed.rows and formats.COLUMNS[fmt]["currency"] not in parsed.rows[0].values:
        result.warnings.append(_(
            "This bill has no currency column: its lines are taken in the team's currency "
            "(%(ours)s)."
        ) % {"ours": team.currency})
    lookup = ReviewLookup(team).preload()
    occurrences: Counter[str] = Counter()
    for row in result.rows:
        if result.out_of_time():
            break
        if row.errors:
            continue
        read = _read_line(row, fmt, team, settings, result)
        if read is None:
            continue
        line, raw = read
        base = _fingerprint(line, raw)
        occurrences[base] += 1
        text = f"{base}|{occurrences[base]}"
        line.fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()
        _match(line, lookup, assigned or {})
        result.lines.append(line)
    imported = dict(
        BillLine.objects.filter(team=team, fingerprint__in=[x.fingerprint for x in result.lines])
        .values_list("fingerprint", "record_id")
    )
    rows_at = {row.line: row for row in result.rows}
    for line in result.lines:
        if line.fingerprint in imported:
            rows_at[line.line].errors.append(RowError("", _(
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
            result.skipped += 0 if line.apart else 1
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

    def write() -> None:
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

    conflict = RowError("", _("Some of these lines were imported meanwhile; nothing saved."))
    if save_all(result, write, conflict=conflict):
        quarterly_changed(team)
    return result


def summary(result: BillResult, *, dry_run: bool) -> dict:
    """What the command line and the API answer: the format detected, lines read, lines matched
    per review, lines left unassigned, totals per currency, row errors (at most MAX_ERRORS)."""
    per_review: dict[int, dict] = {}
    for group in result.groups:
        entry = per_review.setdefault(group.review_id, {
            "review": group.review_id, "lines": 0, "compute_cost": 0.0, "transfer_cost": 0.0})
        entry["lines"] += len(group.lines)
        entry["compute_cost"] += group.compute_cost
        entry["transfer_cost"] += group.transfer_cost
    errors = [
        {"line": line, "column": e.field, "message": str(e.message)}
        for line, row_errors in result.shown_errors.items() for e in row_errors
    ]
    return {
        "format": formats.NAMES.get(result.format, ""),
        "cost": result.basis,
        "tag_key": result.tag_key,
        "lines_read": len(result.rows),
        "matched": sorted(per_review.values(), key=lambda e: e["review"]),
        "unassigned": len(result.unmatched),
        "shown_apart": len(result.apart),
        "totals": {code: round(total, 6) for code, total in sorted(result.totals.items())},
        "warnings": [str(w) for w in result.warnings],
        "errors": errors,
        "more_errors": result.more_errors,
        "saved": result.saved,
        "dry_run": dry_run,
    }
