"""Calibrate the four indicators (SPEC M) on the team's own history.

For each evaluated task: the indicator values of its deciding snapshot, and what happened after
(an outcome label). For each indicator with a numeric threshold: the value that best separates
good from bad outcomes, with its reasoning in words. Pure functions: the selector
(`selectors.calibration_points`) reads the database and hands plain values in.

Outcome labels (written down in docs/decisions.md):
- bad: the review was rejected; a pilot migration of the task failed; a run on the chosen offer
  recorded after the decision took more than 1.2 × the plan's total hours; or such a run needed
  full reruns after failures.
- good (only when the review was approved and nothing bad is recorded): a pilot migration
  succeeded; a later run finished within 1.2 × the plan; or a later multi-machine run was faster
  than the fastest single-machine run.
- unknown: anything else. Unknown points are drawn but never used for a suggestion.

Suggestion: a task is predicted bad when its value is above the threshold. Among the gaps between
consecutive labelled values, take the one that classifies the most tasks correctly (ties: the gap
nearest the current threshold) and suggest its midpoint rounded to two significant digits (more
when needed to stay inside the gap). No suggestion with fewer than MIN_LABELLED labelled tasks,
when every labelled task had the same outcome, when no value beats calling every task by the
majority outcome, or when the current threshold already does as well as the best value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..thresholds import show

GOOD, BAD, UNKNOWN = "good", "bad", "unknown"
SLOWER_FACTOR = 1.2
MIN_LABELLED = 5

COLORS = {GOOD: "#1e8e4f", BAD: "#c22a2a", UNKNOWN: "#a0a9bb"}
CURRENT_COLOR = "#111a2e"
SUGGESTED_COLOR = "#1f4fd1"

REASONS = {
    "rejected": gettext_lazy("review rejected"),
    "pilot_failed": gettext_lazy("a pilot migration failed"),
    "slower": gettext_lazy("a run took over 1.2 × the planned hours"),
    "full_reruns": gettext_lazy("a run needed full reruns after failures"),
    "pilot_succeeded": gettext_lazy("a pilot migration succeeded"),
    "on_plan": gettext_lazy("a run finished within the plan"),
    "multi_faster": gettext_lazy("multi-machine was faster than single"),
    "no_evidence": gettext_lazy("no outcome recorded yet"),
}


def decisive_rank(review_state: str) -> int:
    """Which review speaks for a task: an approved one first, then a rejected one, then any."""
    return {"approved": 0, "rejected": 1}.get(review_state, 2)


@dataclass
class TaskPoint:
    task_id: int
    task_name: str
    review_id: int
    review_title: str
    review_state: str
    label: str
    reasons: list[str]
    data_compute_ratio: float | None = None
    network_cost_share: float | None = None
    interruption_cost: float | None = None
    scheduling_benefit: float | None = None
    interruption_cost_hours: float | None = None
    over_budget: list[str] = field(default_factory=list)

    @property
    def reason_labels(self) -> list[str]:
        return [str(REASONS[r]) for r in self.reasons]


def _later(record: dict, reference_time) -> bool:
    recorded = record.get("recorded_at")
    return reference_time is None or (recorded is not None and recorded > reference_time)


def outcome(
    *,
    review_state: str,
    reference_time=None,
    chosen_offer: str | None = None,
    planned_hours: float | None = None,
    records: list[dict] = (),
) -> tuple[str, list[str]]:
    """(label, reason codes) of one task; see the module docstring for the rules."""
    bad: list[str] = []
    good: list[str] = []
    if review_state == "rejected":
        bad.append("rejected")
    for record in records:
        if record["kind"] == "pilot_migration":
            if record.get("succeeded") is False:
                bad.append("pilot_failed")
            elif record.get("succeeded") is True:
                good.append("pilot_succeeded")
    runs = [
        r for r in records
        if r["kind"] in ("single", "multi")
        and chosen_offer
        and str(r.get("offer_id")) == str(chosen_offer)
    ]
    singles = [r["e2e_hours"] for r in runs if r["kind"] == "single" and r["e2e_hours"] > 0]
    best_single = min(singles) if singles else None
    for run in runs:
        if not _later(run, reference_time):
            continue
        e2e = run["e2e_hours"]
        if planned_hours:
            if e2e > planned_hours * SLOWER_FACTOR:
                bad.append("slower")
            else:
                good.append("on_plan")
        if run["kind"] == "multi" and best_single and e2e > 0 and best_single / e2e > 1:
            good.append("multi_faster")
        if run.get("failure_reruns", 0) > 0 and run.get("recovery") == "full_rerun":
            bad.append("full_reruns")
    if bad:
        return BAD, list(dict.fromkeys(bad))
    if review_state == "approved" and good:
        return GOOD, list(dict.fromkeys(good))
    return UNKNOWN, list(dict.fromkeys(good)) or ["no_evidence"]


def _float(value) -> float | None:
    return None if value is None else float(value)


def task_point(
    *,
    task_id: int,
    task_name: str,
    review_id: int,
    review_title: str,
    review_state: str,
    reference_time,
    chosen_offer: str | None,
    planned_hours: float | None,
    metrics: dict,
    interruption_cost_hours: float | None,
    records: list[dict],
) -> TaskPoint:
    label, reasons = outcome(
        review_state=review_state,
        reference_time=reference_time,
        chosen_offer=chosen_offer,
        planned_hours=planned_hours,
        records=records,
    )
    return TaskPoint(
        task_id=task_id,
        task_name=task_name,
        review_id=review_id,
        review_title=review_title,
        review_state=review_state,
        label=label,
        reasons=reasons,
        data_compute_ratio=_float(metrics.get("data_compute_ratio")),
        network_cost_share=_float(metrics.get("network_cost_share")),
        interruption_cost=_float(metrics.get("interruption_cost")),
        scheduling_benefit=_float(metrics.get("scheduling_benefit")),
        interruption_cost_hours=_float(interruption_cost_hours),
        over_budget=list(metrics.get("over_budget") or []),
    )


# Suggestion


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


# Figures (Plotly JSON, drawn by static/js/app.js)


def _outcome_names() -> dict[str, str]:
    return {GOOD: _("good"), BAD: _("bad"), UNKNOWN: _("unknown")}


def _vline(x: float, color: str, dash: str) -> dict[str, Any]:
    return {
        "type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
        "line": {"color": color, "width": 2, "dash": dash},
    }


def _line_label(x: float, text: str, color: str, y: float, anchor: str) -> dict[str, Any]:
    return {
        "x": x, "y": y, "xref": "x", "yref": "paper", "text": text, "showarrow": False,
        "font": {"color": color, "size": 11}, "xanchor": anchor, "yanchor": "bottom",
    }


def strip_figure(
    values: list[tuple[float, str, str]],
    *,
    axis: str,
    current: float | None,
    suggested: float | None,
) -> dict[str, Any]:
    """One dot per task (x = the indicator, y = its outcome), with the threshold lines."""
    names = _outcome_names()
    data = []
    for label in (BAD, UNKNOWN, GOOD):
        dots = [(v, name) for v, lab, name in values if lab == label]
        if not dots:
            continue
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": names[label],
                "x": [v for v, _n in dots],
                "y": [names[label]] * len(dots),
                "text": [n for _v, n in dots],
                "hovertemplate": "%{text}<br>%{x:.3g}<extra></extra>",
                "marker": {
                    "color": COLORS[label], "size": 12, "opacity": 0.85,
                    "line": {"width": 1, "color": "#ffffff"},
                },
            }
        )
    shapes, annotations = [], []
    # The lower line's label leans left, the higher one's right, so the two never overlap.
    lower = suggested is not None and current is not None and suggested < current
    if current is not None:
        shapes.append(_vline(current, CURRENT_COLOR, "solid"))
        annotations.append(
            _line_label(current, _("current %(v)s") % {"v": show(current)}, CURRENT_COLOR, 1.0,
                        "left" if lower or suggested is None else "right")
        )
    if suggested is not None:
        shapes.append(_vline(suggested, SUGGESTED_COLOR, "dash"))
        annotations.append(
            _line_label(suggested, _("suggested %(v)s") % {"v": show(suggested)},
                        SUGGESTED_COLOR, 1.0, "right" if lower else "left")
        )
    return {
        "data": data,
        "layout": {
            "height": 280,
            "showlegend": False,
            "margin": {"t": 28, "r": 16, "b": 48, "l": 72},
            "xaxis": {"title": {"text": axis}, "zeroline": False, "rangemode": "tozero"},
            "yaxis": {
                "type": "category",
                "categoryorder": "array",
                "categoryarray": [names[BAD], names[UNKNOWN], names[GOOD]],
            },
            "shapes": shapes,
            "annotations": annotations,
            "hovermode": "closest",
        },
    }


def over_budget_figure(points: list[TaskPoint]) -> dict[str, Any]:
    """M3 has no team threshold: tasks by number of segments over budget, per outcome."""
    names = _outcome_names()
    buckets = ["0", "1", "2", "3"]
    data = []
    for label in (GOOD, BAD, UNKNOWN):
        counts = [0, 0, 0, 0]
        for p in points:
            if p.label == label:
                counts[min(len(p.over_budget), 3)] += 1
        if any(counts):
            data.append(
                {
                    "type": "bar", "name": names[label], "x": buckets, "y": counts,
                    "marker": {"color": COLORS[label]},
                    "hovertemplate": "%{y}<extra>%{fullData.name}</extra>",
                }
            )
    return {
        "data": data,
        "layout": {
            "height": 280,
            "barmode": "group",
            "margin": {"t": 28, "r": 16, "b": 48, "l": 56},
            "legend": {"orientation": "h", "x": 1, "xanchor": "right", "y": 1.02,
                       "yanchor": "bottom"},
            "xaxis": {"title": {"text": _("segments over their latency budget")},
                      "type": "category"},
            "yaxis": {"title": {"text": _("tasks")}, "rangemode": "tozero", "dtick": 1},
        },
    }


# The four indicators: which figure of a task, which team threshold.
INDICATORS = (
    {
        "code": "M1", "attr": "data_compute_ratio", "key": "data_compute_high",
        "title": gettext_lazy("M1 · data/compute ratio"),
        "axis": gettext_lazy("input GB per compute hour"),
        "measure": gettext_lazy("data/compute ratio"),
    },
    {
        "code": "M2", "attr": "interruption_cost_hours", "key": "interruption_cost_hours",
        "title": gettext_lazy("M2 · interruption cost"),
        "axis": gettext_lazy("work lost by one interruption (hours)"),
        "measure": gettext_lazy("interruption cost"),
    },
    {
        "code": "M3", "attr": None, "key": None,
        "title": gettext_lazy("M3 · latency budget"),
        "axis": "",
        "measure": gettext_lazy("latency budget"),
    },
    {
        "code": "M4", "attr": "network_cost_share", "key": "network_cost_share",
        "title": gettext_lazy("M4 · network cost share"),
        "axis": gettext_lazy("transfer cost ÷ total cost of the chosen option"),
        "measure": gettext_lazy("network cost share"),
    },
)


def indicators(points: list[TaskPoint], current: dict[str, float]) -> list[dict[str, Any]]:
    """Per indicator: its values, the current and suggested thresholds, reasoning and figure."""
    out = []
    for spec in INDICATORS:
        code = spec["code"]
        title = str(spec["title"])
        item: dict[str, Any] = {"code": code, "title": title, "key": spec["key"],
                                "chart_id": f"calibration-{code.lower()}"}
        if spec["key"] is None:
            labelled = [p for p in points if p.label != UNKNOWN]
            item.update(
                {
                    "current": None,
                    "suggestion": None,
                    "reasoning": _(
                        "Latency budgets are set per task, so there is no team threshold to "
                        "calibrate. Of %(n)d labelled tasks, %(over)d had a segment over budget "
                        "(%(bad)d of them turned out bad)."
                    ) % {
                        "n": len(labelled),
                        "over": sum(1 for p in labelled if p.over_budget),
                        "bad": sum(1 for p in labelled if p.over_budget and p.label == BAD),
                    },
                    "figure": over_budget_figure(points),
                    "values": len(points),
                }
            )
            out.append(item)
            continue
        attr = spec["attr"]
        current_value = current[spec["key"]]
        values = [
            (getattr(p, attr), p.label, p.task_name) for p in points if getattr(p, attr) is not None
        ]
        suggestion = suggest([(v, lab) for v, lab, _n in values], current_value)
        item.update(
            {
                "current": current_value,
                "suggestion": suggestion,
                "reasoning": reasoning(suggestion, measure=str(spec["measure"]),
                                       current=current_value),
                "current_text": show(current_value),
                "suggested_text": show(suggestion.value),
                "figure": strip_figure(
                    values,
                    axis=str(spec["axis"]),
                    current=current_value,
                    suggested=suggestion.value,
                ),
                "values": len(values),
            }
        )
        out.append(item)
    return out
