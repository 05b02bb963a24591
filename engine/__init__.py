"""The scoring engine of compute selection reviews (SPEC 3 and 4).

A pure package: no Django, no settings, no I/O. ``evaluate(dict) -> dict`` is the whole contract;
``docs/engine.md`` describes the pipeline, the rules and the decisions taken where SPEC is silent.
"""

from .evaluate import evaluate, evaluate_input
from .hints import staged_shipment
from .messages import MESSAGES
from .network import tier_between
from .output import EngineOutput
from .pricing import effective_gpu_hour_price
from .schema import DEFAULT_THRESHOLDS, ENGINE_VERSION, EngineInput, EngineInputError
from .signoff import signoff_check
from .validation import parse_input

__all__ = [
    "DEFAULT_THRESHOLDS",
    "ENGINE_VERSION",
    "MESSAGES",
    "EngineInput",
    "EngineInputError",
    "EngineOutput",
    "effective_gpu_hour_price",
    "evaluate",
    "evaluate_input",
    "parse_input",
    "signoff_check",
    "staged_shipment",
    "tier_between",
]
