"""CSV and XLSX exports of a snapshot: its comparison table, its findings, its review's sign-offs.

CSV (for scripts, and for people who open it in a spreadsheet): UTF-8 with a byte order mark,
so spreadsheet programs read Chinese text right. One table per file, chosen with `?part=`:
`table` (the default: the comparison table, whose header row is the stable English keys of
`tables.COLUMNS` followed by `LABEL_COLUMNS`), `findings` or `signoffs`. Codes stay codes
(`move_data`, `approve`), numbers plain (dot decimal), booleans true/false, empty = no value; each
code a person reads has a `*_label` column beside it in the user's language (docs/decisions.md).
XLSX: for people: translated headers, the UI's labels, number formats, the chosen row bold, a
sheet with the snapshot's facts, one with the findings and one with the sign-offs.
Text cells that a spreadsheet would run as a formula are prefixed with '.
"""

from __future__ import annotations

import csv
import io

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.fields import CONTROL_CHARACTERS  # what no XLSX cell holds: stripped
from apps.reviews.models import Decision, SignOff
from apps.reviews.selectors import review_signoffs
from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.reviews.snapshots.tables import COLUMN_KEYS, COLUMNS, export_value
from apps.scoring.templatetags.scoring import (
    by_severity,
    finding_message,
    placement_label,
    reason_label,
    tier_label,
    verdict_label,
)
from apps.web.labels import ROW_TYPES, SEVERITIES, label

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
CSV_PARTS = ("table", "findings", "signoffs")
# Appended to the table's CSV: (key, the code column it names, its words in the user's language).
LABEL_COLUMNS = (
    ("placement_label", "placement", placement_label),
    ("tier_label", "tier", tier_label),
    ("verdict_label", "verdict", verdict_label),
    ("reason_label", "reason", reason_label),
)
FINDING_KEYS = ("severity", "severity_label", "rule", "offer", "offer_label", "message")
SIGNOFF_KEYS = (
    "round",
    "reviewer",
    "decision",
    "decision_label",
    "comment",
    "snapshot",
    "created_at",
)
SEVERITY_ORDER = ("block", "warn", "info")


def _safe(value):
    """A cell that is only ever text: control characters (which no XLSX cell can hold, and which
    older rows may carry) taken out, a formula-like start defused."""
    if isinstance(value, str):
        value = CONTROL_CHARACTERS.sub("", value)
        if value.startswith(FORMULA_START):
            return "'" + value
    return value


def filename(snapshot: EvaluationSnapshot, extension: str, part: str = "table") -> str:
    name = {"table": "comparison", "findings": "findings", "signoffs": "signoffs"}[part]
    return f"{name}-review{snapshot.review_id}-snapshot{snapshot.pk}.{extension}"


def _csv(header, rows) -> str:
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_safe(value) for value in row])
    return out.getvalue()


def snapshot_csv(snapshot: EvaluationSnapshot, part: str = "table") -> str:
    """One part of the snapshot as CSV (see the module's docstring); `part` in CSV_PARTS."""
    if part == "findings":
        return _csv(FINDING_KEYS, _finding_rows(snapshot))
    if part == "signoffs":
        return _csv(SIGNOFF_KEYS, _signoff_rows(review_signoffs(snapshot.review)))
    label_keys = [key for key, _column, _words in LABEL_COLUMNS]
    return _csv(
        [*COLUMN_KEYS, *label_keys],
        (
            [export_value(row, key) for key in COLUMN_KEYS]
            + [words(row.get(column)) for _key, column, words in LABEL_COLUMNS]
            for row in snapshot.table_rows or []
        ),
    )


def ordered_findings(snapshot: EvaluationSnapshot) -> list[dict]:
    """The snapshot's findings as the page lists them: blocks, then warnings, then the rest."""
    findings = (snapshot.output or {}).get("findings", [])
    return [f for severity in SEVERITY_ORDER for f in by_severity(findings, severity)]


def _offer_labels(snapshot: EvaluationSnapshot) -> dict[str, str]:
    labels = {}
    for offer in (snapshot.input or {}).get("offers", []):
        provider, name = offer.get("provider") or "", offer.get("name") or str(offer.get("id"))
        labels[str(offer.get("id"))] = f"{provider} · {name}" if provider else name
    return labels


def _finding_rows(snapshot: EvaluationSnapshot) -> list[list]:
    offers = _offer_labels(snapshot)
    rows = []
    for f in ordered_findings(snapshot):
        offer = "" if f.get("offer") is None else str(f["offer"])
        rows.append(
            [
                f.get("severity", ""),
                label(SEVERITIES, f.get("severity")),
                f.get("rule", ""),
                offer,
                offers.get(offer, offer),
                finding_message(f),
            ]
        )
    return rows


def _decision_label(value: str) -> str:
    return label(dict(Decision.choices), value)


def _signoff_rows(signoffs: list[SignOff]) -> list[list]:
    return [
        [
            s.round,
            s.reviewer.get_username(),
            s.decision,
            _decision_label(s.decision),
            s.comment,
            s.snapshot_id,
            s.created_at.isoformat(),
        ]
        for s in signoffs
    ]


def column_labels(currency: str) -> dict[str, str]:
    money = f" ({currency})"
    return {
        "row_type": _("Row"),
        "task": _("Task"),
        "offer": _("Offer id"),
        "offer_label": _("Offer"),
        "configuration": _("Nodes × GPUs"),
        "placement": _("Placement"),
        "site": _("Site"),
        "tier": _("Tier"),
        "feasible": _("Feasible"),
        "reason": _("Why not feasible"),
        "transfer_hours": _("Transfer (h)"),
        "queue_hours": _("Queue (h)"),
        "compute_hours": _("Compute (h)"),
        "total_hours": _("Total / e2e (h)"),
        "peak_gpu_mem_gb": _("Peak GPU memory (GB)"),
        "compute_cost": _("Compute cost") + money,
        "scheduling_cost": _("Scheduling cost") + money,
        "transfer_cost": _("Transfer cost") + money,
        "preemption_cost": _("Preemption cost") + money,
        "rerun_cost": _("Rerun cost") + money,
        "unit_price": _("Unit price per GPU-hour") + money,
        "total_cost": _("Total") + money,
        "rank_unit": _("Rank by unit price"),
        "rank_total": _("Rank by total"),
        "failure_reruns": _("Failure reruns"),
        "speedup": _("Speedup"),
        "verdict": _("Verdict"),
        "chosen": _("Chosen"),
        "plan": _("Plan (raw or staged)"),
        "preprocess_hours": _("Preprocessing (h)"),
        "preprocess_cost": _("Preprocessing cost") + money,
        "input_overlapped": _("Input streamed beside compute"),
        "scheduler_ops_cost": _("Scheduler upkeep") + money,
    }


NUMBER_FORMATS = {
    "hours": "#,##0.00",
    "money": "#,##0.00",
    "number": "#,##0.00",
    "int": "0",
}
# The XLSX shows people the UI's words for the table's codes.
XLSX_WORDS = {
    "row_type": lambda value: label(ROW_TYPES, value),
    "placement": placement_label,
    "tier": tier_label,
    "verdict": verdict_label,
    "reason": reason_label,
}


def _xlsx_cell(row: dict, key: str, kind: str):
    value = row.get(key)
    if kind == "bool":
        return "" if value is None else (_("yes") if value else _("no"))
    if key in XLSX_WORDS and value not in (None, ""):
        return XLSX_WORDS[key](value)
    return value


def _header(sheet, values: list[str], widths: list[int]) -> None:
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    sheet.append(values)
    fill = PatternFill("solid", fgColor="F0F3F9")
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.fill = fill
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"


def _comparison_sheet(sheet, snapshot: EvaluationSnapshot) -> None:
    from openpyxl.styles import Font

    labels = column_labels(snapshot.team.currency)
    _header(
        sheet,
        [labels[key] for key, _kind in COLUMNS],
        [max(10, min(40, len(labels[key]) + 2)) for key, _kind in COLUMNS],
    )
    bold = Font(bold=True)
    for row in snapshot.table_rows or []:
        sheet.append([_safe(_xlsx_cell(row, key, kind)) for key, kind in COLUMNS])
        line = sheet.max_row
        for index, (_key, kind) in enumerate(COLUMNS, start=1):
            cell = sheet.cell(row=line, column=index)
            if kind in NUMBER_FORMATS:
                cell.number_format = NUMBER_FORMATS[kind]
            if row.get("chosen"):
                cell.font = bold
    sheet.auto_filter.ref = sheet.dimensions


def _facts_sheet(sheet, snapshot: EvaluationSnapshot) -> None:
    for name, value in (
        (_("Review"), str(snapshot.review)),
        (_("Task"), str(snapshot.task)),
        (_("Team"), str(snapshot.team)),
        (_("Computed at"), timezone.localtime(snapshot.created_at).replace(tzinfo=None)),
        (_("Engine version"), snapshot.engine_version),
        (_("Input hash"), snapshot.input_hash),
        (_("Currency"), snapshot.team.currency),
    ):
        sheet.append([name, _safe(value)])
    sheet.column_dimensions["A"].width = 18
    sheet.column_dimensions["B"].width = 70


def _findings_sheet(sheet, snapshot: EvaluationSnapshot) -> None:
    from openpyxl.styles import Alignment

    _header(sheet, [_("Severity"), _("Rule"), _("Offer"), _("Message")], [12, 8, 30, 100])
    for _code, severity, rule, _offer, offer_label, message in _finding_rows(snapshot):
        sheet.append([_safe(severity), _safe(rule), _safe(offer_label), _safe(message)])
        sheet.cell(row=sheet.max_row, column=4).alignment = Alignment(wrap_text=True)


def _signoffs_sheet(sheet, signoffs: list[SignOff]) -> None:
    from openpyxl.styles import Alignment

    _header(
        sheet,
        [_("Round"), _("Reviewer"), _("Decision"), _("Comment"), _("Snapshot"), _("When")],
        [8, 16, 18, 80, 10, 18],
    )
    for s in signoffs:
        when = timezone.localtime(s.created_at).replace(tzinfo=None)
        sheet.append(
            [
                s.round,
                _safe(s.reviewer.get_username()),
                _safe(_decision_label(s.decision)),
                _safe(s.comment),
                s.snapshot_id,
                when,
            ]
        )
        sheet.cell(row=sheet.max_row, column=4).alignment = Alignment(wrap_text=True)
        sheet.cell(row=sheet.max_row, column=6).number_format = "yyyy-mm-dd hh:mm"


def snapshot_xlsx(snapshot: EvaluationSnapshot) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    comparison = workbook.active
    comparison.title = _("Comparison")[:31]
    _comparison_sheet(comparison, snapshot)
    _facts_sheet(workbook.create_sheet(_("Snapshot")[:31]), snapshot)
    _findings_sheet(workbook.create_sheet(_("Findings")[:31]), snapshot)
    _signoffs_sheet(workbook.create_sheet(_("Sign-offs")[:31]), review_signoffs(snapshot.review))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
