"""Properties of a bill import (Hypothesis): imported twice, the second time saves nothing; split at
a charge-period boundary into two files, both imported equal the bill imported whole. Bills are
FOCUS lines of a few resources, hours and amounts, so identical rows (the same hour of the same
resource at the same cost, no line-item id) come up often."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.actuals.bills import bill_import
from apps.actuals.models import ActualCost, BillLine
from tests.actuals.helpers import BILLS_APPROVED_AT, approved_review

pytestmark = pytest.mark.django_db

HEADER = "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,BillingCurrency,ResourceId,Tags"
LINE = st.tuples(
    st.integers(0, 47),  # hour from 2026-05-31T00:00Z: the bill spans a month boundary
    st.sampled_from(["i-a", "i-b", "nat-1"]),
    st.sampled_from(["0.5", "1.25", "32.773"]),
)
PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _stamp(hour: int) -> str:
    day, hh = divmod(hour, 24)
    return f"2026-{5 + (day + 30) // 31:02d}-{(day + 30) % 31 + 1:02d}T{hh:02d}:00:00Z"


def bill(lines, review_id: int) -> str:
    rows = [
        f'{_stamp(h)},{_stamp(h + 1)},Usage,{cost},USD,{res},"{{""review"":""{review_id}""}}"'
        for h, res, cost in lines
    ]
    return "\n".join([HEADER, *rows]) + "\n"


def stored() -> tuple[dict, list]:
    """What the imports saved: compute and transfer per review and month, and every line."""
    per_month: dict = {}
    for r in ActualCost.objects.all():
        key = (r.review_id, r.period)
        compute, transfer = per_month.get(key, (0.0, 0.0))
        per_month[key] = (round(compute + r.compute_cost, 6), round(transfer + r.transfer_cost, 6))
    return per_month, sorted(BillLine.objects.values_list("fingerprint", "amount"))


def rolled_back(run):
    """Run `run` in a transaction that is undone: each example starts from an empty table."""
    with transaction.atomic():
        out = run()
        transaction.set_rollback(True)
    return out


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer, approved_at=BILLS_APPROVED_AT)


@PROPERTY
@given(lines=st.lists(LINE, min_size=1, max_size=30))
def test_a_bill_imported_twice_saves_nothing_the_second_time(team, review, lines):
    content = bill(lines, review.pk)

    def run():
        first = bill_import(team=team, content=content)
        assert first.saved, first.errors_by_line
        before = stored()
        again = bill_import(team=team, content=content)
        assert not again.saved
        # Every line is refused as imported before, and nothing more is stored.
        assert set(again.errors_by_line) == {x.line for x in again.lines}
        assert stored() == before

    rolled_back(run)


@PROPERTY
@given(lines=st.lists(LINE, min_size=2, max_size=30), data=st.data())
def test_a_bill_split_at_a_charge_period_boundary_imports_as_it_would_whole(
    team, review, lines, data
):
    hours = sorted({h for h, _res, _cost in lines})
    cut = data.draw(st.sampled_from(hours[1:] or hours), label="cut")
    first = [x for x in lines if x[0] < cut]
    second = [x for x in lines if x[0] >= cut]

    def whole():
        assert bill_import(team=team, content=bill(lines, review.pk)).saved
        return stored()

    def in_two():
        for part in (first, second):
            if part:
                result = bill_import(team=team, content=bill(part, review.pk))
                assert result.saved, result.errors_by_line
        return stored()

    assert rolled_back(in_two) == rolled_back(whole)
