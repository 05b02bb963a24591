"""The task read at once when plain (see plain_records): every field a plain value in range, and
no model shape, staged plan or allowed sites (those are read field by field). Engine speed,
issue 13."""

from __future__ import annotations

from typing import Any

from .fields import BUDGET_FIELDS, TASK_FIELDS, TEAM_FIELDS
from .plain_records import (
    _STRATEGIES,
    NotPlain,
    _above_zero,
    _amount,
    _choice,
    _choices,
    _code,
    _count,
    _flag,
    _subsets,
    _text,
)
from .reader import MISSING
from .schema import (
    ACCESS_PATTERNS,
    ATTENTIONS,
    CADENCES,
    COUPLINGS,
    PAINS,
    PRECISIONS,
    SHAPE_KEYS,
    STAGED_FIELDS,
    TIERS,
    WORKLOADS,
    LatencyBudget,
    Task,
    Team,
)

_TIER_SETS = _subsets(TIERS)
_NOT_PLAIN_TASK = SHAPE_KEYS.union(STAGED_FIELDS)  # read field by field when given


def plain_task(t: Any, site_codes: set[str]) -> Task | None:
    """_parse_task's task, when plain, without a model shape, staged plan or allowed sites;
    else None."""
    if type(t) is not dict or not TASK_FIELDS.issuperset(t) or "gpus" not in t:
        return None
    allowed = t.get("allowed_sites")
    if not _NOT_PLAIN_TASK.isdisjoint(t) or not (
        allowed is None or (type(allowed) is list and not allowed)
    ):
        return None
    get = t.get
    try:
        home = _code(get("home_site"), site_codes)
        data_site = _site_or(get("data_site"), home, site_codes)
        result_site = _site_or(get("result_site"), home, site_codes)
        return Task(
            _choice(get("workload"), WORKLOADS),
            _amount(get("compute_hours"), MISSING),
            home,
            data_site,
            result_site,
            _text(get("name")),
            *_task_figures(get),
            (),
            _flag(get("results_restricted")),
            _team(get("team")),
            None,
            None,
            None,
            None,
            None,
            None,
            _flag(get("activation_checkpointing")),
            _amount(get("checkpoint_interval_hours"), 1.0),
            None,
            0.0,
            0.0,
            1,
            _choice(get("attention"), ATTENTIONS, "flash"),
            _amount(get("restart_hours"), 0.0),
            _amount(get("cost_budget"), None),  # SPEC 7.7
        )
    except (NotPlain, KeyError, TypeError):  # KeyError, TypeError: not a known choice
        return None


def _site_or(value: Any, home: str, site_codes: set[str]) -> str:
    """A blank data or result site means "same as home", as a web form would send it."""
    if value is None or (type(value) is str and not value):
        return home
    return _code(value, site_codes)


def _task_figures(get: Any) -> tuple[Any, ...]:
    """Task fields cadence … strict_consistency, in Task's field order."""
    return (
        _choice(get("cadence"), CADENCES, "one_off"),
        _amount(get("runs_per_quarter"), 1.0),
        _amount(get("params_b"), None),
        _choice(get("precision"), PRECISIONS, "bf16"),
        _amount(get("peak_gpu_mem_gb"), None),
        _count(get("gpus"), None, 1),
        _choices(get("parallelism"), _STRATEGIES, ()),
        _choice(get("coupling"), COUPLINGS, "none"),
        _amount(get("input_gb"), 0.0),
        _amount(get("result_gb"), 0.0),
        _above_zero(get("compress_ratio"), 1.0, 1.0),
        _amount(get("image_gb"), 10.0),
        _choice(get("access_pattern"), ACCESS_PATTERNS, "streaming"),
        _count(get("data_passes"), 1, 1),
        _flag(get("resumable")),
        _flag(get("resume_verified")),
        _flag(get("env_aligned")),
        _amount(get("interruption_cost_hours"), 0.0),
        _budget(get("latency_budget_hours")),
        _amount(get("delay_cost_per_hour"), 0.0),
        _flag(get("env_simple")),
        _flag(get("image_packaged")),
        _flag(get("offsite_allowed")),
        _flag(get("low_latency_online")),
        _flag(get("stateful")),
        _flag(get("compliance_restricted")),
        _flag(get("strict_consistency")),
    )


def _budget(raw: Any) -> LatencyBudget:
    if raw is None:
        return LatencyBudget()
    if type(raw) is not dict or not BUDGET_FIELDS.issuperset(raw):
        raise NotPlain
    get = raw.get
    return LatencyBudget(
        _amount(get("transfer"), None), _amount(get("queue"), None), _amount(get("compute"), None)
    )


def _team(raw: Any) -> Team:
    if raw is None:
        return Team()
    if type(raw) is not dict or not TEAM_FIELDS.issuperset(raw):
        raise NotPlain
    get = raw.get
    tiers = _choices(get("validated_tiers"), _TIER_SETS, ("same_site",))
    if "same_site" not in tiers:
        tiers = ("same_site", *tiers)  # same_site is always validated
    return Team(
        _flag(get("has_machines")),
        _flag(get("has_scheduler")),
        _flag(get("can_maintain_scheduler")),
        _choice(get("pain"), PAINS, "none"),
        tiers,
    )
