"""What flips the decision (SPEC 6.3), read from a snapshot's engine output and input.

The engine (2.1) lists, per input, the value at which another option would be chosen
(`sensitivity[]`) and tells the three nearest in words (`rank` 1–3, `message`, `message_zh`).
This module picks those for the review page, and finds the inputs that moved past their flip
point between two snapshots for the snapshot diff. Older snapshots (engine < 2.1) have neither.
"""

from __future__ import annotations

import re
from typing import Any

NEAREST = 3  # the engine words the three nearest flips

_PATH = re.compile(r"^(?:(?P<list>sites|links|offers)\[(?P<index>\d+)\]|task)\.(?P<field>\w+)$")
# The input kinds the page names in words, by the field of the path.
_KINDS = {
    "queue_hours": "queue",
    "bandwidth_gbps": "bandwidth",
    "price_per_gb": "price_per_gb",
    "price": "price",
    "compress_ratio": "compress_ratio",
    "delay_cost_per_hour": "delay_cost",
}


def has_sensitivity(output: dict | None) -> bool:
    """Whether the snapshot was computed with the 2.1 sensitivity (older ones say nothing)."""
    return isinstance(output, dict) and "sensitivity" in output


def nearest_flips(output: dict | None) -> list[dict]:
    """The worded flips, nearest first: entries with rank 1–3 and a message."""
    entries = (output or {}).get("sensitivity") or []
    worded = [
        e for e in entries
        if e.get("flips_at") is not None and e.get("rank") is not None
        and 1 <= e["rank"] <= NEAREST and e.get("message")
    ]
    return sorted(worded, key=lambda e: e["rank"])


def _identity(path: str, data: dict) -> tuple | None:
    """What a sensitivity path names, independent of list positions: ("sites", code, field),
    ("links", from, to, field), ("offers", id, field) or ("task", field)."""
    match = _PATH.match(path or "")
    if not match:
        return None
    field = match["field"]
    if match["list"] is None:
        return ("task", field)
    items = data.get(match["list"]) or []
    index = int(match["index"])
    if index >= len(items) or not isinstance(items[index], dict):
        return None
    item = items[index]
    if match["list"] == "sites":
        return ("sites", item.get("code"), field)
    if match["list"] == "links":
        return ("links", item.get("from"), item.get("to"), field)
    return ("offers", str(item.get("id")), field)


def _value(identity: tuple, data: dict) -> float | None:
    """The value of an identified input in a snapshot's input (None when it is not there)."""
    if identity[0] == "task":
        value = (data.get("task") or {}).get(identity[1])
    else:
        keys = {"sites": ("code",), "links": ("from", "to"), "offers": ("id",)}[identity[0]]
        wanted = identity[1:-1]
        item = next(
            (
                i for i in data.get(identity[0]) or []
                if tuple(str(i.get(k)) for k in keys) == tuple(str(w) for w in wanted)
            ),
            None,
        )
        value = None if item is None else item.get(identity[-1])
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _name(identity: tuple, data: dict) -> str:
    """The input's subject in the user's terms: a site code, a link's ends, an offer's name."""
    if identity[0] == "sites":
        return str(identity[1])
    if identity[0] == "links":
        return f"{identity[1]}–{identity[2]}"
    if identity[0] == "offers":
        offer = next(
            (o for o in data.get("offers") or [] if str(o.get("id")) == identity[1]), {}
        )
        return str(offer.get("name") or identity[1])
    return ""


def _crossed(before: float, after: float, at: float) -> bool:
    """Moved from one side of the flip point to the other (or onto it)."""
    if before == after or before == at:
        return False
    return (before - at) * (after - at) <= 0


def crossed_flips(
    input_a: dict | None, output_a: dict | None, input_b: dict | None, output_b: dict | None
) -> list[dict]:
    """Inputs that moved past a flip point between snapshot a (older) and b (newer).

    A flip point of a (the choice then) that b's value has passed; then one of b's that a's value
    lies beyond (the point moved past the value). Each: kind, name, flips_at, a, b, input."""
    input_a, input_b = input_a or {}, input_b or {}
    found: list[dict] = []
    seen: set[tuple] = set()
    for entries, own, other, forward in (
        ((output_a or {}).get("sensitivity") or [], input_a, input_b, True),
        ((output_b or {}).get("sensitivity") or [], input_b, input_a, False),
    ):
        for entry in entries:
            at = entry.get("flips_at")
            if at is None:
                continue
            identity = _identity(entry.get("input", ""), own)
            if identity is None or identity in seen:
                continue
            mine, theirs = _value(identity, own), _value(identity, other)
            if mine is None or theirs is None:
                continue
            before, after = (mine, theirs) if forward else (theirs, mine)
            if not _crossed(mine, theirs, at):
                continue
            seen.add(identity)
            found.append(
                {
                    "input": entry.get("input"),
                    "kind": _KINDS.get(identity[-1], identity[-1]),
                    "name": _name(identity, own),
                    "flips_at": at,
                    "a": before,
                    "b": after,
                }
            )
    return found


def flip_message(entry: dict[str, Any], language: str) -> str:
    """The engine's words for a flip in `language` (Chinese for zh*, else English)."""
    if (language or "en").lower().startswith("zh"):
        return entry.get("message_zh") or entry.get("message") or ""
    return entry.get("message") or ""
