"""The bill import for pipelines: `manage.py import_bill` and POST /api/v1/bills answer the same
summary as the page's import (format, lines read, matched per review, unassigned, totals per
currency, row errors); a refused bill writes nothing (exit code 2, HTTP 422)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.actuals.models import ActualCost, BillLine
from tests.actuals.bill_samples import BILLS, edit, sample
from tests.actuals.helpers import BILLS_APPROVED_AT, approved_review

pytestmark = pytest.mark.django_db
URL = "/api/v1/bills"


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer, approved_at=BILLS_APPROVED_AT)


@pytest.fixture
def auth(team, owner):
    _token, raw = api_token_create(team=team, name="pipeline", created_by=owner)
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def run(*args) -> dict:
    out = io.StringIO()
    call_command("import_bill", *args, "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def write(tmp_path, text: str):
    path = tmp_path / "bill.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


class CommandTests:
    def test_json_prints_the_summary_and_the_bill_is_saved(self, tmp_path, team, review):
        path = write(tmp_path, sample("cur2.csv", review.pk))
        answer = run("--team", team.name, path)
        assert (answer["format"], answer["lines_read"], answer["unassigned"]) == (
            "AWS CUR 2.0", 5, 1)
        # Lines 2, 3, 5 compute (3 × 0.0104) and line 6 transfer (1.08).
        assert answer["matched"] == [{"review": review.pk, "lines": 4,
                                      "compute_cost": pytest.approx(0.0312),
                                      "transfer_cost": pytest.approx(1.08)}]
        # 0.0104 × 3 + 0.034 + 1.08 = 1.1452, every line read.
        assert answer["totals"] == {"USD": pytest.approx(1.1452)}
        assert answer["saved"] and ActualCost.objects.count() == 1

    def test_dry_run_writes_nothing_and_the_team_may_be_named_by_id(self, tmp_path, team,
                                                                     review):
        path = write(tmp_path, sample("focus12_azure.csv", review.pk))
        answer = run("--team", str(team.pk), path, "--dry-run")
        assert answer["dry_run"] and not answer["saved"] and answer["errors"] == []
        assert not ActualCost.objects.exists()

    def test_a_refused_bill_exits_2_and_writes_nothing(self, tmp_path, team, review):
        content = edit(sample("focus12_aws.csv", review.pk), 8, "BillingCurrency", "EUR")
        out = io.StringIO()
        with pytest.raises(CommandError) as raised:
            call_command("import_bill", "--team", team.name, write(tmp_path, content), "--json",
                         stdout=out)
        assert raised.value.returncode == 2
        [error] = json.loads(out.getvalue())["errors"]
        assert error["line"] == 8 and error["column"] == "currency" and "EUR" in error["message"]
        assert not ActualCost.objects.exists() and not BillLine.objects.exists()

    def test_an_unknown_team_exits_2(self, team):
        with pytest.raises(CommandError) as raised:
            call_command("import_bill", "--team", "nobody", str(BILLS / "cur2.csv"))
        assert raised.value.returncode == 2 and "nobody" in str(raised.value)


class ApiTests:
    def test_a_token_imports_a_bill_and_gets_the_summary(self, client, auth, review):
        response = client.post(URL, sample("focus12_aws.csv", review.pk),
                               content_type="text/csv", **auth)
        assert response.status_code == 200, response.content
        answer = response.json()
        assert answer["format"] == "FOCUS 1.0–1.3" and answer["saved"]
        assert [(m["review"], m["lines"]) for m in answer["matched"]] == [(review.pk, 3)]
        assert ActualCost.objects.get().compute_cost == pytest.approx(65.546)

    def test_the_same_bill_again_answers_422_and_saves_nothing(self, client, auth, review):
        content = sample("cur2.csv", review.pk)
        assert client.post(URL, content, content_type="text/csv", **auth).status_code == 200
        again = client.post(URL, content, content_type="text/csv", **auth)
        assert again.status_code == 422
        assert {e["line"] for e in again.json()["errors"]} == {2, 3, 5, 6}
        assert ActualCost.objects.count() == 1

    def test_dry_run_writes_nothing(self, client, auth, review):
        response = client.post(f"{URL}?dry_run=true", sample("cur2.csv", review.pk),
                               content_type="text/csv", **auth)
        assert response.status_code == 200 and not response.json()["saved"]
        assert not ActualCost.objects.exists()

    def test_a_reviewer_session_is_refused(self, client, reviewer, review):
        client.force_login(reviewer)
        csrf = client.get(reverse("actuals:list")).cookies["csrftoken"].value
        response = client.post(URL, sample("cur2.csv", review.pk), content_type="text/csv",
                               HTTP_X_CSRFTOKEN=csrf)
        assert response.status_code == 403
        assert not ActualCost.objects.exists()

    def test_without_a_token_nothing_is_read(self, client, review):
        response = client.post(URL, sample("cur2.csv", review.pk), content_type="text/csv")
        assert response.status_code == 401


class SettingsPageTests:
    def test_the_owner_chooses_the_tag_key_and_the_cost_and_the_page_says_so(self, client,
                                                                              owner, team):
        client.force_login(owner)
        response = client.post(reverse("actuals:bill_settings"),
                               {"bill_tag_key": "project", "bill_cost": "effective"})
        assert response.status_code == 302
        page = client.get(reverse("actuals:bill")).content.decode()
        assert ("This team's bills: the tag key project names a review; Effective cost "
                "(amortised commitments) is counted.") in page

    def test_a_member_may_not_change_them(self, client, member, team):
        client.force_login(member)
        response = client.post(reverse("actuals:bill_settings"),
                               {"bill_tag_key": "project", "bill_cost": "effective"})
        assert response.status_code == 403
        assert "the tag key review names a review" in client.get(
            reverse("actuals:bill")).content.decode()

    def test_a_key_with_a_space_is_refused_on_the_field(self, client, owner, team):
        client.force_login(owner)
        client.post(reverse("actuals:bill_settings"), {"bill_tag_key": "my key",
                                                        "bill_cost": "billed"})
        page = client.get(reverse("actuals:bill")).content.decode()
        assert "Letters, digits and _ . : / + = @ - only, no spaces." in page
        assert "the tag key review names a review" in page
