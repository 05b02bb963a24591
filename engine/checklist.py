"""SPEC C: the six-question checklist gate, per candidate offer."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .schema import QUESTIONS, EngineInput

# SPEC C, the one statement of the gate (the checklist pages and badges read it from here):
# two or more unanswered questions block the candidate (not ready to sign), exactly one warns.
BLOCK_AT = 2
WARN_AT = 1


def gate_severity(unanswered: int) -> str:
    """"block", "warn" or "ok" for a candidate with this many unanswered questions."""
    if unanswered >= BLOCK_AT:
        return "block"
    return "warn" if unanswered >= WARN_AT else "ok"


def ready_to_sign(unanswered: int) -> bool:
    return unanswered < BLOCK_AT


@dataclass(slots=True)
class ChecklistGate:
    unanswered: int
    ready_to_sign: bool
    unanswered_questions: list[str]


def checklist_gates(inp: EngineInput) -> tuple[dict[str, ChecklistGate], list[Finding]]:
    gates: dict[str, ChecklistGate] = {}
    found: list[Finding] = []
    # Offer input order, so findings are deterministic whatever order the checklists came in.
    for offer in inp.offers:
        answers = inp.checklists.get(offer.id)
        # SPEC 6.1: a candidate without checklist answers is six unanswered.
        missing = (
            list(QUESTIONS)
            if answers is None
            else [q for q in QUESTIONS if answers[q] != "answered"]
        )
        unanswered = len(missing)
        gates[offer.id] = ChecklistGate(unanswered, ready_to_sign(unanswered), missing)
        severity = gate_severity(unanswered)
        if severity != "ok":
            # SPEC C: two or more unanswered → block (not ready to sign); exactly one → warn.
            data = {"offer": offer.id, "unanswered": unanswered, "questions": missing}
            found.append(finding("C", severity, f"C.{severity}", data, offer.id))
    return gates, found
