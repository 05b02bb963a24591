"""parse_input: turn the evaluate JSON (SPEC 4) into dataclasses, naming every bad field at once."""

from __future__ import annotations

from typing import Any

from .fields import ANSWER_FIELDS, BUDGET_FIELDS, TASK_FIELDS, TEAM_FIELDS, TOP_FIELDS, bounds
from .plain_task import plain_task
from .reader import MIN_POSITIVE, MISSING, Reader
from .schema import (
    ACCESS_PATTERNS,
    ANSWER_STATES,
    ATTENTIONS,
    CADENCES,
    COUPLINGS,
    DEFAULT_THRESHOLDS,
    MAX_ERRORS,
    MAX_ITEMS,
    PAINS,
    PARALLELISM,
    PRECISIONS,
    QUESTIONS,
    SHAPE_FIELDS,
    SHAPE_KEYS,
    STAGED_FIELDS,
    TIERS,
    WORKLOADS,
    EngineInput,
    EngineInputError,
    LatencyBudget,
    Task,
    Team,
)
from .world import parse_benchmarks, parse_links, parse_offers, parse_sites, read_currency

ALL_ANSWERED = dict.fromkeys(QUESTIONS, "answered")


def _parse_budget(r: Reader, raw: Any, path: str) -> LatencyBudget:
    if raw is None or raw is MISSING:
        return LatencyBudget()
    data = r.obj(raw, path, BUDGET_FIELDS)
    if data is None:
        return LatencyBudget()
    # Positional, in LatencyBudget's field order: transfer, queue, compute.
    return LatencyBudget(
        r.optional(data, "transfer", path),
        r.optional(data, "queue", path),
        r.optional(data, "compute", path),
    )


def _parse_team(r: Reader, raw: Any, path: str) -> Team:
    if raw is None or raw is MISSING:
        return Team()
    data = r.obj(raw, path, TEAM_FIELDS)
    if data is None:
        return Team()
    tiers = r.choices(data, "validated_tiers", path, TIERS, default=("same_site",))
    if "same_site" not in tiers:
        tiers = ("same_site", *tiers)  # same_site is always validated
    # Positional, in Team's field order.
    return Team(
        r.boolean(data, "has_machines", path),
        r.boolean(data, "has_scheduler", path),
        r.boolean(data, "can_maintain_scheduler", path),
        r.choice(data, "pain", path, PAINS, default="none"),
        tiers,
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
        shape[key] = r.number(t, key, p, minimum=1, integer=True)
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
    # Read in the order errors are reported; built positionally, in Task's field order (a
    # third of the cost of four dozen keywords).
    name = r.text(t, "name", p)
    workload = r.choice(t, "workload", p, WORKLOADS)
    figures = _task_figures(r, t, p)  # cadence … data_passes
    compute_hours = r.amount(t, "compute_hours", p)
    run = _task_run_and_eligibility(r, t, p)  # resumable … strict_consistency
    results_restricted = r.boolean(t, "results_restricted", p)
    team = _parse_team(r, t.get("team", MISSING), f"{p}.team")
    activation_checkpointing = r.boolean(t, "activation_checkpointing", p)
    checkpoint_interval_hours = (
        r.amount(t, "checkpoint_interval_hours", p, 1.0)
        if "checkpoint_interval_hours" in t
        else 1.0
    )
    return Task(
        workload,
        compute_hours,
        home or "",  # home_site
        data_site or home or "",  # data_site
        result_site or home or "",  # result_site
        name,
        *figures,
        *run,
        allowed,  # allowed_sites
        results_restricted,
        team,
        shape.get("batch_size"),
        shape.get("seq_len"),
        shape.get("hidden_size"),
        shape.get("layers"),
        shape.get("heads"),
        shape.get("kv_heads") or shape.get("heads"),
        activation_checkpointing,
        checkpoint_interval_hours,
        *_parse_staged(r, t, p),
        r.choice(t, "attention", p, ATTENTIONS, default="flash"),  # SPEC 7.1
        r.amount(t, "restart_hours", p, 0.0),  # SPEC 7.3
        r.optional(t, "cost_budget", p),  # SPEC 7.7
    )


def _parse_staged(r: Reader, t: dict[str, Any], p: str) -> tuple[Any, ...]:
    """SPEC 6.4: processed_gb (≥ 0 or null), preprocess_hours and preprocess_cost_per_hour (≥ 0,
    default 0), rounds_per_refresh (a whole number ≥ 1, default 1), in Task's field order."""
    if all(t.get(key) is None for key in STAGED_FIELDS):
        return (None, 0.0, 0.0, 1)  # the commonest case: no staged plan
    return (
        r.optional(t, "processed_gb", p),
        r.amount(t, "preprocess_hours", p, 0.0),
        r.amount(t, "preprocess_cost_per_hour", p, 0.0),
        r.count(t, "rounds_per_refresh", p, 1, 1),
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


def _task_figures(r: Reader, t: dict[str, Any], p: str) -> tuple[Any, ...]:
    """Task fields cadence … data_passes, read and returned in Task's field order."""
    return (
        r.choice(t, "cadence", p, CADENCES, default="one_off"),
        r.amount(t, "runs_per_quarter", p, 1.0),
        r.optional(t, "params_b", p),
        r.choice(t, "precision", p, PRECISIONS, default="bf16"),
        r.optional(t, "peak_gpu_mem_gb", p),
        r.number(t, "gpus", p, nullable=True, minimum=1, integer=True),
        r.choices(t, "parallelism", p, PARALLELISM),
        r.choice(t, "coupling", p, COUPLINGS, default="none"),
        r.amount(t, "input_gb", p, 0.0),
        r.amount(t, "result_gb", p, 0.0),
        r.number(t, "compress_ratio", p, default=1.0, above=0.0, maximum=1.0),
        r.amount(t, "image_gb", p, 10.0),
        r.choice(t, "access_pattern", p, ACCESS_PATTERNS, default="streaming"),
        r.count(t, "data_passes", p, 1, 1),
    )


def _task_run_and_eligibility(r: Reader, t: dict[str, Any], p: str) -> tuple[Any, ...]:
    """Task fields resumable … strict_consistency (resume, budgets, the gates' and exclusions'
    answers), read and returned in Task's field order."""
    return (
        r.boolean(t, "resumable", p),
        r.boolean(t, "resume_verified", p),
        r.boolean(t, "env_aligned", p),
        r.amount(t, "interruption_cost_hours", p, 0.0),
        _parse_budget(r, t.get("latency_budget_hours", MISSING), f"{p}.latency_budget_hours"),
        r.amount(t, "delay_cost_per_hour", p, 0.0),
        r.boolean(t, "env_simple", p),
        r.boolean(t, "image_packaged", p),
        r.boolean(t, "offsite_allowed", p),
        r.boolean(t, "low_latency_online", p),
        r.boolean(t, "stateful", p),
        r.boolean(t, "compliance_restricted", p),
        r.boolean(t, "strict_consistency", p),
    )


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
                parsed[q] = r.choice(values, q, p, ANSWER_STATES, default="unanswered")
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
        # evidence at least one GPU-hour: SPEC 7.2).
        value = r.number(data, key, p, **bounds("thresholds", key))
        if value is not None:
            used[key] = value
    if used["data_compute_low"] > used["data_compute_high"]:
        r.error(f"{p}.data_compute_low", "must be ≤ data_compute_high")
    return used


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
    if task is not None and 0 < (task.compute_hours or 0) < MIN_POSITIVE:
        # SPEC 7.8: M1 divides by the compute hours; a positive figure is at least 1e-12.
        r.error("task.compute_hours", "is unreasonably small (limit 1e-12)")
    links = parse_links(r, _list(r, data, "links") or [], codes)
    raw_offers = _list(r, data, "offers")
    offers = parse_offers(r, raw_offers or [], codes, currency)
    offer_ids: set[str] = {o.id for o in offers if o.id} if raw_offers is not None else _ANY
    benchmarks = parse_benchmarks(r, _list(r, data, "benchmarks") or [], offer_ids)
    for record in benchmarks:
        if 0 < record.e2e_hours < MIN_POSITIVE:
            # SPEC 7.8: speedups divide by a run's hours; a positive figure is at least 1e-12.
            r.error(f"benchmarks[{record.index}].e2e_hours", "is unreasonably small (limit 1e-12)")
    checklists = _parse_checklists(r, data.get("checklists", MISSING), offer_ids)
    thresholds = _parse_thresholds(r, data.get("thresholds", MISSING))
    if r.errors or task is None:
        errors = r.errors
        if len(errors) > MAX_ERRORS:
            # SPEC 6.2: at most 100 errors, then how many more there were.
            more = len(errors) - MAX_ERRORS
            errors = [*errors[:MAX_ERRORS], {"field": "", "message": f"… and {more} more"}]
        raise EngineInputError(errors or [{"field": "task", "message": "is required"}])
    return EngineInput(
        task=task,
        sites=sites,
        links=links,
        offers=offers,
        benchmarks=benchmarks,
        checklists=checklists,
        thresholds=thresholds,
        currency=currency,
    )
