"""Actual costs for a member of two teams who has switched team (issue 36's blind spots): every
import lands in the team the person is working in, and a review of the other team is not found;
a bill in another currency is refused by name in every format the import reads."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.actuals.bills import bill_import
from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review
from tests.factories import make_membership, make_user

pytestmark = pytest.mark.django_db

CUR = (
    "identity/LineItemId,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/UsageType,"
    "lineItem/ResourceId,lineItem/UnblendedCost,lineItem/CurrencyCode,product/productFamily,"
    "resourceTags/user:review,lineItem/Operation\n"
    "a1,2026-03-02T00:00:00Z,AmazonEC2,BoxUsage:p5.48xlarge,i-1,150.5,{currency},"
    "Compute Instance,review:{id},RunInstances\n"
)
GENERIC = "date,provider,resource,tag,amount,currency\n2026-04-01,Acme,gpu,review:{id},100,{currency}\n"


@pytest.fixture
def two_teams(team, other_team, member):
    """`member` belongs to both teams; each team has an approved review of its own."""
    make_membership(member, other_team, "member")
    theirs_reviewer = make_user("second-reviewer")
    make_membership(theirs_reviewer, other_team, "reviewer")
    ours_reviewer = make_user("first-reviewer")
    make_membership(ours_reviewer, team, "reviewer")
    return {
        "first": approved_review(team, member, ours_reviewer),
        "second": approved_review(other_team, member, theirs_reviewer),
    }


def switch(client, team):
    response = client.post(reverse("accounts:team_switch"), {"team": team.pk})
    assert response.status_code == 302


class SwitchedMemberTests:
    def test_a_csv_import_lands_in_the_team_switched_to(self, client, member, other_team, two_teams):
        client.force_login(member)
        switch(client, other_team)
        content = f"review,period,compute_cost\n{two_teams['second'].pk},2026-02-03,260\n"
        done = client.post(reverse("actuals:import"), {"content": content, "confirm": "1"})
        assert done.status_code == 302
        saved = ActualCost.objects.get()
        assert (saved.team_id, saved.review_id) == (other_team.pk, two_teams["second"].pk)

    def test_the_first_teams_review_is_not_found_after_the_switch(
        self, client, member, other_team, two_teams
    ):
        client.force_login(member)
        switch(client, other_team)
        first = two_teams["first"].pk
        content = f"review,period,compute_cost\n{first},2026-02-03,260\n"
        preview = client.post(reverse("actuals:import"), {"content": content, "confirm": "1"})
        assert f"No review #{first} in this team." in preview.content.decode()
        assert not ActualCost.objects.exists()

    def test_a_bill_lands_in_the_team_switched_to(self, client, member, other_team, two_teams):
        client.force_login(member)
        switch(client, other_team)
        content = GENERIC.format(id=two_teams["second"].pk, currency=other_team.currency)
        client.post(reverse("actuals:bill"), {"content": content, "confirm": "1"})
        saved = ActualCost.objects.get()
        assert (saved.team_id, saved.review_id) == (other_team.pk, two_teams["second"].pk)


@pytest.mark.parametrize("template", [CUR, GENERIC], ids=["aws-cur", "generic"])
def test_a_bill_in_another_currency_is_refused_in_every_format(team, member, reviewer, template):
    review = approved_review(team, member, reviewer)
    other = "EUR" if team.currency.upper() != "EUR" else "USD"
    result = bill_import(team=team, content=template.format(id=review.pk, currency=other))
    assert not result.saved
    [errors] = result.errors_by_line.values()
    assert [e.field for e in errors] == ["currency"]
    assert other in errors[0].message and team.currency in errors[0].message
    assert not ActualCost.objects.exists()
