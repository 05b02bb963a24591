"""The memory breakdown (SPEC 6.3 `sizing.breakdown`) as a stacked bar against each offer's usable
GPU memory: the geometry in percent of one axis, so the template draws it with SVG attributes (the
CSP forbids style attributes) and says every figure in words beside it."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext_lazy as _

# The parts in the engine's order (SPEC 6.3), each with its words.
PARTS = (
    ("weights", _("Weights")),
    ("gradients", _("Gradients")),
    ("optimizer", _("Optimizer state")),
    ("activations", _("Activations")),
    ("kv_cache", _("KV cache")),
    ("overhead", _("Overhead")),
)
# A part narrower than this share of the axis keeps its words in the legend only.
LABEL_MIN_PCT = 12.0


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k at or above `value` (an axis end a reader can read)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value * (1 - 1e-12):
            return step * power
    return 10 * power  # pragma: no cover (10 × power always covers value)


def _pct(gb: float, scale: float) -> float:
    return 100.0 * gb / scale


def _fmt(pct: float) -> str:
    """A percentage for an SVG attribute: a dot decimal whatever the language."""
    return f"{pct:.3f}"


def memory_bar(breakdown: dict | None, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The bar of one replica's memory, or None without a breakdown (a measured peak, or no
    formula). `rows` are the sizing rows (offer name and usable_gpu_mem_gb). One marker per
    distinct usable memory figure, naming its offers, at its place on the same axis."""
    if not breakdown:
        return None
    parts = []
    total = 0.0
    for key, words in PARTS:
        gb = float(breakdown.get(key) or 0.0)
        parts.append({"key": key, "label": words, "gb": gb})
        total += gb
    usable: dict[float, list[str]] = {}
    for row in rows:
        gb = row.get("usable_gpu_mem_gb")
        if gb is not None:
            usable.setdefault(round(float(gb), 1), []).append(row.get("offer_name") or row["offer"])
    scale = nice_ceiling(max([total, *usable]))
    start = 0.0
    for part in parts:
        width = _pct(part["gb"], scale)
        part["share"] = 100.0 * part["gb"] / total if total else 0.0
        part["x"], part["width"] = _fmt(start), _fmt(width)
        part["mid"] = _fmt(start + width / 2)
        part["labelled"] = width >= LABEL_MIN_PCT
        start += width
    markers = []
    for index, (gb, offers) in enumerate(sorted(usable.items())):
        pct = _pct(gb, scale)
        anchor = "end" if pct > 85 else "start" if pct < 15 else "middle"
        markers.append(
            {
                "gb": gb,
                "x": _fmt(pct),
                "anchor": anchor,
                "row": index % 2,  # alternate label rows so that close markers stay legible
                "offers": offers,
                "fits": total <= gb,
            }
        )
    ticks = [{"gb": scale * i / 4, "x": _fmt(25.0 * i)} for i in range(5)]
    return {
        "parts": parts,
        "drawn": [p for p in parts if p["gb"] > 0],
        "total_gb": total,
        "scale_gb": scale,
        "markers": markers,
        "ticks": ticks,
    }
