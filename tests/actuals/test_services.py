"""Actual costs by form, CSV file and API body: one check for all, in the team's scope."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.actuals import services
from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review
from tests.factories import make_membership, make_user
from tests.teams.helpers import moving_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


def body(review, **kw):
    return {"review": getattr(review, "pk", review), "period": "2026-02-03", "compute_cost": 260,
            **kw}


class ActualCreateTests:
    def test_it_saves_a_run_of_an_approved_review(self, team, review, member):
        record = services.actual_create(
            team=team, data=body(review, transfer_cost="90", hours=12.5, currency="usd"),
            created_by=member,
        )
        record.refresh_from_db()
        assert (record.review_id, record.period, record.compute_cost, record.transfer_cost,
                record.hours) == (review.pk, dt.date(2026, 2, 3), 260.0, 90.0, 12.5)
        assert record.source == "form"

    def test_it_refuses_another_currency_by_name(self, team, review):
        with pytest.raises(services.ActualValidationError) as exc:
            services.actual_create(team=team, data=body(review, currency="EUR"))
        assert list(exc.value.errors) == ["currency"]
        assert "USD" in exc.value.errors["currency"][0]
        assert not ActualCost.objects.exists()

    def test_another_teams_review_is_unknown_as_a_wrong_id_is(
        self, team, other_team, review, outsider
    ):
        theirs = approved_review(
            other_team, outsider, make_membership(make_user("rev-b"), other_team, "reviewer").user
        )
        with pytest.raises(services.ActualValidationError) as foreign:
            services.actual_create(team=team, data=body(theirs))
        with pytest.raises(services.ActualValidationError) as missing:
            services.actual_create(team=team, data=body(10**9))
        assert foreign.value.errors["review"] == [f"No review #{theirs.pk} in this team."]
        assert missing.value.errors["review"] == [f"No review #{10**9} in this team."]

    def test_it_refuses_a_review_not_approved(self, team, member):
        draft = moving_review(team, member)
        with pytest.raises(services.ActualValidationError) as exc:
            services.actual_create(team=team, data=body(draft))
        assert "not approved" in exc.value.errors["review"][0]

    def test_it_names_every_bad_field_at_once(self, team, review):
        with pytest.raises(services.ActualValidationError) as exc:
            services.actual_create(team=team, data={
                "review": "x", "period": "03/02/2026", "compute_cost": "-1", "hours": "nan",
                "reference": "r" * 201,
            })
        assert set(exc.value.errors) == {"review", "period", "compute_cost", "hours", "reference"}


class IdempotencyTests:
    def test_a_retry_creates_nothing_and_another_body_is_a_conflict(self, team, review):
        first, created = services.actual_create_idempotent(
            team=team, data=body(review, idempotency_key="run-7"))
        again, created_again = services.actual_create_idempotent(
            team=team, data=body(review, idempotency_key="run-7"))
        assert (created, created_again, again.pk) == (True, False, first.pk)
        with pytest.raises(services.IdempotencyConflict) as exc:
            services.actual_create_idempotent(
                team=team, data=body(review, idempotency_key="run-7", compute_cost=300))
        assert exc.value.fields == ["compute_cost"]
        assert ActualCost.objects.count() == 1


GOOD_CSV = """review,period,compute_cost,transfer_cost,hours,currency,reference
{id},2026-02-03,260,90,12.5,USD,job-1
{id},2026-05-10,190,55,,,job-2
"""


class CsvImportTests:
    def test_a_good_file_saves_every_row(self, team, review):
        result = services.actual_import_csv(team=team, content=GOOD_CSV.format(id=review.pk))
        assert result.saved and result.errors_by_line == {}
        assert sorted(ActualCost.objects.values_list("compute_cost", "source")) == [
            (190.0, "csv"), (260.0, "csv")]

    def test_the_preview_saves_nothing(self, team, review):
        result = services.actual_import_csv(
            team=team, content=GOOD_CSV.format(id=review.pk), dry_run=True)
        assert result.ok and not result.saved
        assert not ActualCost.objects.exists()

    def test_a_bad_line_saves_nothing_and_is_named(self, team, review):
        content = GOOD_CSV.format(id=review.pk) + f"{review.pk},2026-05-11,lots,0,,,job-3\n"
        result = services.actual_import_csv(team=team, content=content)
        assert not result.saved
        assert [(e.field, line) for line, es in result.errors_by_line.items() for e in es] == [
            ("compute_cost", 4)]
        assert not ActualCost.objects.exists()

    def test_the_same_file_twice_saves_nothing_the_second_time(self, team, review):
        content = GOOD_CSV.format(id=review.pk)
        assert services.actual_import_csv(team=team, content=content).saved
        again = services.actual_import_csv(team=team, content=content)
        assert not again.saved and set(again.errors_by_line) == {2, 3}
        assert ActualCost.objects.count() == 2

    def test_a_currency_not_the_teams_is_refused(self, team, review):
        content = GOOD_CSV.format(id=review.pk).replace(",USD,", ",CNY,")
        result = services.actual_import_csv(team=team, content=content)
        assert not result.saved
        assert [e.field for e in result.errors_by_line[2]] == ["currency"]
        assert not ActualCost.objects.exists()
