"""All entries in index order, and how a page finds one and fills in its formula."""

from __future__ import annotations

from apps.teams import thresholds as team_thresholds

from . import (
    eligibility,
    indicators,
    misjudgements_checklist_benchmarks,
    placement_indicators,
    platform,
    rollout_bill_signoff,
    sizing,
)
from .model import Entry

ENTRIES: tuple[Entry, ...] = (
    sizing.ENTRIES
    + platform.ENTRIES
    + misjudgements_checklist_benchmarks.ENTRIES
    + eligibility.ENTRIES
    + placement_indicators.ENTRIES
    + indicators.ENTRIES
    + rollout_bill_signoff.ENTRIES
)

ENTRY_BY_ID = {entry.id: entry for entry in ENTRIES}


def entry_for(rule_id: str) -> Entry | None:
    """The entry of a rule id or of a message key ("C.block", "R1a.split" → C, R1a)."""
    if not rule_id:
        return None
    rule_id = str(rule_id)
    return ENTRY_BY_ID.get(rule_id) or ENTRY_BY_ID.get(rule_id.split(".", 1)[0])


def formula_for(entry: Entry, values: dict[str, float]) -> str:
    """The entry's formula in the current language with the given threshold values filled in."""
    text = str(entry.formula)
    if not entry.thresholds:
        return text
    return text % {key: team_thresholds.show(values[key]) for key in entry.thresholds}
