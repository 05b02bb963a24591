"""Calibrate the four indicators (SPEC M) on the team's own history, in four steps:

1. `outcomes`: for each evaluated task, the indicator values of its deciding snapshot and what
   happened after (good, bad, unknown);
2. `suggestions`: per indicator with a numeric threshold, the value that best separates good from
   bad outcomes, with its reasoning in words;
3. `figures`: the strip and bar charts;
4. `indicators`: the four indicators as the calibration page shows them.

Pure functions: the selector (`history.calibration_points`) reads the database and hands plain
values in; `history` is that reader. This package's face hands on the names its callers use.
"""

from .indicators import INDICATORS, indicators
from .outcomes import (
    BAD,
    GOOD,
    MIN_LABELLED,
    UNKNOWN,
    TaskPoint,
    decisive_rank,
    outcome,
    task_point,
)
from .suggestions import Suggestion, nice_between, suggest

__all__ = [
    "BAD", "GOOD", "INDICATORS", "MIN_LABELLED", "UNKNOWN", "Suggestion", "TaskPoint",
    "decisive_rank", "indicators", "nice_between", "outcome", "suggest", "task_point",
]
