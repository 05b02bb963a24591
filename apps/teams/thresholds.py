"""The engine thresholds a team may override (SPEC M/A/X/P, 6.1 R6/R7/T, 7.2): labels, units and
allowed ranges.

The keys and defaults come from the engine (`engine.DEFAULT_THRESHOLDS`); this table adds what the
settings page and the services need to show and check them. Ranges are a little stricter than the
engine's own validation, so a value the settings accept is always one the engine accepts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

import engine


@dataclass(frozen=True)
class ThresholdSpec:
    key: str
    label: str
    rule: str
    unit: str
    help: str
    minimum: float
    maximum: float
    # True: the value must be strictly above `minimum` (shares, headroom).
    above_minimum: bool = False
    # True: an amount of money; `unit` names the team's currency as %(currency)s.
    money: bool = False

    def unit_for(self, currency: str) -> str:
        """The unit as shown to a team (money in the team's currency)."""
        return str(self.unit) % {"currency": currency} if self.money else str(self.unit)


SHARE = dict(minimum=0.0, maximum=1.0, above_minimum=True)
HOURS = dict(minimum=0.0, maximum=10_000.0)
RATIO = dict(minimum=0.0, maximum=1_000_000.0)
# A jitter margin of ten times the transfer time is a typo, not a network.
BUFFER = dict(minimum=0.0, maximum=10.0)

SPECS: dict[str, ThresholdSpec] = {
    spec.key: spec
    for spec in (
        ThresholdSpec(
            "data_compute_high", _("Data/compute ratio: data-heavy from"), "M1", _("GB/h"),
            _("At or above it, the method says: move compute toward the data."), **RATIO,
        ),
        ThresholdSpec(
            "data_compute_low", _("Data/compute ratio: light below"), "M1", _("GB/h"),
            _("Below it, the task is light and can be scheduled freely."), **RATIO,
        ),
        ThresholdSpec(
            "network_cost_share", _("Network cost share"), "M4", _("share of the total"),
            _("Above it, transfers cost too much of the bill: compress, move compute, or find "
              "nearer resources."), **SHARE,
        ),
        ThresholdSpec(
            "interruption_cost_hours", _("Interruption cost without resume"), "G3", _("hours"),
            _("A task that cannot resume may move off-site only if one interruption loses at "
              "most this much work."), **HOURS,
        ),
        ThresholdSpec(
            "headroom", _("GPU memory headroom"), "A", _("share of GPU memory"),
            _("Part of each GPU's memory the task may plan to use."), **SHARE,
        ),
        ThresholdSpec(
            "near_capacity_band", _("Near-capacity band"), "A", _("share of machine memory"),
            _("A task within this band of a machine's usable memory is near capacity."), **SHARE,
        ),
        ThresholdSpec(
            "buffer_same_site", _("Transfer buffer, same site"), "P", _("share of transfer time"),
            _("Jitter margin added to transfers within one site (used when a link has none)."),
            **BUFFER,
        ),
        ThresholdSpec(
            "buffer_same_datacenter", _("Transfer buffer, same datacenter"), "P",
            _("share of transfer time"),
            _("Jitter margin added to transfers within one datacenter."), **BUFFER,
        ),
        ThresholdSpec(
            "buffer_same_city", _("Transfer buffer, same city"), "P", _("share of transfer time"),
            _("Jitter margin added to transfers within one city."), **BUFFER,
        ),
        ThresholdSpec(
            "buffer_cross_hub", _("Transfer buffer, cross hub"), "P", _("share of transfer time"),
            _("Jitter margin added to transfers between hubs."), **BUFFER,
        ),
        ThresholdSpec(
            "loose_cross_hub_hours", _("Loose coupling: cross hub from"), "X", _("hours"),
            _("A loosely coupled task may be spread over pools across hubs only when it computes "
              "at least this long and can resume."), **HOURS,
        ),
        ThresholdSpec(
            "scaling_efficiency_min", _("Scaling efficiency that counts as a clear gain"), "R6",
            _("share of ideal speedup"),
            _("When a recurring task's multi-machine run is faster than its single-machine run on "
              "the same offer with at least this scaling efficiency (speedup ÷ GPU ratio), the "
              "method makes the distributed job a standard part."), **SHARE,
        ),
        ThresholdSpec(
            "long_run_hours", _("Long run without resume from"), "R7", _("hours"),
            _("A job on more than one machine that computes at least this long and cannot resume "
              "gets a warning: one node failure reruns all of it, so the distributed layer must "
              "give resume or partial retry."),
            **HOURS,
        ),
        ThresholdSpec(
            "engineer_hour_cost", _("Cost of one engineer hour"), "T",
            _("%(currency)s per engineer hour"),
            _("Prices the migration effort (Q5 or the pilots' effort) on its own line of the "
              "bill, spread over the runs it serves; 0 leaves the migration unpriced."),
            minimum=0.0, maximum=1_000_000.0, money=True,
        ),
        ThresholdSpec(
            "multi_machine_efficiency", _("Scaling efficiency assumed beyond one machine"),
            "A", _("share of ideal speedup"),
            _("Deadline sizing: when no single/multi pair is measured, the fewest GPUs that meet "
              "the compute budget are found assuming this efficiency once the job spans more "
              "than one machine."), **SHARE,
        ),
        ThresholdSpec(
            "failure_rate_per_gpu_hour", _("Fleet failure rate"), "T",
            _("failures per GPU-hour"),
            _("Prices the expected rerun cost of a run (failures × hours lost each × hourly burn) "
              "when an offer's own records hold too few GPU-hours; 0 leaves reruns unpriced. "
              "Suggested: 2e-5, about what Llama 3's training saw (419 unexpected interruptions "
              "in 54 days on 16,384 GPUs; Meta, The Llama 3 Herd of Models, 2024)."),
            minimum=0.0, maximum=1.0,
        ),
        ThresholdSpec(
            "failure_evidence_gpu_hours", _("GPU-hours that make a failure rate"), "T",
            _("GPU-hours"),
            _("An offer's single and multi-machine runs count for its own failure rate and loss "
              "per failure once they hold at least this many GPU-hours; below it the fleet rate "
              "above is used."),
            minimum=1.0, maximum=1e9,
        ),
        ThresholdSpec(
            "scheduler_ops_hours_per_month", _("Scheduler operations hours a month"), "R1e",
            _("engineer hours a month"),
            _("What keeping a self-hosted distributed layer (scheduler) running takes each "
              "month. When the plan needs that layer and the team hosts it itself, each "
              "distributed candidate's bill adds these hours × the cost of one engineer hour ÷ "
              "the runs a month (a one-off job carries one month), so managed offers compare "
              "fairly; 0 leaves it unpriced."),
            minimum=0.0, maximum=744.0,
        ),
    )
}

# Every engine key has a spec, and no spec names a key the engine does not know.
if set(SPECS) != set(engine.DEFAULT_THRESHOLDS):
    raise RuntimeError("threshold specs are out of step with engine.DEFAULT_THRESHOLDS")


def default(key: str) -> float:
    return float(engine.DEFAULT_THRESHOLDS[key])


def effective(overrides: dict | None) -> dict[str, float]:
    """The values the engine uses for a team: its overrides over the defaults."""
    values = {key: float(value) for key, value in engine.DEFAULT_THRESHOLDS.items()}
    for key, value in (overrides or {}).items():
        if key in values:
            values[key] = float(value)
    return values


def range_error(key: str, value: float) -> str | None:
    """Why `value` is not allowed for `key` (None when it is)."""
    spec = SPECS[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return str(_("Enter a finite number (not NaN or infinity)."))
    if spec.above_minimum and not spec.minimum < value <= spec.maximum:
        # The minimum itself is refused too: say so whichever end was crossed.
        return str(
            _("Enter a number above %(min)s and at most %(max)s.")
            % {"min": show(spec.minimum), "max": show(spec.maximum)}
        )
    if value < spec.minimum or value > spec.maximum:
        return str(
            _("Enter a number from %(min)s to %(max)s.")
            % {"min": show(spec.minimum), "max": show(spec.maximum)}
        )
    return None


def show(value: float | None, digits: int = 6) -> str:
    """A threshold as people write it: 0.2, 100, 0.125, 1000000 (no float noise, no exponent for
    whole numbers, so the text reads back as the same number)."""
    if value is None:
        return "—"
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"
