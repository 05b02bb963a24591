"""The task read at once when plain (see plain_records): every field a plain value in range, and
no model shape, staged plan or allowed sites (those are read field by field). Engine speed,
issue 13. SPEC 7.9: every field but the sites, budget and team is read as its row of the field
table says (plain_records.plain_plan)."""

from __future__ import annotations

from typing import Any

from .fields import BUDGET_FIELDS, TASK_FIELDS, TEAM_FIELDS
from .plain_records import NotPlain, _code, plain_plan, plain_values
from .schema import SHAPE_KEYS, STAGED_FIELDS, LatencyBudget, Task, Team

_NOT_PLAIN_TASK = SHAPE_KEYS.union(STAGED_FIELDS)  # read field by field when given
_TASK = plain_plan(
    "task",
    Task,
    frozenset(
        {
            "home_site",
            "data_site",
            "result_site",
            "allowed_sites",
            "latency_budget_hours",
            "team",
        }
    ),
)
_BUDGET = plain_plan("task.latency_budget_hours", LatencyBudget)
_TEAM = plain_plan("task.team", Team)
_NO_HAND: dict[str, Any] = {}


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
        hand = {
            "home_site": home,
            "data_site": _site_or(get("data_site"), home, site_codes),
            "result_site": _site_or(get("result_site"), home, site_codes),
            "allowed_sites": (),
            "latency_budget_hours": _budget(get("latency_budget_hours")),
            "team": _team(get("team")),
        }
        return Task(*plain_values(get, _TASK, hand))
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
    return LatencyBudget(*plain_values(raw.get, _BUDGET, _NO_HAND))


def _team(raw: Any) -> Team:
    if raw is None:
        return Team()
    if type(raw) is not dict or not TEAM_FIELDS.issuperset(raw):
        raise NotPlain
    values = plain_values(raw.get, _TEAM, _NO_HAND)
    if "same_site" not in values[-1]:
        values[-1] = ("same_site", *values[-1])  # same_site is always validated
    return Team(*values)
