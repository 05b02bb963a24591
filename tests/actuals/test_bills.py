"""Provider bills: matched by the review:<id> tag within the team, summed per review and month."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.actuals.bills import bill_import, tagged_review
from apps.actuals.models import ActualCost, BillLine
from tests.actuals.helpers import approved_review
from tests.factories import make_membership, make_user

pytestmark = pytest.mark.django_db

CUR = (
    "identity/LineItemId,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/UsageType,"
    "lineItem/ResourceId,lineItem/UnblendedCost,lineItem/CurrencyCode,product/productFamily,"
    "resourceTags/user:review,lineItem/Operation\n"
    "a1,2026-03-02T00:00:00Z,AmazonEC2,BoxUsage:p5.48xlarge,i-1,150.5,USD,Compute Instance,{id},"
    "RunInstances\n"
    "a2,2026-03-03T00:00:00Z,AmazonEC2,BoxUsage:p5.48xlarge,i-1,49.5,USD,Compute Instance,"
    "review:{id},RunInstances\n"
    "a3,2026-03-03T00:00:00Z,AWSDataTransfer,APN1-DataTransfer-Out-Bytes,,12.25,USD,"
    "Data Transfer,{id},\n"
    "a4,2026-03-04T00:00:00Z,AmazonS3,TimedStorage,bucket,3,USD,Storage,,\n"
)
GENERIC = (
    "date,provider,resource,tag,amount,currency,kind\n"
    "2026-04-01,Acme,gpu-pool,team:ml review:{id},100,USD,compute\n"
    "2026-04-02,Acme,egress,review:{id},7.5,USD,transfer\n"
)


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


class BillImportTests:
    def test_a_cur_file_sums_compute_and_transfer_per_review_and_month(self, team, review):
        result = bill_import(team=team, content=CUR.format(id=review.pk))
        assert result.saved, result.errors_by_line
        record = ActualCost.objects.get()
        # Compute 150.5 + 49.5 = 200; transfer (Data Transfer family) 12.25; the untagged
        # storage line a4 is left out.
        assert (record.review_id, record.period, record.compute_cost, record.transfer_cost,
                record.source) == (review.pk, dt.date(2026, 3, 1), 200.0, 12.25, "bill")
        assert result.skipped == 1 and [x.line for x in result.unmatched] == [5]
        assert BillLine.objects.filter(record=record).count() == 3

    def test_the_same_bill_twice_saves_nothing(self, team, review):
        content = GENERIC.format(id=review.pk)
        assert bill_import(team=team, content=content).saved
        again = bill_import(team=team, content=content)
        assert not again.saved and set(again.errors_by_line) == {2, 3}
        assert ActualCost.objects.count() == 1

    def test_a_currency_not_the_teams_is_refused(self, team, review):
        content = GENERIC.format(id=review.pk).replace(",7.5,USD,", ",7.5,EUR,")
        result = bill_import(team=team, content=content)
        assert not result.saved
        assert [e.field for e in result.errors_by_line[3]] == ["currency"]
        assert not ActualCost.objects.exists()

    def test_a_bad_line_saves_nothing(self, team, review):
        content = GENERIC.format(id=review.pk) + "yesterday,Acme,x,review:1,1,USD,compute\n"
        result = bill_import(team=team, content=content)
        assert not result.saved and [e.field for e in result.errors_by_line[4]] == ["date"]
        assert not ActualCost.objects.exists()

    def test_another_teams_review_tag_does_not_match(self, team, other_team, review, outsider):
        theirs = approved_review(
            other_team, outsider, make_membership(make_user("rev-b"), other_team, "reviewer").user
        )
        content = GENERIC.format(id=theirs.pk)
        result = bill_import(team=team, content=content, dry_run=True)
        assert result.groups == []
        assert [x.unmatched for x in result.unmatched] == [
            f"no review #{theirs.pk} in this team"] * 2
        # Assigned by hand to the team's own review, the lines are imported.
        done = bill_import(team=team, content=content, assigned={2: review.pk, 3: review.pk})
        assert done.saved
        assert ActualCost.objects.get().review_id == review.pk

    def test_it_reads_the_tag_forms(self):
        assert tagged_review("team:ml;review:12", bare=False) == 12
        assert tagged_review("preview:12", bare=False) is None
        assert tagged_review("#7", bare=True) == 7
        assert tagged_review("review:#7", bare=True) == 7
        assert tagged_review("7", bare=False) is None
