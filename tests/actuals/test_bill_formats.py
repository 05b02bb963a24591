"""Provider bills in today's formats, on public samples (tests/data/bills, tests/data/README.md):
FOCUS 1.2 from AWS and Azure, AWS CUR 2.0, AWS legacy CUR without its currency column."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.actuals.bills import bill_import, summary
from apps.actuals.models import ActualCost, ActualsSettings, BillLine
from apps.web.limits import MAX_BYTES, MAX_ERRORS, MAX_ROWS
from tests.actuals.bill_samples import edit, sample
from tests.actuals.helpers import BILLS_APPROVED_AT, approved_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer, approved_at=BILLS_APPROVED_AT)


def saved(team, review, name, **kw):
    result = bill_import(team=team, content=sample(name, review.pk), **kw)
    assert result.saved, result.errors_by_line
    return result


class FormatTests:
    def test_focus_from_aws_sums_the_tagged_lines_and_shows_tax_apart(self, team, review):
        result = saved(team, review, "focus12_aws.csv")
        record = ActualCost.objects.get()
        # Lines 8 and 9: two hours of one p4d instance, no line-item id, 32.773 each (compute);
        # line 10: 4.5 of data transfer (SkuMeter "Data Transfer"). 32.773 × 2 = 65.546.
        assert (record.period, record.compute_cost, record.transfer_cost) == (
            dt.date(2026, 5, 1), pytest.approx(65.546), pytest.approx(4.5))
        assert BillLine.objects.filter(record=record).count() == 3
        answer = summary(result, dry_run=False)
        assert answer["format"] == "FOCUS 1.0–1.3" and answer["lines_read"] == 10
        assert answer["matched"] == [{"review": review.pk, "lines": 3,
                                      "compute_cost": pytest.approx(65.546),
                                      "transfer_cost": pytest.approx(4.5)}]
        # Lines 2-7 carry no review tag; line 11 is tax, shown apart.
        assert (answer["unassigned"], answer["shown_apart"]) == (6, 1)
        # Every line billed: 560.92032 + 38.556572 + 10.733402 + 32.773 × 2 + 4.5 + 3.1
        # (the committed-usage lines bill 0) = 683.356294.
        assert answer["totals"] == {"USD": pytest.approx(683.356294)}

    def test_focus_from_azure_reads_review_colon_id_and_leaves_the_credit_apart(
        self, team, review
    ):
        result = saved(team, review, "focus12_azure.csv")
        record = ActualCost.objects.get()
        # Line 5: one hour of an ND96asr_v4, 27.197; the -5 credit on line 6 is not counted.
        assert (record.compute_cost, record.transfer_cost) == (pytest.approx(27.197), 0.0)
        assert summary(result, dry_run=False)["shown_apart"] == 1

    def test_the_team_may_count_effective_cost_instead_of_billed(self, team, review):
        ActualsSettings.objects.create(team=team, bill_cost="effective")
        # Line 3 is committed usage: billed 0, effective 0.064032; assigned to the review by
        # hand. Effective: 0.064032 + 32.773 × 2 = 65.610032.
        saved(team, review, "focus12_aws.csv", assigned={3: review.pk})
        assert ActualCost.objects.get().compute_cost == pytest.approx(65.610032)

    def test_billed_cost_counts_committed_usage_as_zero(self, team, review):
        saved(team, review, "focus12_aws.csv", assigned={3: review.pk})
        assert ActualCost.objects.get().compute_cost == pytest.approx(65.546)

    def test_cur_2_reads_the_resource_tags_map_and_hourly_lines_of_one_instance(
        self, team, review
    ):
        result = saved(team, review, "cur2.csv")
        record = ActualCost.objects.get()
        # Lines 2, 3 and 5: three hours of i-1234567890abcdef0 at 0.0104 (two of them identical
        # but for the hour) = 0.0312; line 6 a DataTransfer usage type, 1.08.
        assert (record.period, record.compute_cost, record.transfer_cost) == (
            dt.date(2025, 1, 1), pytest.approx(0.0312), pytest.approx(1.08))
        assert summary(result, dry_run=False)["unassigned"] == 1  # the RDS line 4

    def test_cur_2_reads_resource_tags_user_columns(self, team, review):
        content = (
            "line_item_usage_start_date,line_item_usage_end_date,line_item_resource_id,"
            "line_item_usage_type,line_item_unblended_cost,line_item_currency_code,"
            "resource_tags_user_review\n"
            f"2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,i-1,BoxUsage:p5.48xlarge,98.32,USD,"
            f"{review.pk}\n"
        )
        assert bill_import(team=team, content=content).saved
        assert ActualCost.objects.get().compute_cost == pytest.approx(98.32)

    def test_a_legacy_cur_without_currency_is_taken_in_the_teams_with_a_warning(
        self, team, review
    ):
        result = saved(team, review, "cur_legacy.csv")
        assert ActualCost.objects.get().compute_cost == pytest.approx(0.0312)  # 3 × 0.0104
        assert result.warnings == [
            "This bill has no currency column: its lines are taken in the team's currency (USD)."
        ]

    def test_the_team_chooses_the_tag_key(self, team, review):
        ActualsSettings.objects.create(team=team, bill_tag_key="project")
        content = sample("cur2.csv", review.pk).replace("user_review", "user_project")
        assert bill_import(team=team, content=content).saved
        # Under the key "review" nothing would match any more.
        ActualCost.objects.all().delete()
        BillLine.objects.all().delete()
        ActualsSettings.objects.filter(team=team).update(bill_tag_key="review")
        assert not bill_import(team=team, content=content).saved


# (sample, line, currency column as in its header)
FOREIGN = [
    ("focus12_aws.csv", 8, "BillingCurrency"),
    ("focus12_azure.csv", 5, "BillingCurrency"),
    ("cur2.csv", 2, "line_item_currency_code"),
]


class BadInputTests:
    @pytest.mark.parametrize(("name", "line", "column"), FOREIGN)
    def test_a_line_in_another_currency_is_refused_by_name(self, team, review, name, line,
                                                           column):
        content = edit(sample(name, review.pk), line, column, "EUR")
        result = bill_import(team=team, content=content)
        assert not result.saved
        [error] = result.errors_by_line[line]
        assert error.field == "currency" and "this line is in EUR" in error.message
        assert not ActualCost.objects.exists() and not BillLine.objects.exists()

    def test_a_legacy_cur_line_in_another_currency_is_refused_by_name(self, team, review):
        content = sample("cur_legacy.csv", review.pk)
        lines = content.splitlines()
        lines[0] += ",lineItem/CurrencyCode"
        lines[1:] = [f"{x},{'JPY' if i == 1 else 'USD'}" for i, x in enumerate(lines[1:])]
        result = bill_import(team=team, content="\n".join(lines) + "\n")
        assert "this line is in JPY" in result.errors_by_line[3][0].message
        assert not ActualCost.objects.exists()

    def test_a_file_in_none_of_the_formats_names_what_it_found_and_the_formats(self, team):
        result = bill_import(team=team, content="Date,Service,Cost\n2026-01-01,EC2,3\n")
        [error] = result.errors_by_line[1]
        assert "its header starts Date, Service, Cost" in error.message
        for name in ("FOCUS 1.0–1.3", "AWS CUR 2.0", "AWS legacy CUR", "generic"):
            assert name in error.message

    def test_a_row_error_names_its_line_and_column_and_nothing_is_stored(self, team, review):
        content = edit(sample("focus12_aws.csv", review.pk), 9, "BilledCost", "lots")
        result = bill_import(team=team, content=content)
        assert [(e.field, e.message) for e in result.errors_by_line[9]] == [
            ("billedcost", "Enter a number.")]
        assert summary(result, dry_run=False)["errors"] == [
            {"line": 9, "column": "billedcost", "message": "Enter a number."}]
        assert not ActualCost.objects.exists() and not BillLine.objects.exists()

    def test_a_2_mb_file_of_bad_rows_is_read_only_up_to_the_caps(self, team):
        header = sample("focus12_aws.csv", 1).splitlines()[0]
        row = "," * header.count(",")  # every cell empty: a bad date and amount
        row = "x" + row  # not blank, so it counts as a row
        count = (MAX_BYTES - len(header) - 2) // (len(row) + 1)
        content = header + "\n" + (row + "\n") * count
        assert count > 7 * MAX_ROWS and len(content.encode()) <= MAX_BYTES
        result = bill_import(team=team, content=content)
        assert result.records_read <= MAX_ROWS + 1  # the reader stopped at the row cap
        assert f"More than {MAX_ROWS} rows; split the file." in str(result.errors_by_line[1])
        assert len(summary(result, dry_run=False)["errors"]) <= MAX_ERRORS
        assert not ActualCost.objects.exists()

    def test_rows_with_errors_list_at_most_100(self, team):
        header = sample("focus12_aws.csv", 1).splitlines()[0]
        row = "x" + "," * header.count(",")
        content = header + "\n" + (row + "\n") * (MAX_ROWS - 1)
        answer = summary(bill_import(team=team, content=content), dry_run=True)
        assert len({e["line"] for e in answer["errors"]}) == MAX_ERRORS
        assert answer["more_errors"] == MAX_ROWS - 1 - MAX_ERRORS
