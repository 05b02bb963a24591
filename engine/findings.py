"""Findings: one per rule that fires, in both UI languages (SPEC 3, preamble)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .messages import render

# Fixed emission order of rule ids; findings are sorted by it, so output order never depends on
# the order in which the modules ran.
RULE_ORDER = (
    "A",
    "A2",
    "R0",
    "R1a",
    "R1b",
    "R1c",
    "R1d",
    "R6",
    "R2",
    "R3",
    "R4",
    "R5",
    "R7",
    "R1e",
    "R-mod",
    "J1",
    "J2",
    "J4",
    "C",
    "B1",
    "B2",
    "B3",
    "X1",
    "X2",
    "X3",
    "X4",
    "X5",
    "G1",
    "G2",
    "G3",
    "G4",
    "D1",
    "D2",
    "D3",
    "K1",
    "K2",
    "K3",
    "P1",
    "P2",
    "P3",
    "P4",
    "M1",
    "M2",
    "M3",
    "M4",
    "H1",
    "H2",
    "T",
    "J3",
)
RULE_RANK = {rule: rank for rank, rule in enumerate(RULE_ORDER)}


@dataclass(slots=True)
class Finding:
    rule: str
    severity: str  # info | warn | block
    key: str
    data: dict[str, Any]
    offer: str | None = None  # the offer it concerns; None: the whole review
    message: str = ""  # both languages are rendered once, by render_messages()
    message_zh: str = ""


# What the rules call to state a finding: finding(rule, severity, key, data[, offer]) is the
# Finding itself (a class called directly: no wrapper call per finding).
finding = Finding


def render_messages(findings: list[Finding], names: dict[str, str]) -> list[Finding]:
    """Render every message once, in both languages, showing offers by name ("H100 on demand
    (#4)"); `data["offer"]` stays the id."""
    for f in findings:
        offer_id = f.data.get("offer")
        name = names.get(offer_id) if type(offer_id) is str else None
        shown = dict(f.data, offer=f"{name} (#{offer_id})") if name else f.data
        plan_offer = f.data.get("plan_offer")  # SPEC 7.7: M3's deadline plan names its offer
        if type(plan_offer) is str and names.get(plan_offer):
            shown = dict(shown, plan_offer=f"{names[plan_offer]} (#{plan_offer})")
        f.message, f.message_zh = render(f.key, shown)
    return findings


def ordered(findings: list[Finding]) -> list[Finding]:
    # sorted() is stable: findings of one rule keep their emission order (offer order, segments).
    return sorted(findings, key=lambda f: RULE_RANK[f.rule])
