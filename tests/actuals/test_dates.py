"""An actual cost is dated from the month its plan was approved to today (issue 39): a period in
the future or in a month before the approval is refused on the period field, by form, CSV file
and bill alike; the CSV template carries an example row, and a file saved with ';' between values
is told so instead of "unknown columns"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.actuals import services
from apps.actuals.bills import bill_import
from apps.actuals.models import ActualCost
from tests.actuals.helpers import APPROVED_AT, approved_review

pytestmark = pytest.mark.django_db

# APPROVED_AT is 2026-01-15 (tests/actuals/helpers.py): January 2026 is the first month allowed.
FIRST_DAY = "2026-01-01"
LAST_MONTH_BEFORE = "2025-12-31"


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


def tomorrow() -> str:
    return (timezone.localdate() + dt.timedelta(days=1)).isoformat()


def create(team, review, period: str):
    data = {"review": review.pk, "period": period, "compute_cost": 260}
    return services.actual_create(team=team, data=data)


class PeriodTests:
    def test_the_month_of_approval_and_today_are_allowed(self, team, review):
        assert APPROVED_AT.date() == dt.date(2026, 1, 15)
        assert create(team, review, FIRST_DAY).period == dt.date(2026, 1, 1)
        today = timezone.localdate()
        assert create(team, review, today.isoformat()).period == today

    def test_a_period_in_the_future_is_refused_on_the_field(self, team, review):
        with pytest.raises(services.ActualValidationError) as caught:
            create(team, review, tomorrow())
        assert list(caught.value.errors) == ["period"]
        assert f"{tomorrow()} is in the future" in caught.value.errors["period"][0]
        assert not ActualCost.objects.exists()

    def test_a_month_before_the_approval_is_refused_on_the_field(self, team, review):
        with pytest.raises(services.ActualValidationError) as caught:
            create(team, review, LAST_MONTH_BEFORE)
        assert caught.value.errors == {
            "period": [
                f"Review #{review.pk} was approved on 2026-01-15: a cost of 2025-12 is not of "
                "the plan it signed. Date it in 2026-01 or later."
            ]
        }
        assert not ActualCost.objects.exists()

    def test_the_form_shows_the_refusal_on_the_period_field(self, client, team, review, member):
        client.force_login(member)
        data = {"review": review.pk, "period": tomorrow(), "compute_cost": "260"}
        response = client.post(reverse("actuals:create"), data)
        html = response.content.decode()
        assert response.status_code in (200, 422)
        assert "is in the future" in html and 'id="field-period"' in html
        assert not ActualCost.objects.exists()

    def test_a_csv_line_dated_before_the_approval_is_named(self, team, review):
        content = (
            "review,period,compute_cost\n"
            f"{review.pk},2026-02-03,260\n"
            f"{review.pk},{LAST_MONTH_BEFORE},190\n"
        )
        result = services.actual_import_csv(team=team, content=content)
        assert not result.saved
        assert [(e.field, line) for line, es in result.errors_by_line.items() for e in es] == [
            ("period", 3)
        ]
        assert not ActualCost.objects.exists()

    def test_a_bill_line_before_the_approval_is_left_unmatched_saying_why(self, team, review):
        content = (
            "date,provider,resource,tag,amount,currency,kind\n"
            f"2025-12-20,Acme,gpu-pool,review:{review.pk},100,USD,compute\n"
            f"2026-02-02,Acme,gpu-pool,review:{review.pk},40,USD,compute\n"
        )
        result = bill_import(team=team, content=content)
        assert [x.line for x in result.unmatched] == [2]
        assert "was approved on 2026-01-15" in result.unmatched[0].unmatched
        assert list(ActualCost.objects.values_list("period", "compute_cost")) == [
            (dt.date(2026, 2, 1), 40.0)
        ]


class TemplateTests:
    def test_the_template_has_an_example_row_in_the_teams_currency(self, client, team, member):
        client.force_login(member)
        response = client.get(reverse("actuals:import_template"))
        header, example, *rest = response.content.decode().splitlines()
        assert header.split(",") == list(services.COLUMNS)
        values = dict(zip(services.COLUMNS, example.split(","), strict=True))
        assert values["review"] == "12" and values["period"] == "2026-03-01"
        assert values["currency"] == team.currency
        assert rest == []

    def test_a_semicolon_file_gets_a_hint_not_unknown_columns(self, team, review):
        content = f"review;period;compute_cost\n{review.pk};2026-02-03;260\n"
        result = services.actual_import_csv(team=team, content=content)
        messages = [e.message for es in result.errors_by_line.values() for e in es]
        assert messages == [
            "This file seems to use ';' as separator: save it as CSV with commas (,) between "
            "values, as in the template."
        ]
        assert not ActualCost.objects.exists()
