"""GET /api/v1/reviews/{id}/summary and POST /api/v1/evaluate?format=markdown (issue 40): a
review's decision for a pull request, checked on the demo's largest review against its own
snapshot, and another team's review a 404."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db.models import Count

from apps.accounts.models import Team
from apps.accounts.tokens import api_token_create
from apps.reviews.models import Review
from apps.reviews.snapshots import flips
from apps.reviews.snapshots.services import signed_snapshot
from apps.scoring.pr_summary import md
from apps.web.labels import PLACEMENTS, PLATFORMS
from tests.engine.engine_fixtures import make_input, offer, task

pytestmark = pytest.mark.django_db


def bearer(team: Team) -> dict:
    _, raw = api_token_create(team=team, name="ci")
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def largest_review() -> Review:
    """The demo review with the most candidates (then the most sign-offs)."""
    return (
        Review.objects.annotate(n=Count("candidates", distinct=True), s=Count("signoffs"))
        .order_by("-n", "-s", "pk")
        .select_related("team")
        .first()
    )


def money(value: float) -> str:
    return f"{value:,.2f}"


class ReviewSummaryTests:
    def test_the_largest_demo_review_says_its_decision_in_under_60_lines(self, client, demo_world):
        review = largest_review()
        snapshot = signed_snapshot(review) or review.snapshots.first()
        response = client.get(f"/api/v1/reviews/{review.pk}/summary", **bearer(review.team))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/markdown")
        text = response.content.decode()
        lines = text.splitlines()
        assert len(lines) < 60
        assert lines[0].startswith(f"### Review #{review.pk}: ")
        rows = [r for r in snapshot.table_rows if r.get("row_type") == "option"]
        chosen = next(r for r in rows if r["chosen"])
        runner = snapshot.output["runner_up"]
        runner_row = next(
            r for r in rows
            if (r["placement"], r["site"], str(r["offer"]))
            == (runner["kind"], runner["site"], str(runner["offer"]))
        )  # fmt: skip
        # The chosen row and the runner-up row of the table, each with its total and hours;
        # the runner-up's differences against the chosen one with their sign.
        chosen_line = next(line for line in lines if line.startswith("| **Chosen**"))
        assert md(chosen["offer_label"]) in chosen_line
        assert money(chosen["total_cost"]) in chosen_line
        assert money(chosen["total_hours"]) in chosen_line
        runner_line = next(line for line in lines if line.startswith("| Runner-up"))
        assert md(runner_row["offer_label"]) in runner_line
        cost_delta = runner_row["total_cost"] - chosen["total_cost"]
        assert money(runner_row["total_cost"]) in runner_line
        assert f"{'+' if cost_delta > 0 else '−'}{money(abs(cost_delta))}" in runner_line
        assert money(runner_row["total_hours"]) in runner_line
        decision = next(line for line in lines if line.startswith("**Decision:** "))
        assert decision.startswith(f"**Decision:** {PLATFORMS[snapshot.output['platform']]}")
        assert decision.endswith(f"{md(chosen['offer_label'])} · {PLACEMENTS[chosen['placement']]}"
                                 f" · {chosen['site']}")  # fmt: skip
        # The nearest flips, in the engine's words, nearest first.
        nearest = flips.nearest_flips(snapshot.output)
        assert nearest, "the demo's largest review has flips to show"
        for entry in nearest:
            assert f"{entry['rank']}. {md(entry['message'])}" in lines
        # Open blocks: each block finding by rule, or the line saying there is none.
        blocks = [f for f in snapshot.output["findings"] if f["severity"] == "block"]
        assert f"**Open blocks** ({len(blocks)})" in lines
        for finding in blocks[:8]:
            assert any(line.startswith(f"- **{finding['rule']}** ") for line in lines)
        # Sign-offs: every reviewer with the decision in words, then the link.
        assert any(line.startswith("**Sign-offs**") for line in lines)
        signoffs = list(review.signoffs.select_related("reviewer"))
        for signoff in signoffs:
            assert any(
                line.startswith(f"- {md(signoff.reviewer.username)} — "
                                f"{signoff.get_decision_display()} (round {signoff.round}")
                for line in lines
            )  # fmt: skip
        if not signoffs:
            assert "- None yet." in lines
        assert lines[-1] == f"[Open the review]({settings.SITE_URL}/reviews/{review.pk}/)"

    def test_json_by_accept_or_query_holds_the_same_figures(self, client, demo_world):
        review = largest_review()
        headers = bearer(review.team)
        url = f"/api/v1/reviews/{review.pk}/summary"
        by_accept = client.get(url, HTTP_ACCEPT="application/json", **headers)
        by_query = client.get(url + "?format=json", **headers)
        assert by_accept.status_code == by_query.status_code == 200
        data = by_accept.json()
        assert data == by_query.json()
        snapshot = signed_snapshot(review) or review.snapshots.first()
        chosen = next(r for r in snapshot.table_rows if r.get("chosen"))
        assert data["chosen"]["total_cost"] == chosen["total_cost"]
        assert data["chosen"]["total_hours"] == chosen["total_hours"]
        assert data["runner_cost_delta"] == pytest.approx(
            data["runner_up"]["total_cost"] - chosen["total_cost"]
        )
        assert data["snapshot"]["id"] == snapshot.pk
        assert data["review"]["state"] == review.state
        assert len(data["signoffs"]) == review.signoffs.count()

    def test_an_unknown_format_is_422_naming_the_field(self, client, demo_world):
        review = largest_review()
        response = client.get(
            f"/api/v1/reviews/{review.pk}/summary?format=html", **bearer(review.team)
        )
        assert response.status_code == 422
        assert response.json()["errors"][0]["field"] == "format"

    def test_another_teams_token_or_member_gets_404(self, client, demo_world):
        review = largest_review()
        other = Team.objects.exclude(pk=review.team_id).first()
        url = f"/api/v1/reviews/{review.pk}/summary"
        assert client.get(url, **bearer(other)).status_code == 404
        assert client.get(url, **bearer(review.team)).status_code == 200
        outsider = other.memberships.select_related("user").first().user
        client.force_login(outsider)
        assert client.get(url).status_code == 404
        assert client.get("/api/v1/reviews/999999/summary").status_code == 404

    def test_a_member_of_two_teams_reads_it_only_while_in_the_reviews_team(
        self, client, demo_world
    ):
        review = largest_review()
        other = Team.objects.exclude(pk=review.team_id).first()
        person = other.memberships.select_related("user").first().user
        membership = review.team.memberships.create(user=person, role="member")
        client.force_login(person)
        session = client.session
        session["team_id"] = other.pk  # switched to the other team in the pages
        session.save()
        url = f"/api/v1/reviews/{review.pk}/summary"
        # The API answers for each team of the caller (apps.web.api_auth), whichever is current.
        assert client.get(url).status_code == 200
        membership.delete()
        assert client.get(url).status_code == 404


class MarkdownTextTests:
    def test_user_text_cannot_break_the_table_or_ping_anyone(self):
        assert md("a | b @alice\nnext *bold*") == r"a \| b \@alice next \*bold\*"
        assert md("x" * 300, 10) == "x" * 9 + "…"


class EvaluateMarkdownTests:
    def test_a_ci_job_gets_the_verdict_in_markdown(self, client, team):
        body = make_input(task(), offers=[offer("a"), offer("b", price=3.0)])
        response = client.post(
            "/api/v1/evaluate?format=markdown", data=json.dumps(body),
            content_type="application/json", **bearer(team),
        )  # fmt: skip
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/markdown")
        text = response.content.decode()
        assert text.startswith("### The engine's verdict")
        assert "**Decision:** Compute platform" in text
        assert "| **Chosen** |" in text and "| Runner-up |" in text
        assert "Sign-offs" not in text  # no review, no sign-off

    def test_without_the_query_it_stays_json_and_bad_input_stays_422(self, client, team):
        body = make_input(task(), offers=[offer("a")])
        headers = bearer(team)
        plain = client.post(
            "/api/v1/evaluate", data=json.dumps(body), content_type="application/json", **headers
        )
        assert plain.status_code == 200 and plain.json()["platform"] == "compute_platform"
        bad = client.post(
            "/api/v1/evaluate?format=markdown", data=json.dumps({"task": {}}),
            content_type="application/json", **headers,
        )  # fmt: skip
        assert bad.status_code == 422 and bad.json()["errors"]
