"""Why each excluded option is excluded, and what the exclusion cost (issue 15: excluded options
are shown, not hidden).

Read from a snapshot's stored engine output and table rows at display time, so snapshots computed
before this module existed get the same explanation. Every cause names the rule that excluded the
option (its method guide entry) and says it in the user's language:

- an option's `reasons` (engine 2.x, SPEC 6.1) map to rules: the pool is too small → K2; no shared
  splitting strategy → R1a; compliance → X4; no recorded link → P; "not eligible" expands into the
  exclusions (X1, X2, X5) and failed gates (G1–G3) of `cross_domain`, each told by the engine's own
  finding message (which names the field, e.g. G1 "environment not marked simple");
- "what this rule cost you" is the objective (cost + delay cost × hours, SPEC 6.1) of the chosen
  option minus the excluded option's: positive when the rule kept a better option out.
"""

from __future__ import annotations

from typing import Any

from apps.web.labels import REASONS


def finding_text(finding: dict, language: str) -> str:
    """The finding's own message in the language (the engine ships English and Chinese)."""
    if language.lower().startswith("zh"):
        return finding.get("message_zh") or finding.get("message", "")
    return finding.get("message", "")

# Engine reason -> the rule whose method guide entry explains it (SPEC 6.1).
REASON_RULES = {
    "pool_too_small": "K2",
    "no_shared_parallelism": "R1a",
    "too_few_gpus": "A2",  # engine 3.0, SPEC 7.1
    "preempted_before_done": "G4",  # engine 3.0, SPEC 7.3
    "no_fast_interconnect": "K3",  # engine 3.1, SPEC 7.4
    "compliance_site": "X4",
    "compliance_moves_data": "X4",
    "compliance_moves_results": "X4",
    "no_link": "P",
    # Engine 1.x reasons, on snapshots signed under 1.x.
    "exceeds_max_machines": "K2",
    "tier_not_allowed": "X",
}
# The rules behind "not_eligible", in the order the method guide lists them (SPEC 6.1: every
# exclusion but X4, and every failed gate, keeps the task in its home domain).
HOME_DOMAIN_RULES = ("X1", "X2", "X5", "G1", "G2", "G3")
GATE_RULES = {"portability": "G1", "latency_tolerance": "G2", "interruption": "G3"}


def _key(option: dict) -> tuple[str, str, str]:
    return (option.get("kind") or option.get("placement"), option.get("site"), str(option["offer"]))


def _home_domain_causes(output: dict, language: str) -> list[dict[str, str]]:
    """The exclusions and failed gates that keep the task at home, each with the engine's message
    of its finding (it names the fields), in HOME_DOMAIN_RULES order."""
    cross = output.get("cross_domain") or {}
    failing = set(cross.get("exclusions") or ()) & {"X1", "X2", "X5"}
    failing |= {GATE_RULES[g] for g, ok in (cross.get("gates") or {}).items() if not ok}
    found = {f["rule"]: f for f in output.get("findings", []) if f.get("rule") in failing}
    causes = []
    for rule in HOME_DOMAIN_RULES:
        if rule not in failing:
            continue
        finding = found.get(rule)
        text = finding_text(finding, language) if finding else str(REASONS["not_eligible"])
        causes.append({"rule": rule, "text": text})
    return causes


def option_causes(option: dict, output: dict, language: str) -> list[dict[str, str]]:
    """[{rule, text}] for one engine option: every reason it is infeasible, de-duplicated."""
    reasons = option.get("reasons") or ([option["reason"]] if option.get("reason") else [])
    causes: list[dict[str, str]] = []
    for reason in reasons:
        if reason == "not_eligible":
            more = _home_domain_causes(output, language)
        else:
            label = REASONS.get(reason)
            more = [{"rule": REASON_RULES.get(reason, "P"), "text": str(label or reason)}]
        causes.extend(c for c in more if c not in causes)
    return causes


def _objective(row: dict, delay_cost_per_hour: float) -> float | None:
    """A table row's objective; rows stored before `objective` was kept are recomputed from the
    placement total (SPEC 6.1: cost + delay cost × hours)."""
    if row.get("objective") is not None:
        return row["objective"]
    cost, hours = row.get("placement_cost"), row.get("total_hours")
    if cost is None or hours is None:
        return None
    return cost + delay_cost_per_hour * hours


def excluded_options(
    rows: list[dict], output: dict, data: dict | None, language: str
) -> list[dict[str, Any]]:
    """The infeasible options of a snapshot, each {row, causes, saving, cost_delta, hours_delta}.

    `saving` is what the exclusion cost the team: the chosen option's objective minus this
    option's (None when nothing was chosen or a figure is unknown; ≤ 0 when the excluded option
    was no better). Deltas are against the chosen option's bill total and hours. Sorted best
    objective first, so the option that cost the most comes first."""
    delay = float(((data or {}).get("task") or {}).get("delay_cost_per_hour") or 0.0)
    options = {_key(o): o for o in output.get("options", [])}
    chosen = next((r for r in rows if r.get("chosen")), None)
    chosen_objective = _objective(chosen, delay) if chosen else None
    excluded = []
    for row in rows:
        if row.get("row_type") != "option" or row.get("feasible") is not False:
            continue
        option = options.get(_key(row), {"reason": row.get("reason")})
        objective = _objective(row, delay)
        base = chosen or {}
        excluded.append(
            {
                "row": row,
                "causes": option_causes(option, output, language),
                "objective": objective,
                "saving": _difference(chosen_objective, objective),
                "cost_delta": _difference(row.get("total_cost"), base.get("total_cost")),
                "hours_delta": _difference(row.get("total_hours"), base.get("total_hours")),
            }
        )
    excluded.sort(key=lambda e: (e["objective"] is None, e["objective"] or 0.0))
    return excluded


def _difference(a, b) -> float | None:
    if a is None or b is None:
        return None
    return round(a - b, 6)


def rule_costs(excluded: list[dict]) -> list[dict[str, Any]]:
    """What each rule cost: the excluded options it kept out that beat the chosen one on the
    objective, by rule, the largest saving first: [{rule, saving, options}]."""
    by_rule: dict[str, dict[str, Any]] = {}
    for entry in excluded:
        if not entry["saving"] or entry["saving"] <= 0:
            continue
        for cause in entry["causes"]:
            slot = by_rule.setdefault(cause["rule"], {"rule": cause["rule"], "saving": 0.0,
                                                      "options": []})
            slot["saving"] = max(slot["saving"], entry["saving"])
            slot["options"].append(entry)
    return sorted(by_rule.values(), key=lambda s: -s["saving"])


def annotate_rows(rows: list[dict], excluded: list[dict], output: dict) -> list[dict]:
    """Copies of the rows for the table: `causes` and `saving` on each excluded option, and
    `runner_up` on the option the engine names as the runner-up (SPEC 6.3)."""
    extra = {id(e["row"]): e for e in excluded}
    runner = output.get("runner_up")
    runner_key = _key(runner) if runner else None
    out = []
    for row in rows:
        entry = extra.get(id(row))
        if entry is not None:
            row = {**row, "causes": entry["causes"], "saving": entry["saving"]}
        elif runner_key and row.get("row_type") == "option" and _key(row) == runner_key:
            row = {**row, "runner_up": True}
        out.append(row)
    return out
