"""The one check of an actual cost record's values, for the form, the CSV import, the API and a
provider bill alike: every offending field named at once, in the team's scope.

An actual attaches to an approved review of the team (the plan it was signed on is what it is
compared with); another team's review id is "unknown", exactly as a wrong id would be, so ids of
other teams cannot be probed. Money is in the team's currency: another currency is refused, never
converted.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.fields import MAX_PK
from apps.accounts.models import Team
from apps.reviews.models import Review, ReviewState
from apps.web.ingest import (
    FieldErrors,
    blank,
    clean_idempotency_key,
    parse_float,
    parse_int,
    refuse_nul,
)

FIELDS = (
    "review", "period", "compute_cost", "transfer_cost", "gpu_hours", "hours", "currency",
    "reference", "notes",
)
REFERENCE_MAX_LENGTH = 200
NOTES_MAX_LENGTH = 2000
# A run is dated within these years: anything else is a typo (and no DateField holds year 0).
FIRST_YEAR, LAST_YEAR = 2000, 2100
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


class ActualValidationError(FieldErrors):
    """Every offending field with its messages: {"field": ["message", …]}."""


@dataclass
class ReviewLookup:
    """The team's reviews by id (their state and the day they were approved), fetched once for
    a whole file."""

    team: Team
    states: dict[int, str] = field(default_factory=dict)
    approved_on: dict[int, dt.date] = field(default_factory=dict)
    complete: bool = False

    def _keep(self, rows) -> None:
        for pk, state, decided_at in rows:
            self.states[pk] = state
            if decided_at is not None:
                self.approved_on[pk] = timezone.localdate(decided_at)

    def preload(self) -> ReviewLookup:
        self._keep(Review.objects.filter(team=self.team).values_list("pk", "state", "decided_at"))
        self.complete = True
        return self

    def state(self, pk: int) -> str | None:
        if not self.complete and pk not in self.states:
            found = Review.objects.filter(team=self.team, pk=pk)
            self._keep(found.values_list("pk", "state", "decided_at"))
        return self.states.get(pk)


def period_refusal(pk: int, period: dt.date, lookup: ReviewLookup) -> str | None:
    """Why an actual of approved review `pk` cannot be dated `period`, or None: not after today
    (a cost not yet incurred), nor in a month before the plan was approved (a bill is dated the
    first of its month, so the month of approval itself is in)."""
    today = timezone.localdate()
    if period > today:
        return _(
            "%(day)s is in the future: record a cost once it is incurred (today is %(today)s)."
        ) % {"day": period.isoformat(), "today": today.isoformat()}
    approved = lookup.approved_on.get(pk)
    if approved is not None and period < approved.replace(day=1):
        return _(
            "Review #%(id)s was approved on %(approved)s: a cost of %(month)s is not of the plan "
            "it signed. Date it in %(approved_month)s or later."
        ) % {"id": pk, "approved": approved.isoformat(), "month": f"{period:%Y-%m}",
             "approved_month": f"{approved:%Y-%m}"}
    return None


_blank = blank


def review_id_of(value) -> int:
    """A review id from 12, "12" or "#12"; ValueError otherwise."""
    if isinstance(value, Review):
        return value.pk
    text = value if isinstance(value, int) and not isinstance(value, bool) else str(value).strip()
    if isinstance(text, str):
        text = text.removeprefix("#")
    pk = parse_int(text)
    if not 1 <= pk <= MAX_PK:
        raise ValueError(_("No review #%(id)s in this team.") % {"id": pk})
    return pk


def clean_review(value, lookup: ReviewLookup) -> int:
    pk = review_id_of(value)
    state = lookup.state(pk)
    if state is None:
        raise ValueError(_("No review #%(id)s in this team.") % {"id": pk})
    if state != ReviewState.APPROVED:
        raise ValueError(
            _(
                "Review #%(id)s is not approved: an actual cost is compared with the plan a "
                "review was signed on."
            )
            % {"id": pk}
        )
    return pk


def _iso_date(text: str) -> dt.date:
    """YYYY-MM-DD, or an ISO date and time (a provider's bill: 2026-01-05T00:00:00Z); nothing
    may follow it (issue 34: "2026-01-05 and some text" was read as the 5th)."""
    if _ISO_DAY.fullmatch(text):
        return dt.date.fromisoformat(text)
    if len(text) > 10 and text[10] in "T " and _ISO_DAY.fullmatch(text[:10]):
        return dt.datetime.fromisoformat(text).date()
    raise ValueError(text)


def parse_date(value) -> dt.date:
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        text = str(value).strip()
        try:
            value = _iso_date(text)
        except ValueError:
            raise ValueError(_("Enter a date as YYYY-MM-DD.")) from None
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise ValueError(
            _("Enter a date between %(a)s and %(b)s.") % {"a": FIRST_YEAR, "b": LAST_YEAR}
        )
    return value


def clean_currency(value, team: Team) -> None:
    if _blank(value):
        return
    code = str(value).strip().upper()
    if code != team.currency.upper():
        raise ValueError(
            _(
                "Team %(team)s records costs in %(ours)s; this is %(theirs)s. Nothing is "
                "converted: enter the amount in %(ours)s."
            )
            % {"team": team.name, "ours": team.currency, "theirs": code[:12]}
        )


def _amount(value, *, required: bool) -> float | None:
    if _blank(value):
        if required:
            raise ValueError(_("This field is required."))
        return None
    number = parse_float(value)
    if number < 0:
        raise ValueError(_("Enter zero or more."))
    return number


def _text(value, limit: int) -> str:
    if _blank(value):
        return ""
    text = str(value).strip()
    refuse_nul(text)
    if len(text) > limit:
        raise ValueError(_("Too long (at most %(n)s characters).") % {"n": limit})
    return text


def actual_clean(*, team: Team, data: dict, lookup: ReviewLookup | None = None) -> dict:
    """The model's values from raw `data` (form, CSV row, API body); ActualValidationError
    naming every bad field."""
    lookup = lookup or ReviewLookup(team)
    errors: dict[str, list[str]] = {}
    values: dict = {}
    parsers = {
        "review": lambda v: clean_review(v, lookup) if not _blank(v) else _required(),
        "period": lambda v: parse_date(v) if not _blank(v) else _required(),
        "compute_cost": lambda v: _amount(v, required=True),
        "transfer_cost": lambda v: _amount(v, required=False) or 0.0,
        "gpu_hours": lambda v: _amount(v, required=False),
        "hours": lambda v: _amount(v, required=False),
        "reference": lambda v: _text(v, REFERENCE_MAX_LENGTH),
        "notes": lambda v: _text(v, NOTES_MAX_LENGTH),
    }
    for name, parse in parsers.items():
        try:
            values[name] = parse(data.get(name))
        except ValueError as exc:
            errors.setdefault(name, []).append(str(exc))
    try:
        clean_currency(data.get("currency"), team)
    except ValueError as exc:
        errors.setdefault("currency", []).append(str(exc))
    if "review" in values and "period" in values:
        refusal = period_refusal(values["review"], values["period"], lookup)
        if refusal:
            errors.setdefault("period", []).append(refusal)
    if errors:
        raise ActualValidationError(errors)
    values["review_id"] = values.pop("review")
    return values


def _required():
    raise ValueError(_("This field is required."))


def clean_key(raw) -> str | None:
    try:
        return clean_idempotency_key(raw)
    except ValueError as exc:
        raise ActualValidationError({"idempotency_key": [str(exc)]}) from None
