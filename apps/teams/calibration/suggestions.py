"""Calibration, step 2: the threshold that best separates good from bad outcomes, in words.

A task is predicted bad when its value is above the threshold. Among the gaps between
consecutive labelled values, take the one that classifies the most tasks correctly (ties: the gap
nearest the current threshold) and suggest its midpoint rounded to two significant digits (more
when needed to stay inside the gap). No suggestion with fewer than MIN_LABELLED labelled tasks,
when every labelled task had the same outcome, when no value beats calling every task by the
majority outcome, or when the current threshold already does as well as the best value.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..thresholds import show
from .outcomes import BAD, GOOD, MIN_LABELLED


@dataclass
class Suggestion:
    status: str  # too_few | one_sided | no_separation | keep | suggest
    labelled: int
    needed: int = 0
    value: float | None = None
    correct: int = 0
    current_correct: int = 0
    n_good: int = 0
    n_bad: int = 0
    lo: float | None = None  # the gap the suggestion lies in: lo ≤ value < hi
    hi: float | None = None
    bad_above: int = 0
    good_below: int = 0


def correct_at(pairs: list[tuple[float, str]], threshold: float) -> int:
    """Labelled tasks classified right when "above the threshold" means bad."""
    return sum(
        1 for value, label in pairs if (label == BAD) == (value > threshold)
    )


def nice_between(lo: float, hi: float) -> float:
    """The midpoint of [lo, hi) rounded to 2 significant digits (more if needed to stay in)."""
    mid = (lo + hi) / 2
    if mid == 0:
        return 0.0
    exact = Decimal(repr(mid))
    for digits in range(2, 16):
        step = Decimal(1).scaleb(exact.adjusted() - digits + 1)
        rounded = float(exact.quantize(step, rounding=ROUND_HALF_UP))
        if lo <= rounded < hi:
            return rounded
    return mid


def suggest(
    pairs: list[tuple[float, str]], current: float, *, min_labelled: int = MIN_LABELLED
) -> Suggestion:
    """The threshold that best separates good (at or below) from bad (above) outcomes."""
    pairs = [(float(v), lab) for v, lab in pairs if v is not None and lab in (GOOD, BAD)]
    n = len(pairs)
    n_bad = sum(1 for _v, lab in pairs if lab == BAD)
    n_good = n - n_bad
    base = Suggestion(status="too_few", labelled=n, n_good=n_good, n_bad=n_bad)
    if n < min_labelled:
        base.needed = min_labelled - n
        return base
    base.current_correct = correct_at(pairs, current)
    if n_good == 0 or n_bad == 0:
        base.status = "one_sided"
        return base
    values = sorted({v for v, _lab in pairs})
    gaps = [(values[i], values[i + 1]) for i in range(len(values) - 1)]
    scored = [(correct_at(pairs, lo), lo, hi) for lo, hi in gaps]
    best = max(score for score, _lo, _hi in scored) if scored else 0
    base.correct = best
    if best <= max(n_good, n_bad):
        base.status = "no_separation"
        return base
    if base.current_correct >= best:
        base.status = "keep"
        return base

    def distance(gap: tuple[int, float, float]) -> float:
        _score, lo, hi = gap
        if current < lo:
            return lo - current
        if current >= hi:
            return current - hi
        return 0.0

    _score, lo, hi = min((g for g in scored if g[0] == best), key=distance)
    value = nice_between(lo, hi)
    base.status = "suggest"
    base.value = value
    base.lo, base.hi = lo, hi
    base.bad_above = sum(1 for v, lab in pairs if lab == BAD and v > value)
    base.good_below = sum(1 for v, lab in pairs if lab == GOOD and v <= value)
    return base


def reasoning(s: Suggestion, *, measure: str, current: float | None) -> str:
    """The suggestion in words, with its counts."""
    if s.status == "too_few":
        return ngettext(
            "Needs %(n)d more evaluated task with an outcome (%(have)d of %(min)d so far).",
            "Needs %(n)d more evaluated tasks with an outcome (%(have)d of %(min)d so far).",
            s.needed,
        ) % {"n": s.needed, "have": s.labelled, "min": s.labelled + s.needed}
    if s.status == "one_sided":
        outcome_word = _("good") if s.n_bad == 0 else _("bad")
        return _(
            "All %(n)d labelled tasks turned out %(outcome)s: there is nothing to separate yet, "
            "so no suggestion."
        ) % {"n": s.labelled, "outcome": outcome_word}
    if s.status == "no_separation":
        return _(
            "Of %(n)d labelled tasks (%(bad)d bad, %(good)d good), no value of the %(measure)s "
            "separates bad from good outcomes better than calling them all alike: bad outcomes "
            "are not the high ones here. No suggestion."
        ) % {"n": s.labelled, "bad": s.n_bad, "good": s.n_good, "measure": measure}
    if s.status == "keep":
        return _(
            "The current %(current)s classifies %(correct)d of %(n)d labelled tasks correctly; "
            "no other value does better, so keep it."
        ) % {"current": show(current), "correct": s.current_correct, "n": s.labelled}
    if s.correct == s.labelled:
        return _(
            "Of %(n)d labelled tasks, the %(measure)s of all %(bad)d bad ones was %(hi)s or more; "
            "the %(good)d good ones had at most %(lo)s → suggest %(value)s "
            "(the current %(current)s gets %(current_correct)d of %(n)d right)."
        ) % {
            "n": s.labelled, "bad": s.n_bad, "good": s.n_good, "measure": measure,
            "hi": show(s.hi, 4), "lo": show(s.lo, 4), "value": show(s.value),
            "current": show(current), "current_correct": s.current_correct,
        }
    return _(
        "Of %(n)d labelled tasks, %(bad_above)d of %(bad)d bad ones lie above %(value)s and "
        "%(good_below)d of %(good)d good ones at or below it: %(correct)d right, against "
        "%(current_correct)d with the current %(current)s → suggest %(value)s."
    ) % {
        "n": s.labelled, "bad_above": s.bad_above, "bad": s.n_bad, "value": show(s.value),
        "good_below": s.good_below, "good": s.n_good, "correct": s.correct,
        "current_correct": s.current_correct, "current": show(current),
    }
