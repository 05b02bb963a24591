"""CSV and XLSX exports of a snapshot's comparison table.

CSV: the header row is the stable English column keys of `tables.COLUMNS` (scripts read it);
numbers are plain (dot decimal, no thousands separator), booleans true/false, empty = no value.
XLSX: for people: translated headers, number formats, the chosen row bold, a sheet with the
snapshot's facts. Text cells that a spreadsheet would run as a formula are prefixed with '.
"""

from __future__ import annotations

import csv
import io

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.scoring.models import EvaluationSnapshot
from apps.scoring.tables import COLUMN_KEYS, COLUMNS, export_value

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _safe(value):
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def filename(snapshot: EvaluationSnapshot, extension: str) -> str:
    return f"comparison-review{snapshot.review_id}-snapshot{snapshot.pk}.{extension}"


def snapshot_csv(snapshot: EvaluationSnapshot) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMN_KEYS)
    for row in snapshot.table_rows or []:
        writer.writerow([_safe(export_value(row, key)) for key in COLUMN_KEYS])
    return out.getvalue()


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
        "rerun_loss": _("Rerun loss") + money,
        "unit_price": _("Unit price per GPU-hour") + money,
        "total_cost": _("Total") + money,
        "rank_unit": _("Rank by unit price"),
        "rank_total": _("Rank by total"),
        "failure_reruns": _("Failure reruns"),
        "speedup": _("Speedup"),
        "verdict": _("Verdict"),
        "chosen": _("Chosen"),
    }


NUMBER_FORMATS = {
    "hours": "#,##0.00",
    "money": "#,##0.00",
    "number": "#,##0.00",
    "int": "0",
}


def snapshot_xlsx(snapshot: EvaluationSnapshot) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _("Comparison")[:31]
    labels = column_labels(snapshot.team.currency)
    sheet.append([labels[key] for key, _kind in COLUMNS])
    header_fill = PatternFill("solid", fgColor="F0F3F9")
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.fill = header_fill
    bold = Font(bold=True)
    for row in snapshot.table_rows or []:
        values = []
        for key, kind in COLUMNS:
            value = row.get(key)
            if kind == "bool":
                value = "" if value is None else (_("yes") if value else _("no"))
            values.append(_safe(value))
        sheet.append(values)
        line = sheet.max_row
        for index, (_key, kind) in enumerate(COLUMNS, start=1):
            cell = sheet.cell(row=line, column=index)
            if kind in NUMBER_FORMATS:
                cell.number_format = NUMBER_FORMATS[kind]
            if row.get("chosen"):
                cell.font = bold
    for index, (key, _kind) in enumerate(COLUMNS, start=1):
        width = max(10, min(40, len(labels[key]) + 2))
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions

    facts = workbook.create_sheet(_("Snapshot")[:31])
    for label, value in (
        (_("Review"), str(snapshot.review)),
        (_("Task"), str(snapshot.task)),
        (_("Team"), str(snapshot.team)),
        (_("Computed at"), timezone.localtime(snapshot.created_at).replace(tzinfo=None)),
        (_("Engine version"), snapshot.engine_version),
        (_("Input hash"), snapshot.input_hash),
        (_("Currency"), snapshot.team.currency),
    ):
        facts.append([label, _safe(value)])
    facts.column_dimensions["A"].width = 18
    facts.column_dimensions["B"].width = 70
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
