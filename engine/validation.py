"""parse_input: turn the evaluate JSON (SPEC 4) into dataclasses, naming every bad field at once."""

from __future__ import annotations

from typing import Any

from .fields import (
    ANSWER_FIELDS,
    BUDGET_FIELDS,
    OBJECTS,
    TASK_FIELDS,
    TEAM_FIELDS,
    TOP_FIELDS,
)
from .plain_task import plain_task
from .reader import MIN_POSITIVE, MISSING, Reader
from .schema import (
    DEFAULT_THRESHOLDS,
    MAX_ERRORS,
    MAX_ITEMS,
    QUESTIONS,
    SHAPE_FIELDS,
    SHAPE_KEYS,
    EngineInput,
    EngineInputError,
    LatencyBudget,
    Task,
    Team,
)
from .table_read import read_field, read_fields, reader_plan
from .world import parse_benchmarks, parse_links, parse_offers, parse_sites, read_currency

ALL_ANSWERED = dict.fromkeys(QUESTIONS, "answered")


def _parse_budget(r: Reader, raw: Any, path: str) -> LatencyBudget:
    if raw is None or raw is MISSING:
        return LatencyBudget()
    data = r.obj(raw, path, BUDGET_FIELDS)
    if data is None:
        return LatencyBudget()
    return LatencyBudget(**read_fields(r, data, _BUDGET, path))


def _parse_team(r: Reader, raw: Any, path: str) -> Team:
    if raw is None or raw is MISSING:
        return Team()
    data = r.obj(raw, path, TEAM_FIELDS)
    if data is None:
        return Team()
    values = read_fields(r, data, _TEAM, path)
    if "same_site" not in values["validated_tiers"]:
        # same_site is always validated
        values["validated_tiers"] = ("same_site", *values["validated_tiers"])
    return Team(**values)


# SPEC 7.9: what the field table reads; by hand only the sites and the model shape (each needs
# other fields), and the budget and team objects (their own tables).
_BUDGET = reader_plan("task.latency_budget_hours")
_TEAM = reader_plan("task.team")
_TASK = reader_plan(
    "task",
    skip=frozenset(
        {"allowed_sites", "home_site", "data_site", "result_site", *SHAPE_FIELDS, "kv_heads"}
    ),
    nested={
        "latency_budget_hours": lambda r, t, key, p: _parse_budget(r, t.get(key), f"{p}.{key}"),
        "team": lambda r, t, key, p: _parse_team(r, t.get(key), f"{p}.{key}"),
    },
)


def _parse_shape(r: Reader, t: dict[str, Any], p: str) -> dict[str, Any]:
    """SPEC 6.3: batch, sequence length, hidden size, layers and heads (and kv_heads), each a
    positive integer, given together; heads divide hidden_size and kv_heads divide heads."""
    shape: dict[str, Any] = {}
    if SHAPE_KEYS.isdisjoint(t) or all(t.get(key) is None for key in SHAPE_KEYS):
        return shape  # no shape (the commonest case: the first test answers it)
    for key in (*SHAPE_FIELDS, "kv_heads"):
        if t.get(key) is None:
            if key != "kv_heads":
                together = ", ".join(SHAPE_FIELDS)
                r.error(f"{p}.{key}", f"is required with the other model shape fields ({together})")
            continue
        shape[key] = read_field(r, t, "task", key, p)
    hidden, heads, kv_heads = shape.get("hidden_size"), shape.get("heads"), shape.get("kv_heads")
    if hidden is not None and heads is not None and hidden % heads:
        r.error(f"{p}.heads", f"must divide hidden_size ({hidden})")
    if heads is not None and kv_heads is not None:
        if kv_heads > heads:
            r.error(f"{p}.kv_heads", f"must be ≤ heads ({heads})")
        elif heads % kv_heads:
            r.error(f"{p}.kv_heads", f"must divide heads ({heads})")
    if len(shape) < len(SHAPE_FIELDS) or None in shape.values():
        return {}  # refused above; nothing of it is read
    return shape


def _parse_task(r: Reader, raw: Any, site_codes: set[str]) -> Task | None:
    plain = plain_task(raw, site_codes)
    if plain is not None:
        return plain  # every field plain and in range: read at once
    p = "task"
    if raw is MISSING or raw is None:
        r.error(p, "is required")
        return None
    t = r.obj(raw, p, TASK_FIELDS)
    if t is None:
        return None
    allowed, shape, home, data_site, result_site = _task_sites_and_shape(r, t, p, site_codes)
    return Task(
        home_site=home or "",
        data_site=data_site or home or "",
        result_site=result_site or home or "",
        allowed_sites=allowed,
        batch_size=shape.get("batch_size"),
        seq_len=shape.get("seq_len"),
        hidden_size=shape.get("hidden_size"),
        layers=shape.get("layers"),
        heads=shape.get("heads"),
        kv_heads=shape.get("kv_heads") or shape.get("heads"),
        **read_fields(r, t, _TASK, p),  # name … restart_hours, in the table's order
    )


def _task_sites_and_shape(
    r: Reader, t: dict[str, Any], p: str, site_codes: set[str]
) -> tuple[tuple[str, ...], dict[str, Any], str | None, str | None, str | None]:
    """The allowed sites, the model shape and the home, data and result sites, checked."""
    allowed = _site_list(r, t, "allowed_sites", p, site_codes)
    # SPEC 6.1: compute hours are measured on a GPU count, so the key is required; an explicit
    # null (a stored profile without it) is evaluated and blocked by P3.
    if "gpus" not in t:
        r.error(
            f"{p}.gpus",
            "is required: the planned GPU count compute_hours is measured on "
            "(null when unknown, which blocks with P3)",
        )
    shape = _parse_shape(r, t, p)
    home = r.text(t, "home_site", p, required=True)
    # A blank data or result site means "same as home", as a web form would send it.
    data_site = r.text(t, "data_site", p) or None
    result_site = r.text(t, "result_site", p) or None
    for key, code in (("home_site", home), ("data_site", data_site), ("result_site", result_site)):
        if code is not None and code not in site_codes:
            r.error(f"{p}.{key}", f"unknown site '{code}'")
    return allowed, shape, home, data_site, result_site


def _site_list(
    r: Reader, data: dict[str, Any], key: str, path: str, site_codes: set[str]
) -> tuple[str, ...]:
    raw = data.get(key, MISSING)
    if raw is MISSING or raw is None:
        return ()
    field = f"{path}.{key}"
    if not isinstance(raw, (list, tuple)):
        r.error(field, "must be a list of site codes")
        return ()
    codes: list[str] = []
    for i, code in enumerate(raw):
        if not isinstance(code, str) or code not in site_codes:
            r.error(f"{field}[{i}]", f"unknown site {code!r}")
        elif code not in codes:
            codes.append(str.__str__(code))
    return tuple(sorted(codes))


class _Anything(set):
    """Stands for the codes of a list that was refused whole: every reference to it is taken as
    known, so the one error naming the list is not buried under false "unknown" ones."""

    def __contains__(self, item: object) -> bool:
        return True


_ANY = _Anything()


def _list(r: Reader, data: dict[str, Any], key: str) -> list[Any] | None:
    """The list at `key` ([] when absent); None when refused whole (not a list, or too long)."""
    raw = data.get(key, MISSING)
    if raw is MISSING or raw is None:
        return []
    if not isinstance(raw, (list, tuple)):
        r.error(key, "must be a list")
        return None
    limit = MAX_ITEMS[key]
    if len(raw) > limit:
        # SPEC 6.2: refuse oversized lists whole, without reading their items.
        r.error(key, f"at most {limit} items (got {len(raw)})")
        return None
    return raw


def _parse_checklists(r: Reader, raw: Any, offer_ids: set[str]) -> dict[str, dict[str, str]]:
    if raw is MISSING or raw is None:
        return {}
    data = r.obj(raw, "checklists")
    if data is None:
        return {}
    out: dict[str, dict[str, str]] = {}
    for raw_key, answers in data.items():
        # JSON keys are strings; a Python caller may key by an integer offer id.
        key = (
            str(raw_key) if isinstance(raw_key, int) and not isinstance(raw_key, bool) else raw_key
        )
        p = f"checklists.{key}"
        if key not in offer_ids:
            r.error(p, f"unknown offer '{key}'")
            continue
        if type(answers) is dict and answers == ALL_ANSWERED:
            out[key] = dict(ALL_ANSWERED)  # the commonest checklist, taken at once
            continue
        values = r.obj(answers, p, ANSWER_FIELDS)
        if values is None:
            continue
        parsed: dict[str, str] = {}
        for q in QUESTIONS:
            answer = values.get(q)
            if answer == "answered" and type(answer) is str:
                parsed[q] = "answered"  # the commonest answer, taken at once
            else:
                # A missing question counts as unanswered.
                parsed[q] = read_field(r, values, "checklists.<offer id>", q, p)
        out[key] = parsed
    return out


def _parse_thresholds(r: Reader, raw: Any) -> dict[str, float]:
    used = dict(DEFAULT_THRESHOLDS)
    if raw is MISSING or raw is None:
        return used
    data = r.obj(raw, "thresholds")
    if data is None:
        return used
    p = "thresholds"
    for key in data:
        if key not in DEFAULT_THRESHOLDS:
            r.error(f"{p}.{key}", "unknown threshold")
    for key in DEFAULT_THRESHOLDS:
        if key not in data:
            continue
        # SPEC 7.9: each threshold's range is the field table's (fractions at most 1, the
        # evidence at least one GPU-hour: SPEC 7.2); a threshold given is a number, not null.
        value = read_field(r, data, "thresholds", key, p, default=MISSING)
        if value is not None:
            used[key] = value
    if used["data_compute_low"] > used["data_compute_high"]:
        r.error(f"{p}.data_compute_low", "must be ≤ data_compute_high")
    return used


# SPEC 7.8: the fields that are 0 or at least 1e-12 (the field table's zero_or_positive).
_TINY_TASK = tuple(n for r in OBJECTS["task"] if r.zero_or_positive for n in r.names)
_TINY_BENCHMARK = tuple(n for r in OBJECTS["benchmarks[]"] if r.zero_or_positive for n in r.names)


def parse_input(data: Any) -> EngineInput:
    """Validate the evaluate JSON; raise EngineInputError listing every problem."""
    if not isinstance(data, dict):
        raise EngineInputError([{"field": "", "message": "input must be a JSON object"}])
    r = Reader()
    r.obj(data, "", TOP_FIELDS)
    currency = read_currency(r, data, "")
    raw_sites = _list(r, data, "sites")
    sites = parse_sites(r, raw_sites or [])
    codes: set[str] = set(sites) if raw_sites is not None else _ANY
    task = _parse_task(r, data.get("task", MISSING), codes)
    for name in _TINY_TASK:
        if task is not None and 0 < (getattr(task, name) or 0) < MIN_POSITIVE:
            # SPEC 7.8: M1 divides by the compute hours; a positive figure is at least 1e-12.
            r.error(f"task.{name}", "is unreasonably small (limit 1e-12)")
    links = parse_links(r, _list(r, data, "links") or [], codes)
    raw_offers = _list(r, data, "offers")
    offers = parse_offers(r, raw_offers or [], codes, currency)
    offer_ids: set[str] = {o.id for o in offers if o.id} if raw_offers is not None else _ANY
    benchmarks = parse_benchmarks(r, _list(r, data, "benchmarks") or [], offer_ids)
    for name in _TINY_BENCHMARK:  # (one field today: its errors in record order)
        for record in benchmarks:
            if 0 < getattr(record, name) < MIN_POSITIVE:
                # SPEC 7.8: speedups divide by a run's hours; a positive figure is at least 1e-12.
                r.error(f"benchmarks[{record.index}].{name}", "is unreasonably small (limit 1e-12)")
    checklists = _parse_checklists(r, data.get("checklists", MISSING), offer_ids)
    thresholds = _parse_thresholds(r, data.get("thresholds", MISSING))
    if r.errors or task is None:
        errors = r.errors
        if len(errors) > MAX_ERRORS:
            # SPEC 6.2: at most 100 errors, then how many more there were.
            more = len(errors) - MAX_ERRORS
            errors = [*errors[:MAX_ERRORS], {"field": "", "message": f"… and {more} more"}]
        raise EngineInputError(errors or [{"field": "task", "message": "is required"}])
    # Positional, in EngineInput's field order.
    return EngineInput(task, sites, links, offers, benchmarks, checklists, thresholds, currency)
