"""The decision record of a review (apps.scoring.record, templates/scoring/record.html): one
printable page with the profile, candidates, answers, figures, findings, sign-offs and audit trail;
signed figures once approved, the current ones labelled "not signed" before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from apps.reviews.models import AuditEvent, ReviewState
from apps.reviews.snapshots.services import signed_snapshot, snapshot_compute
from tests.reviews.helpers import approve, ready_review, submitted_review

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _url(review) -> str:
    return reverse("scoring:review_record", args=[review.pk])


@pytest.fixture
def signed(team, owner, reviewer):
    review = submitted_review(team, owner)
    approve(review, reviewer, comment="Cheapest bill, no transfer: approved.")
    review.refresh_from_db()
    assert review.state == ReviewState.APPROVED
    return review


class DecisionRecordTests:
    def test_it_shows_everything_the_signed_decision_rests_on(self, client, member, signed):
        client.force_login(member)
        response = client.get(_url(signed))
        assert response.status_code == 200
        html = response.content.decode()
        snapshot = signed_snapshot(signed)
        assert 'data-record-stamp="signed"' in html and "Not signed" not in html
        assert f'data-snapshot="{snapshot.pk}"' in html
        # The profile (as signed), the candidate and the six answers of its checklist.
        assert "Task profile" in html and "As signed" in html
        assert signed.candidates.get().offer.name in html
        for number in range(1, 7):
            assert f"Answer to q{number}" in html
        # The signed snapshot's findings (each linked to its method guide entry), table, charts.
        rules = [f["rule"] for f in snapshot.output["findings"]]
        assert rules and all(f'data-rule="{rule}"' in html for rule in rules)
        assert 'data-method-rule="G1"' in html
        assert "table comparison" in html
        assert f'data-plotly="chart-hours-{snapshot.pk}"' in html
        assert "data-charts-now" in html  # drawn at once, so a printout has them
        # The sign-off with its comment, and the audit trail.
        assert "Cheapest bill, no transfer: approved." in html
        for action in ("submitted", "signed_off", "approved"):
            assert f'data-action="{action}"' in html

    def test_a_review_not_yet_signed_shows_the_current_figures_labelled_not_signed(
        self, client, owner, team
    ):
        review = ready_review(team, owner)
        snapshot = snapshot_compute(review_id=review.pk)
        client.force_login(owner)
        response = client.get(_url(review))
        html = response.content.decode()
        assert response.status_code == 200
        assert 'data-record-stamp="not-signed"' in html and 'data-signed="false"' in html
        assert "Not signed." in html and "state: Draft" in html
        assert f"snapshot #{snapshot.pk}" in html
        assert "No decision yet." in html

    def test_a_signed_record_keeps_its_figures_when_the_catalog_changes(
        self, client, owner, signed
    ):
        offer = signed.candidates.get().offer
        type(offer).objects.filter(pk=offer.pk).update(price=99.0, name="Renamed later")
        client.force_login(owner)
        html = client.get(_url(signed)).content.decode()
        # The frozen input names the offer as it was signed, priced as signed (2.50).
        assert "Renamed later" not in html
        assert "2.50 USD" in html and "99.00" not in html

    def test_the_review_page_links_to_it(self, client, owner, signed, team):
        draft = ready_review(team, owner)
        client.force_login(owner)
        for review in (signed, draft):
            html = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
            assert f'href="{_url(review)}" data-record-link' in html

    def test_it_speaks_chinese(self, client, owner, signed):
        client.force_login(owner)
        html = client.get(_url(signed), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        snapshot = signed_snapshot(signed)
        assert "决策记录" in html and "已签字" in html and "审计记录" in html
        g1 = next(f for f in snapshot.output["findings"] if f["rule"] == "G1")
        assert escape(g1["message_zh"]) in html and escape(g1["message"]) not in html
        assert "Decision record" not in html and "Audit trail" not in html


class DecisionRecordAccessTests:
    def test_another_team_gets_404_and_anonymous_users_the_login_page(
        self, client, outsider, signed
    ):
        client.force_login(outsider)
        assert client.get(_url(signed)).status_code == 404
        client.logout()
        response = client.get(_url(signed))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))

    def test_every_role_of_the_team_reads_it(self, client, owner, member, reviewer, signed):
        for user in (owner, member, reviewer):
            client.force_login(user)
            assert client.get(_url(signed)).status_code == 200


class DecisionRecordQueryTests:
    def _count(self, client, url) -> int:
        client.get(url)  # warms what a first request loads once
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    def test_its_queries_do_not_grow_with_candidates_answers_and_events(self, client, owner, team):
        client.force_login(owner)
        small = ready_review(team, owner, offers=1)
        large = ready_review(team, owner, offers=5)
        AuditEvent.objects.bulk_create(
            AuditEvent(
                team=team,
                review=large,
                actor=owner,
                action="answer_saved",
                changes={"text": ["", f"answer {i}"]},
            )
            for i in range(30)
        )
        assert large.candidates.count() == 5 and small.candidates.count() == 1
        for review in (small, large):
            snapshot_compute(review_id=review.pk)
        assert self._count(client, _url(small)) == self._count(client, _url(large))
