"""Shared by the form fuzz tests (test_fuzz_*_forms.py): the hostile values, the bounded
Hypothesis settings, a valid post spoiled by them, and the checks every post must pass: never a
500, never a half-written row, saved text escaped wherever it is shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Model
from django.forms.models import model_to_dict
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from apps.reviews.models import AuditEvent
from tests.factories import make_review
from tests.security.helpers import World, rolled_back

XSS = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
HOSTILE = [
    XSS,
    '"><img src=x onerror=alert(1)>',
    "nan", "NaN", "inf", "-inf", "Infinity", "-1e309", "1e309", "1e308", "1e13", "-1e13",
    "-1", "-0.0", "0", "0.0000001", "", "   ",
    "32768", "2147483648", "-2147483649", "9223372036854775808",  # past 16, 32, 64-bit columns
    "9" * 40, "-" + "9" * 40, "1_000", "0x10", "1e", "١٢٣", "½", "二十", "🚀🚀", "e\u0301",
    "\u202eevil", "'; DROP TABLE reviews_review; --", "{{ request }}", "{% debug %}", "%s%n",
    "\x00", "a\x00b", "x" * 10_000, "<" * 3_000, "https://example.com/" + "a" * 600,
]
# Bounded and reproducible in CI: the same examples on every run. SECURITY_FUZZ_EXAMPLES=500
# SECURITY_FUZZ_RANDOM=1 explores further (locally, when hunting).
SETTINGS = settings(
    max_examples=int(os.environ.get("SECURITY_FUZZ_EXAMPLES", "40")),
    derandomize=os.environ.get("SECURITY_FUZZ_RANDOM") != "1",
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def hostile_values(world: World) -> st.SearchStrategy[str]:
    """What a spoiled field gets: fixed nasty strings, random text and numbers, team B's ids."""
    b = world.b
    foreign_ids = [
        b.home.pk, b.far.pk, b.offer.pk, b.profile.pk, b.single.pk, b.review.pk, b.team.pk,
        b.link.pk,
    ]
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=40),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.sampled_from(foreign_ids).map(str),
    )


def spoiled(world: World, baseline: dict) -> st.SearchStrategy[dict]:
    """The baseline post with 0 to 4 of its fields (or unknown extra ones) replaced."""
    names = sorted(baseline) + ["team", "id", "state"]
    replacements = st.dictionaries(
        st.sampled_from(names),
        st.one_of(hostile_values(world), st.lists(hostile_values(world), min_size=2, max_size=3)),
        max_size=4,
    )
    return replacements.map(lambda changes: {**baseline, **changes})


@dataclass
class Case:
    """One create form: where it posts, who may, a valid post, the rows it writes."""

    url: Callable[[World], str]
    user: Callable[[World], object]
    baseline: Callable[[World], dict]
    created: type[Model]  # the row the form creates (at most one)
    watched: tuple[type[Model], ...] = ()  # rows that come with it, or must not appear alone
    shown_at: Callable[[Model], str] | None = None  # a page showing the created row's text
    complete: Callable[[Model, dict], None] | None = None  # extra checks of a created row


def count(models: tuple[type[Model], ...]) -> dict:
    return {model: model.objects.count() for model in models}


def post_and_check(
    client: Client, world: World, case: Case, data: dict, *, htmx: bool = False
) -> None:
    models = (case.created, *case.watched)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with rolled_back():
        before = count(models)
        newest = case.created.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        response = client.post(case.url(world), data, **headers)
        assert response.status_code < 500, (response.status_code, data)
        after = count(models)
        made = after[case.created] - before[case.created]
        assert made in (0, 1), (made, data)
        if made == 0:
            assert after == before, ("rows written without the object", after, before, data)
            return
        obj = case.created.objects.get(pk__gt=newest)
        obj.full_clean()  # a complete, valid row
        if case.complete:
            case.complete(obj, {m: after[m] - before[m] for m in case.watched})
        if case.shown_at is not None:
            page = client.get(case.shown_at(obj))
            assert page.status_code == 200
            html = page.content.decode()
            assert XSS not in html, "unescaped script in the page"
            if any(XSS in str(v) for v in model_to_dict(obj).values()):
                assert ESCAPED in html, "the saved text is not shown escaped"


def as_post(values: dict) -> dict:
    """Model values as a browser posts them: ids for objects, booleans as "on" or absent."""
    data = {}
    for name, value in values.items():
        if value is None:
            data[name] = ""
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, Model):
            data[name] = str(value.pk)
        elif isinstance(value, list):
            data[name] = [str(v) for v in value]
        else:
            data[name] = str(value)
    return data


def one_audit_event(obj, added):
    assert added[AuditEvent] == 1


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def draft_of(w: World):
    if "draft" not in w.a.extra:
        w.a.extra["draft"] = make_review(
            w.a.team, w.a.member, task=w.a.profile, offers=[w.a.offer], title="Draft"
        )
    return w.a.extra["draft"]


def approved_of(w: World):
    """An approved review of team A (what an actual cost attaches to) with one actual record, and
    the team's actual-cost settings row.
    Call it outside rolled_back() first: the rows must outlive the examples."""
    if "approved" not in w.a.extra:
        from apps.actuals.models import ActualCost, ActualsSettings
        from tests.actuals.helpers import approved_review

        review = approved_review(w.a.team, w.a.member, w.a.reviewer)
        w.a.extra["approved"] = review
        w.a.extra["approved_actual"] = ActualCost.objects.create(
            team=w.a.team, review=review, period="2026-03-02", compute_cost=250,
            transfer_cost=60, reference="bill line 1",
        )
        ActualsSettings.objects.get_or_create(team=w.a.team)
    return w.a.extra["approved"]
