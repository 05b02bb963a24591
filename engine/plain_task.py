"""The task read at once when plain (see plain_records): every field a plain value in range, and
no model shape, staged plan or allowed sites (those are read field by field). Engine speed,
issue 13. SPEC 7.9: every field but the sites is read as its row of the field table says
(plain_records.plain_plan, built into one function by plain_builder)."""

from __future__ import annotations

from typing import Any

from .fields import BUDGET_FIELDS, TASK_FIELDS, TEAM_FIELDS
from .plain_records import plain_builder, plain_plan
from .plain_values import NotPlain, _code
from .schema import SHAPE_KEYS, STAGED_FIELDS, LatencyBudget, Task, Team

_NOT_PLAIN_TASK = SHAPE_KEYS.union(STAGED_FIELDS)  # read field by field when given


def builders() -> dict[str, Any]:
    """SPEC 7.9: the task's, its budget's and its team's built functions, from the field table
    (built once when the engine is imported; tests build them again)."""
    hand = frozenset(
        {"home_site", "data_site", "result_site", "allowed_sites", "latency_budget_hours", "team"}
    )
    return {
        # plain_task takes only tasks without a model shape or a staged plan.
        "_TASK": plain_builder(Task, plain_plan("task", Task, hand, absent=_NOT_PLAIN_TASK)),
        "_BUDGET": plain_builder(
            LatencyBudget, plain_plan("task.latency_budget_hours", LatencyBudget)
        ),
        "_TEAM": plain_builder(Team, plain_plan("task.team", Team)),
    }


_BUILT = builders()
_TASK = _BUILT["_TASK"]
_BUDGET = _BUILT["_BUDGET"]
_TEAM = _BUILT["_TEAM"]


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
        return _TASK(  # the hand fields in Task's order
            get,
            home,  # home_site
            _site_or(get("data_site"), home, site_codes),
            _site_or(get("result_site"), home, site_codes),
            _budget(get("latency_budget_hours")),
            (),  # allowed_sites
            _team(get("team")),
        )
    except (NotPlain, KeyError, TypeError):  # KeyError, TypeError: not a known choice
        return None


def _site_or(value: Any, home: str, site_codes: set[str]) -> str:
    """A blank data or result site means "same as home", as a web form would send it."""
    if value is None or (type(value) is str and not value):
        return home
    return _code(value, site_codes)


def _budget(raw: Any) -> LatencyBudget:
    if raw is None:
        return LatencyBudget()
    if type(raw) is not dict or not BUDGET_FIELDS.issuperset(raw):
        raise NotPlain
    return _BUDGET(raw.get)


def _team(raw: Any) -> Team:
    if raw is None:
        return Team()
    if type(raw) is not dict or not TEAM_FIELDS.issuperset(raw):
        raise NotPlain
    team = _TEAM(raw.get)
    if "same_site" not in team.validated_tiers:
        team.validated_tiers = ("same_site", *team.validated_tiers)  # always validated
    return team
