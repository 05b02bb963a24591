"""The one set of rules for a benchmark record, whichever way it arrives (form, CSV, API).

`benchmark_clean` takes raw values (strings from a form or a CSV cell, numbers from JSON, model
instances from a bound Django form) and returns the model field values, or raises
`BenchmarkValidationError` naming every offending field.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.catalog.models import Tier
from apps.web.ingest import (
    FieldErrors,
    blank,
    parse_float,
    parse_int,
    refuse_nul,
)

from .lookups import TeamLookups
from .models import BenchmarkKind, Recovery

TIMED_KINDS = (BenchmarkKind.SINGLE, BenchmarkKind.MULTI)
TIMED_FIELDS = (
    "nodes",
    "gpus_per_node",
    "e2e_hours",
    "compute_hours",
    "transfer_hours",
    "queue_hours",
    "comm_hours",
    "peak_gpu_mem_gb",
    "failure_reruns",
    "hours_lost_per_rerun",
    "recovery",
    "cost",
)
PROBE_FIELDS = ("from_site", "to_site", "bandwidth_gbps", "rtt_ms")
PILOT_FIELDS = ("tier", "succeeded", "migration_effort_hours")
# SPEC 6.4: a preprocessing run at the data's site; its cost is per hour, like the profile's.
PREPROCESS_FIELDS = ("site", "preprocess_hours", "input_gb", "output_gb",
                     "preprocess_cost_per_hour")

# The fields a record of each kind carries; the others keep their neutral defaults.
FIELDS_BY_KIND: dict[str, tuple[str, ...]] = {
    BenchmarkKind.SINGLE: ("task", "offer", *TIMED_FIELDS, "notes"),
    # The retrofit effort of going multi-machine is weighed by B3 against the hours saved.
    BenchmarkKind.MULTI: ("task", "offer", *TIMED_FIELDS, "migration_effort_hours", "notes"),
    BenchmarkKind.NETWORK_PROBE: ("task", "offer", *PROBE_FIELDS, "notes"),
    BenchmarkKind.PILOT_MIGRATION: ("task", "offer", *PILOT_FIELDS, "notes"),
    BenchmarkKind.PREPROCESS: ("task", *PREPROCESS_FIELDS, "notes"),
}
REQUIRED_BY_KIND: dict[str, tuple[str, ...]] = {
    BenchmarkKind.SINGLE: ("task", "offer", "e2e_hours", "compute_hours"),
    BenchmarkKind.MULTI: ("task", "offer", "e2e_hours", "compute_hours"),
    BenchmarkKind.NETWORK_PROBE: ("task", "from_site", "to_site", "bandwidth_gbps", "rtt_ms"),
    BenchmarkKind.PILOT_MIGRATION: ("task", "tier", "succeeded"),
    BenchmarkKind.PREPROCESS: ("task", *PREPROCESS_FIELDS),
}
# Values of the fields a kind does not carry.
NEUTRAL = {
    "offer": None,
    "nodes": 1,
    "gpus_per_node": 1,
    "e2e_hours": 0.0,
    "compute_hours": 0.0,
    "transfer_hours": 0.0,
    "queue_hours": 0.0,
    "comm_hours": None,
    "peak_gpu_mem_gb": None,
    "failure_reruns": 0,
    "hours_lost_per_rerun": 0.0,
    "recovery": Recovery.FULL_RERUN,
    "cost": None,
    "from_site": None,
    "to_site": None,
    "bandwidth_gbps": None,
    "rtt_ms": None,
    "tier": "",
    "succeeded": None,
    "migration_effort_hours": None,
    "site": None,
    "preprocess_hours": None,
    "input_gb": None,
    "output_gb": None,
    "preprocess_cost_per_hour": None,
    "notes": "",
}
# Numbers: (minimum, minimum is exclusive).
FLOAT_FIELDS = {
    "e2e_hours": (0.0, False),
    "compute_hours": (0.0, False),
    "transfer_hours": (0.0, False),
    "queue_hours": (0.0, False),
    "comm_hours": (0.0, False),
    "peak_gpu_mem_gb": (0.0, False),
    "hours_lost_per_rerun": (0.0, False),
    "cost": (0.0, False),
    "bandwidth_gbps": (0.0, True),
    "rtt_ms": (0.0, False),
    "migration_effort_hours": (0.0, False),
    "preprocess_hours": (0.0, True),
    "input_gb": (0.0, True),
    "output_gb": (0.0, True),
    "preprocess_cost_per_hour": (0.0, False),
}
INT_FIELDS = {"nodes": 1, "gpus_per_node": 1, "failure_reruns": 0}
# Integers far above any real cluster are typos (and would overflow the column).
INT_MAX = 1_000_000
NOTES_MAX_LENGTH = 4000
TRUE_WORDS = {"yes", "y", "true", "1", "on", "succeeded", "success"}
FALSE_WORDS = {"no", "n", "false", "0", "off", "failed", "failure"}


class BenchmarkValidationError(FieldErrors):
    """Every offending field with its messages: {"field": ["message", …]}."""


_blank = blank


def parse_bool(value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ValueError(_("Answer yes or no."))


def _choice(value, choices) -> str:
    text = str(value).strip()
    if text not in {c.value for c in choices}:
        raise ValueError(_("Not a valid choice: %(value)s.") % {"value": text[:40]})
    return text


def benchmark_clean(*, team: Team, data: dict, lookups: TeamLookups | None = None) -> dict:
    """The model field values of a record from raw `data`, or BenchmarkValidationError.

    Rules: the kind decides which fields are required and kept; no negative figure, every number
    finite; nodes and GPUs per node ≥ 1; end-to-end ≥ compute; a single-machine run has one node
    and a multi-machine run at least two; a probe names two different sites of the team, a
    bandwidth > 0 and an RTT ≥ 0; a pilot names a tier and whether it succeeded; a
    preprocessing run names a site of the team, hours, input and output GB (all > 0) and a cost
    per hour ≥ 0 (output larger than input is a warning: `benchmark_warnings`). A field the kind
    does not carry, given a value, is an error (blank is fine: a CSV row has every column).
    """
    lookups = lookups or TeamLookups(team)
    errors: dict[str, list[str]] = {}

    def fail(name: str, message: str) -> None:
        errors.setdefault(name, []).append(message)

    raw_kind = data.get("kind")
    if _blank(raw_kind):
        fail("kind", _("This field is required."))
        raise BenchmarkValidationError(errors)
    try:
        kind = _choice(raw_kind, BenchmarkKind)
    except ValueError as exc:
        fail("kind", str(exc))
        raise BenchmarkValidationError(errors) from None

    values: dict = dict(NEUTRAL)
    values["kind"] = kind
    carried = FIELDS_BY_KIND[kind]
    required = REQUIRED_BY_KIND[kind]
    _refuse_foreign(kind, data, fail)
    for name in carried:
        raw = data.get(name)
        if _blank(raw):
            if name in required:
                fail(name, _("This field is required for this kind of record."))
            continue
        try:
            refuse_nul(raw)
            values[name] = _parse_field(name, raw, lookups)
        except ValueError as exc:
            fail(name, str(exc))

    if kind in TIMED_KINDS:
        _check_timed(kind, values, errors, fail)
    elif kind == BenchmarkKind.NETWORK_PROBE:
        if (
            values["from_site"] is not None
            and values["to_site"] is not None
            and values["from_site"].pk == values["to_site"].pk
        ):
            fail("to_site", _("A probe measures between two different sites."))
    if errors:
        raise BenchmarkValidationError(errors)
    return values


def _refuse_foreign(kind: str, data: dict, fail) -> None:
    """A figure of another kind of record (a bandwidth on a pilot, a preprocessing output on a
    timed run) is an error naming the field: never dropped without a word."""
    carried = FIELDS_BY_KIND[kind]
    for name in (n for n in NEUTRAL if n not in carried):
        if not _blank(data.get(name)):
            fail(name, _("Not a field of this kind of record (%(kind)s): leave it empty.")
                 % {"kind": BenchmarkKind(kind).label})


def benchmark_warnings(values: dict) -> dict[str, list[str]]:
    """What is allowed but worth a second look, by field: a preprocessing run whose output is
    larger than its input (a staged plan shipping it then costs more than shipping the raw)."""
    warnings: dict[str, list[str]] = {}
    if values.get("kind") != BenchmarkKind.PREPROCESS:
        return warnings
    output_gb, input_gb = values.get("output_gb"), values.get("input_gb")
    if output_gb is not None and input_gb is not None and output_gb > input_gb:
        warnings["output_gb"] = [
            _("The output (%(out)s GB) is larger than the input (%(in)s GB): shipping it costs "
              "more than shipping the raw data. Check the figures.")
            % {"out": f"{output_gb:g}", "in": f"{input_gb:g}"}
        ]
    return warnings


def record_warnings(record) -> dict[str, list[str]]:
    """`benchmark_warnings` of a saved record (its detail page and the API show them)."""
    return benchmark_warnings(
        {"kind": record.kind, "input_gb": record.input_gb, "output_gb": record.output_gb}
    )


def _check_timed(kind: str, values: dict, errors: dict, fail) -> None:
    if "nodes" not in errors:
        if kind == BenchmarkKind.SINGLE and values["nodes"] != 1:
            fail("nodes", _("A single-machine run has exactly one node."))
        if kind == BenchmarkKind.MULTI and values["nodes"] < 2:
            fail("nodes", _("A multi-machine run needs at least two nodes."))
    if (
        "e2e_hours" not in errors
        and "compute_hours" not in errors
        and values["e2e_hours"] < values["compute_hours"]
    ):
        fail("e2e_hours", _("End-to-end hours must be at least the compute hours."))
    if "e2e_hours" not in errors and values["e2e_hours"] == 0:
        fail("e2e_hours", _("A measured run takes more than zero hours end to end."))
    comm = values["comm_hours"]
    if comm is not None and "comm_hours" not in errors and "e2e_hours" not in errors:
        if comm > values["e2e_hours"]:
            fail("comm_hours", _("Communication hours cannot exceed the end-to-end hours."))


def _parse_field(name: str, raw, lookups: TeamLookups):
    if name in FLOAT_FIELDS:
        number = parse_float(raw)
        minimum, exclusive = FLOAT_FIELDS[name]
        if exclusive and number <= minimum:
            raise ValueError(_("Must be more than zero."))
        if number < minimum:
            raise ValueError(_("Must be zero or more (no negative figures)."))
        return number
    if name in INT_FIELDS:
        number = parse_int(raw)
        minimum = INT_FIELDS[name]
        if number < minimum:
            if minimum == 1:
                raise ValueError(_("Must be at least 1."))
            raise ValueError(_("Must be zero or more (no negative figures)."))
        if number > INT_MAX:
            raise ValueError(_("Too large."))
        return number
    if name == "task":
        found = lookups.task(raw)
        if found is None:
            raise ValueError(_("Unknown task: not a task profile of your team."))
        return found
    if name == "offer":
        found = lookups.offer(raw)
        if found is None:
            raise ValueError(_("Unknown offer: not an offer of your team."))
        return found
    if name in ("from_site", "to_site", "site"):
        found = lookups.site(raw)
        if found is None:
            raise ValueError(_("Unknown site: not a site of your team."))
        return found
    if name == "recovery":
        return _choice(raw, Recovery)
    if name == "tier":
        return _choice(raw, Tier)
    if name == "succeeded":
        return parse_bool(raw)
    if name == "notes":
        text = str(raw).strip()
        if len(text) > NOTES_MAX_LENGTH:
            raise ValueError(_("Too long (at most %(n)s characters).") % {"n": NOTES_MAX_LENGTH})
        return text
    raise ValueError(f"unexpected field {name}")  # a programming error, never user input
