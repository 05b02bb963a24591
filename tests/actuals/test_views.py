"""The actual-cost pages and the plan-against-actual section of the review page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.actuals import services
from apps.actuals.models import ActualCost
from tests.actuals.helpers import approved_review
from tests.teams.helpers import moving_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(team, member, reviewer):
    return approved_review(team, member, reviewer)


def record(team, review, **kw):
    data = {"review": review.pk, "period": "2026-02-03", "compute_cost": 260,
            "transfer_cost": 90, **kw}
    return services.actual_create(team=team, data=data)


class ReviewPageTests:
    def test_it_shows_the_variance_worked_by_hand(self, client, team, review, member):
        # Plan per run: compute 200 + transfer 60 = 260. Two runs: (260 + 90) and (190 + 55).
        # Planned 2 × 260 = 520; actual 350 + 245 = 595; variance +75, 75 / 520 = +14.4 %.
        record(team, review, hours=12.5)
        record(team, review, period="2026-05-10", compute_cost=190, transfer_cost=55)
        client.force_login(member)
        page = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "data-plan-vs-actual" in page
        assert "<strong data-variance>+75.00</strong>" in page
        assert "<strong data-variance-pct>+14.4 %</strong>" in page

    def test_a_new_actual_shows_on_the_cached_approved_page(self, client, team, review, member):
        client.force_login(member)
        first = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "No actual cost recorded yet" in first
        record(team, review)
        page = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        # 350 against 260: +90.00, +34.6 %.
        assert "<strong data-variance>+90.00</strong>" in page

    def test_the_next_review_of_the_task_says_the_last_run_went_over(
        self, client, team, review, member
    ):
        # 350 against 260 planned: 34.6 % over, above the default 20 %; transfer ran over by
        # 30, compute by 60: the compute is named.
        record(team, review)
        later = moving_review(team, member)
        later.task = review.task
        later.save()
        client.force_login(member)
        page = client.get(reverse("reviews:detail", args=[later.pk])).content.decode()
        notice_url = reverse("actuals:notice", args=[later.pk])
        assert f'hx-get="{notice_url}"' in page  # fetched after the page: no query on it
        page = client.get(notice_url, HTTP_HX_REQUEST="true").content.decode()
        assert "data-over-plan-notice" in page
        assert "The last run cost 35 % more than planned" in page
        assert "check the compute" in page

    def test_no_notice_within_the_teams_threshold(self, client, team, review, member, owner):
        record(team, review)  # 34.6 % over
        client.force_login(owner)
        client.post(reverse("actuals:threshold"), {"over_plan_pct": "40"})
        later = moving_review(team, member)
        later.task = review.task
        later.save()
        page = client.get(reverse("actuals:notice", args=[later.pk])).content.decode()
        assert "data-over-plan-notice" not in page


class PagesTests:
    def test_the_form_saves_and_lists(self, client, team, review, member):
        client.force_login(member)
        response = client.post(reverse("actuals:create"), {
            "review": review.pk, "period": "2026-02-03", "compute_cost": "260",
            "transfer_cost": "90"})
        assert response.status_code == 302
        listing = client.get(reverse("actuals:list")).content.decode()
        assert f"#{review.pk} · {review.title}" in listing

    def test_reviewers_read_but_do_not_write(self, client, reviewer, review):
        client.force_login(reviewer)
        assert client.get(reverse("actuals:list")).status_code == 200
        assert client.get(reverse("actuals:create")).status_code == 403

    def test_an_edit_on_an_older_version_is_a_conflict(self, client, team, review, member):
        saved = record(team, review)
        client.force_login(member)
        data = {"review": review.pk, "period": "2026-02-03", "compute_cost": "300",
                "transfer_cost": "90", "version": saved.version}
        assert client.post(reverse("actuals:edit", args=[saved.pk]), data).status_code == 302
        stale = client.post(reverse("actuals:edit", args=[saved.pk]), {**data,
                                                                        "compute_cost": "310"})
        assert stale.status_code == 409
        saved.refresh_from_db()
        assert saved.compute_cost == 300

    def test_the_csv_import_previews_then_saves(self, client, review, member):
        client.force_login(member)
        content = f"review,period,compute_cost\n{review.pk},2026-02-03,260\n"
        preview = client.post(reverse("actuals:import"), {"content": content})
        assert "1 row is ready to import." in preview.content.decode()
        assert not ActualCost.objects.exists()
        done = client.post(reverse("actuals:import"), {"content": content, "confirm": "1"})
        assert done.status_code == 302
        assert ActualCost.objects.get().compute_cost == 260


class QuarterlyPageTests:
    def test_it_shows_the_runs_against_their_plan(self, client, team, review, member):
        from apps.scoring.services.quarterly_review import quarterly_refresh

        # One run in 2026Q1: 350 against 260 planned, +90.00 (+34.6 %).
        record(team, review)
        quarterly_refresh(team=team)
        client.force_login(member)
        page = client.get(reverse("scoring:quarterly")).content.decode()
        assert 'data-actual-quarter="2026Q1"' in page
        assert '<td class="num is-negative" data-variance>+90.00</td>' in page
        assert "+90.00 (+34.6 %)" in page
        assert "actuals of 1 run" in page
