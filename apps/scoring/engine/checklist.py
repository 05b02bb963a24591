"""SPEC C: the six-question checklist gate, per candidate offer."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .schema import QUESTIONS, EngineInput


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
        gates[offer.id] = ChecklistGate(len(missing), len(missing) < 2, missing)
        data = {"offer": offer.id, "unanswered": len(missing), "questions": missing}
        if len(missing) >= 2:
            # SPEC C: two or more unanswered → not ready to sign.
            found.append(finding("C", "block", "C.block", data, offer.id))
        elif len(missing) == 1:
            # SPEC C: exactly one unanswered → warn.
            found.append(finding("C", "warn", "C.warn", data, offer.id))
    return gates, found
