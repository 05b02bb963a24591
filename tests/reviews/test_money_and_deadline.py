"""Engine 3.1 in the product (SPEC 7.6 contract_paid, 7.7 cost_budget and deadline plans): the
forms save the new fields with help text and refuse bad values on the field in both languages,
the API answers 422 and the CLI exits 2 naming the field, and the review page shows the deadline
plans beside the compute budget and the money budget beside the chosen total."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.catalog.models import Offer
from apps.profiles.engine_input import offer_input, task_input
from apps.profiles.forms import TaskProfileForm
from tests.catalog.helpers import offer_data
from tests.engine.engine_fixtures import make_input, offer, task
from tests.factories import make_offer, make_profile, make_review, make_site
from tests.profiles.test_staged_fields import _form_data
from tests.reviews.helpers import current_snapshot_id
from tests.scoring.test_evaluate_command import run

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


class OfferContractPaidTests:
    def test_the_form_saves_a_paid_package_and_the_engine_reads_it(self, client, team, owner):
        client.force_login(owner)
        form = client.get(reverse("catalog:offer_create"), **EN).content.decode()
        assert "Contract only: the package is already paid." in form  # the help text
        response = client.post(
            reverse("catalog:offer_create"),
            offer_data(
                make_site(team, "a"), name="A800 year", billing_basis="contract", price="420000",
                contract_hours="8760", expected_utilization="0.7", contract_paid="on",
            ),  # fmt: skip
        )
        assert response.status_code == 302
        saved = Offer.objects.get(name="A800 year")
        assert saved.contract_paid is True
        assert offer_input(saved)["contract_paid"] is True
        detail = client.get(reverse("catalog:offer_detail", args=[saved.pk]), **ZH)
        assert "合同已付费" in detail.content.decode()
        listing = client.get(reverse("catalog:offer_list"), **ZH).content.decode()
        assert 'data-testid="contract-paid"' in listing and "包段已付费" in listing

    def test_an_unpaid_offer_sends_no_key(self, team):
        assert "contract_paid" not in offer_input(make_offer(team))

    @pytest.mark.parametrize(
        ("headers", "message"),
        [(EN, "Only a contract package can be already paid."), (ZH, "只有合同包段才可能已经付费。")],
    )
    def test_paid_on_another_basis_is_refused_on_the_field(
        self, client, team, owner, headers, message
    ):
        client.force_login(owner)
        response = client.post(
            reverse("catalog:offer_create"),
            offer_data(make_site(team, "a"), name="Not a package", contract_paid="on"),
            **headers,
        )
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["contract_paid"]
        assert message in errors["contract_paid"][0]
        assert not Offer.objects.filter(name="Not a package").exists()


class ProfileCostBudgetTests:
    def test_blank_sends_nothing_and_a_budget_is_sent(self, team):
        profile = make_profile(team)
        assert "cost_budget" not in task_input(profile, team)
        form = TaskProfileForm(_form_data(profile, cost_budget="950"), instance=profile, team=team)
        assert form.is_valid(), form.errors
        assert task_input(form.save(), team)["cost_budget"] == 950.0
        assert "P4 names the cheapest option within it" in str(form["cost_budget"].help_text)

    @pytest.mark.parametrize(
        ("value", "message"),
        [("-1", "greater than or equal to 0"), ("nan", "finite number"), ("lots", "number")],
    )
    def test_bad_values_are_refused_on_the_field(self, team, value, message):
        profile = make_profile(team)
        form = TaskProfileForm(_form_data(profile, cost_budget=value), instance=profile, team=team)
        assert not form.is_valid()
        assert message in " ".join(form.errors["cost_budget"])


class BadInputOverTheWireTests:
    BODY = make_input(
        task(cost_budget=-5),
        offers=[
            offer("a", contract_paid=True),
            offer("b", billing_basis="contract", price=1, contract_hours=10,
                  expected_utilization=0.5, contract_paid="yes"),
        ],  # fmt: skip
    )

    def test_the_api_answers_422_naming_each_field(self, client, team):
        _, raw = api_token_create(team=team, name="pipeline")
        response = client.post(
            "/api/v1/evaluate", data=json.dumps(self.BODY), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )  # fmt: skip
        assert response.status_code == 422
        fields = {e["field"] for e in response.json()["errors"]}
        assert fields == {"task.cost_budget", "offers[0].contract_paid", "offers[1].contract_paid"}

    def test_the_cli_exits_2_naming_each_field(self):
        out = run("-", stdin=json.dumps(self.BODY))
        assert out.returncode == 2
        for field in ("task.cost_budget", "offers[0].contract_paid", "offers[1].contract_paid"):
            assert field in out.stderr
        assert "Traceback" not in out.stderr


def _deadline_review(team, owner):
    """8 GPUs × 40 h at one site, a 10 h compute budget and 700 a run. `small` (one machine at
    most) cannot meet the deadline; `big` boots an hour later, so at 1 an hour of waiting small
    is chosen (800 + 50 against 800 + 51). Big meets 10 h with ⌈320 ÷ 10 ÷ 0.8⌉ = 40 GPUs:
    40 × 10 × 2.5 = 1,000, +200 against small's 8 × 40 × 2.5 = 800, which is over the 700."""
    site = make_site(team, "one")
    small = make_offer(team, site=site, name="small", max_machines=1)
    big = make_offer(team, site=site, name="big", boot_hours=1)
    profile = make_profile(
        team, site=site, compute_hours=40, budget_compute_hours=10, cost_budget=700,
        delay_cost_per_hour=1,
    )  # fmt: skip
    return make_review(team, owner, task=profile, offers=[small, big])


class ReviewPageTests:
    @pytest.mark.parametrize(
        ("headers", "plan_text", "money_text"),
        [
            (EN, "meets the compute budget on 40 GPUs", "over the cost budget of 700"),
            (ZH, "用 40 张卡可按时算完", "超出费用预算 700"),
        ],
    )
    def test_it_shows_the_deadline_plan_and_the_money_budget(
        self, client, team, owner, headers, plan_text, money_text
    ):
        review = _deadline_review(team, owner)
        current_snapshot_id(review)
        client.force_login(owner)
        page = client.get(reverse("reviews:detail", args=[review.pk]), **headers)
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-testid="deadline-plan"' in html and plan_text in html
        assert "+200" in html  # 1,000 − 800
        assert 'data-glance="cost-budget"' in html and money_text in html

    def test_the_comparison_table_marks_an_option_over_the_cost_budget(self, team, owner):
        from apps.reviews.snapshots.tables import _option_verdict

        chosen = {"kind": "wait_local", "site": "one", "offer": "1"}
        other = {"kind": "wait_local", "site": "one", "offer": "2", "feasible": True,
                 "within_budget": True, "within_cost_budget": False}  # fmt: skip
        assert _option_verdict(other, chosen) == "over_cost_budget"
        assert _option_verdict(dict(other, within_cost_budget=None), chosen) == "feasible"
