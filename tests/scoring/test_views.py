"""Pages of the scoring app: the evaluation block, history, snapshot, compare, exports, quarterly;
team scoping; query counts that do not grow with snapshots."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from apps.reviews.snapshots import jobs
from apps.reviews.snapshots.models import EvaluationSnapshot, JobStatus, SnapshotJob
from apps.reviews.snapshots.services import snapshot_compute
from apps.reviews.snapshots.tables import COLUMN_KEYS
from tests.factories import make_membership, make_review, make_team
from tests.scoring.helpers import approve, make_world
from tests.scoring.web_helpers import HX, clone_snapshots, evaluation_url

pytestmark = pytest.mark.django_db


class ReviewEvaluationTests:
    def test_it_shows_progress_while_computing(self, client, owner, world, monkeypatch):
        monkeypatch.setattr(jobs, "_enqueue", lambda job_id: True)  # no worker picks it up
        client.force_login(owner)
        response = client.get(evaluation_url(world.review), **HX)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="review-evaluation"' in html
        assert 'class="progress"' in html and 'hx-trigger="every 1s"' in html
        assert f'hx-get="{evaluation_url(world.review)}"' in html
        assert SnapshotJob.objects.get(review=world.review).status == JobStatus.QUEUED

    def test_it_stops_polling_and_shows_table_and_charts_when_done(
        self, client, owner, world, snapshot
    ):
        client.force_login(owner)
        response = client.get(evaluation_url(world.review), **HX)
        assert response.status_code == 286
        html = response.content.decode()
        assert "hx-trigger" not in html
        assert 'table class="table comparison" data-sortable' in html
        assert html.count('<tr class="is-chosen') == 1
        for name in ("hours", "cost", "scaling", "indicators", "history"):
            assert f'id="chart-{name}-{snapshot.pk}"' in html
            assert f'data-plotly="chart-{name}-{snapshot.pk}"' in html
        assert reverse("scoring:snapshot_csv", args=[snapshot.pk]) in html
        assert reverse("scoring:snapshot_xlsx", args=[snapshot.pk]) in html
        # Findings grouped by severity: the H2 block comes before the H1 warning.
        assert html.index('data-rule="H2"') < html.index('data-rule="H1"')

    def test_it_computes_in_the_request_without_a_worker(
        self, client, owner, world, django_capture_on_commit_callbacks
    ):
        client.force_login(owner)
        # Eager mode: the job runs when the request's transaction commits (at once, outside
        # tests); here the commit comes when the captured callbacks run, after the response.
        with django_capture_on_commit_callbacks(execute=True):
            first = client.get(evaluation_url(world.review), **HX)
        assert first.status_code == 200
        response = client.get(evaluation_url(world.review), **HX)
        assert response.status_code == 286
        assert EvaluationSnapshot.objects.filter(review=world.review).count() == 1

    def test_a_plain_request_goes_to_the_review_page(self, client, owner, world):
        client.force_login(owner)
        response = client.get(evaluation_url(world.review))
        assert response.status_code == 302
        assert response["Location"] == reverse("reviews:detail", args=[world.review.pk])

    def test_it_shows_a_failed_evaluation_without_polling(
        self, client, owner, team, world, django_capture_on_commit_callbacks
    ):
        team.thresholds = {"headroom": 7}
        team.save()
        client.force_login(owner)
        with django_capture_on_commit_callbacks(execute=True):
            client.get(evaluation_url(world.review), **HX)
        response = client.get(evaluation_url(world.review), **HX)
        assert response.status_code == 200
        html = response.content.decode()
        assert "The evaluation failed." in html and "thresholds.headroom" in html
        assert "hx-trigger" not in html

    def test_it_marks_j3_and_translates_labels(self, client, owner, world):
        from apps.catalog.models import NetworkLink

        NetworkLink.objects.filter(from_site=world.data, to_site=world.far).update(
            price_per_gb=0.5
        )
        snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        response = client.get(evaluation_url(world.review), HTTP_ACCEPT_LANGUAGE="zh-hans", **HX)
        html = response.content.decode()
        assert html.count('badge badge--warn" title=') == 2  # the J3 pair
        assert 'class="j3-note"' in html
        assert "就近等待" in html  # wait_local, translated
        figure = json.loads(
            re.search(r'id="chart-hours-\d+" type="application/json">(.*?)</script>', html).group(1)
        )
        assert figure["data"][0]["name"] == "传输"


class HistoryTests:
    def test_it_lists_snapshots_of_all_the_users_teams(
        self, client, owner, world, snapshot, other_team, outsider
    ):
        second = make_team("Team Three", "three")
        make_membership(owner, second, "member")
        theirs = make_world(second, owner)
        snapshot_compute(review_id=theirs.review.pk)
        hidden = make_world(other_team, outsider)
        snapshot_compute(review_id=hidden.review.pk)
        client.force_login(owner)
        html = client.get(reverse("scoring:history")).content.decode()
        assert html.count('<tr id="snapshot-') == 2
        assert "Team Three" in html and "Team One" in html and "Team Two" not in html

    def test_it_filters_by_team_task_state_decision_reviewer_and_date(
        self, client, owner, reviewer, team, world, snapshot
    ):
        other_task_review = make_review(team, owner, offers=[world.local])
        other = snapshot_compute(review_id=other_task_review.pk)
        approve(world.review, reviewer, snapshot, datetime(2026, 1, 5, tzinfo=UTC))
        EvaluationSnapshot.objects.filter(pk=other.pk).update(
            created_at=datetime(2025, 6, 1, tzinfo=UTC)
        )
        client.force_login(owner)
        url = reverse("scoring:history")

        def ids(**params):
            html = client.get(url, params).content.decode()
            return {int(x) for x in re.findall(r'<tr id="snapshot-(\d+)"', html)}

        assert ids() == {snapshot.pk, other.pk}
        assert ids(team=team.pk) == {snapshot.pk, other.pk}
        assert ids(task=world.task.pk) == {snapshot.pk}
        assert ids(state="approved") == {snapshot.pk}
        assert ids(state="draft") == {other.pk}
        assert ids(decision="approve") == {snapshot.pk}
        assert ids(decision="reject") == set()
        assert ids(reviewer=reviewer.pk) == {snapshot.pk}
        assert ids(date_from="2026-01-01") == {snapshot.pk}
        assert ids(date_to="2025-12-31") == {other.pk}

    def test_bad_filters_show_field_errors_not_a_500(self, client, owner, snapshot):
        client.force_login(owner)
        response = client.get(
            reverse("scoring:history"),
            {"date_from": "2026-13-45", "date_to": "2020-01-01", "team": "abc"},
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert html.count('class="error" role="alert"') >= 2
        assert "field--error" in html

    def test_it_serves_the_results_fragment_to_htmx(self, client, owner, snapshot):
        client.force_login(owner)
        response = client.get(reverse("scoring:history"), {"state": "draft"}, **HX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="history-results">')
        assert "<html" not in html and f'id="snapshot-{snapshot.pk}"' in html

    def test_it_paginates_by_25(self, client, owner, snapshot):
        clone_snapshots(snapshot, 30)
        client.force_login(owner)
        first = client.get(reverse("scoring:history")).content.decode()
        second = client.get(reverse("scoring:history"), {"page": 2}).content.decode()
        assert first.count('<tr id="snapshot-') == 25
        assert second.count('<tr id="snapshot-') == 6
        assert "Page 1 of 2" in first

    def test_it_shows_an_empty_state(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("scoring:history")).content.decode()
        assert "No snapshot yet" in html


class SnapshotPageTests:
    def test_it_shows_the_frozen_table_charts_and_facts(self, client, owner, world, snapshot):
        client.force_login(owner)
        response = client.get(reverse("scoring:snapshot_detail", args=[snapshot.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        assert snapshot.input_hash in html and snapshot.engine_version in html
        assert f'data-plotly="chart-cost-{snapshot.pk}"' in html
        assert "vendor/plotly-basic-4.1.1.min.js" in html  # fetched by app.js when drawn
        assert reverse("reviews:detail", args=[world.review.pk]) in html
        assert 'data-rule="H2"' in html

    def test_it_links_to_the_comparison_with_the_previous_snapshot(
        self, client, owner, world, snapshot
    ):
        world.task.compute_hours = 30
        world.task.save()
        newer = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        html = client.get(reverse("scoring:snapshot_detail", args=[newer.pk])).content.decode()
        assert f"?a={snapshot.pk}&amp;b={newer.pk}" in html


class CompareTests:
    def test_it_highlights_changed_cells_and_findings(self, client, owner, world, snapshot):
        from apps.catalog.models import NetworkLink

        NetworkLink.objects.filter(from_site=world.data, to_site=world.far).update(
            price_per_gb=0.5
        )
        newer = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        response = client.get(reverse("scoring:compare"), {"a": newer.pk, "b": snapshot.pk})
        assert response.status_code == 200
        comparison = response.context["comparison"]
        assert comparison["a"].pk == snapshot.pk  # older on the left
        remote = next(r for r in comparison["aligned"] if r["a"]["offer"] == str(world.remote.pk))
        changed = {c["column"] for c in remote["cells"] if c["changed"]}
        assert changed == {"transfer_cost", "total_cost", "verdict"}
        assert {f["rule"] for f in comparison["added"]} >= {"J3"}
        html = response.content.decode()
        # each changed cell is highlighted in both tables
        assert html.count('class="changed') == 2 * comparison["changed_cells"] + sum(
            2 for h in comparison["headline"] if h["changed"]
        )
        headline = {h["field"]: h for h in comparison["headline"]}
        assert headline["chosen_kind"]["changed"] and headline["input_hash"]["changed"]
        assert not headline["engine_version"]["changed"]

    def test_it_names_the_chosen_offer_and_shows_only_differences_on_request(
        self, client, owner, world, snapshot
    ):
        """Issue 39: "Chosen offer: 1" and raw field names; nothing showed only what differs."""
        from apps.catalog.models import NetworkLink

        NetworkLink.objects.filter(from_site=world.data, to_site=world.far).update(
            price_per_gb=0.5
        )
        newer = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        url = reverse("scoring:compare")
        whole = client.get(url, {"a": snapshot.pk, "b": newer.pk})
        headline = {h["field"]: h for h in whole.context["comparison"]["headline"]}
        chosen = next(r for r in snapshot.table_rows if r.get("chosen"))
        assert headline["chosen_offer"]["a"] == chosen["offer_label"] != snapshot.chosen_offer
        html = whole.content.decode()
        assert "preprocess_cost" not in html and "Preprocessing" in html
        assert f"?a={snapshot.pk}&amp;b={newer.pk}&amp;differences=1" in html

        diff = client.get(url, {"a": snapshot.pk, "b": newer.pk, "differences": "1"})
        comparison = diff.context["comparison"]
        assert comparison["headline"] and all(h["changed"] for h in comparison["headline"])
        assert all(
            r["added"] or r["removed"] or any(c["changed"] for c in r["cells"])
            for r in comparison["aligned"]
        )
        everything = whole.context["comparison"]
        assert comparison["rows_alike"] == len(everything["aligned"]) - len(comparison["aligned"])
        assert comparison["rows_alike"] > 0
        # The count of changed cells is the whole comparison's, whatever is shown.
        assert comparison["changed_cells"] == everything["changed_cells"]
        assert "Show everything" in diff.content.decode()

    def test_it_takes_two_ticked_checkboxes(self, client, owner, world, snapshot):
        world.task.compute_hours = 30
        world.task.save()
        newer = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        response = client.get(f"{reverse('scoring:compare')}?s={snapshot.pk}&s={newer.pk}")
        assert response.status_code == 200
        assert response.context["comparison"]["b"].pk == newer.pk

    def test_it_asks_for_two_snapshots(self, client, owner, snapshot):
        client.force_login(owner)
        response = client.get(reverse("scoring:compare"), {"a": snapshot.pk})
        assert response.status_code == 200
        assert "Pick two snapshots" in response.content.decode()


class ExportTests:
    def test_the_csv_has_a_stable_header_and_the_values(self, client, owner, world, snapshot):
        client.force_login(owner)
        response = client.get(reverse("scoring:snapshot_csv", args=[snapshot.pk]))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert "attachment" in response["Content-Disposition"]
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert rows[0][: len(COLUMN_KEYS)] == COLUMN_KEYS
        assert rows[0][:4] == ["row_type", "task", "offer", "offer_label"]
        chosen = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
        chosen = [r for r in chosen if r["chosen"] == "true"]
        assert len(chosen) == 1
        assert chosen[0]["placement"] == "move_data"
        assert float(chosen[0]["total_cost"]) == pytest.approx(202.45)
        assert chosen[0]["unit_price"] == "1.2"
        assert len(rows) == 1 + len(snapshot.table_rows)

    def test_the_csv_defuses_formulas_in_names(self, client, owner, world):
        # A label starting with = or - is kept whole behind a quote (a spreadsheet then shows it
        # as text); deleting or blanking it would lose what the user typed, so the cells are
        # compared whole, and a plain label gets no quote.
        offers = type(world.local).objects
        offers.filter(pk=world.local.pk).update(provider="", name="=HYPERLINK(1)")
        offers.filter(pk=world.near_data.pk).update(provider="", name="-2+3")
        snapshot = snapshot_compute(review_id=world.review.pk)
        client.force_login(owner)
        body = client.get(reverse("scoring:snapshot_csv", args=[snapshot.pk])).content.decode()
        rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
        by_offer = {}
        for row in rows[1:]:
            record = dict(zip(rows[0], row, strict=True))
            by_offer.setdefault(record["offer"], set()).add(record["offer_label"])
        assert by_offer[str(world.local.pk)] == {"'=HYPERLINK(1)"}
        assert by_offer[str(world.near_data.pk)] == {"'-2+3"}
        assert by_offer[str(world.remote.pk)] == {"Acme Cloud · Far L40S"}

    def test_the_xlsx_opens_with_headers_formats_and_a_bold_chosen_row(
        self, client, owner, snapshot
    ):
        from openpyxl import load_workbook

        client.force_login(owner)
        response = client.get(reverse("scoring:snapshot_xlsx", args=[snapshot.pk]))
        assert response.status_code == 200
        book = load_workbook(io.BytesIO(response.content))
        sheet = book["Comparison"]
        header = [c.value for c in sheet[1]]
        assert header[0] == "Row" and "Total (USD)" in header
        total_col = header.index("Total (USD)") + 1
        chosen_col = header.index("Chosen") + 1
        chosen_line = next(
            r for r in range(2, sheet.max_row + 1)
            if sheet.cell(row=r, column=chosen_col).value == "yes"
        )
        assert sheet.cell(row=chosen_line, column=total_col).value == pytest.approx(202.45)
        assert sheet.cell(row=chosen_line, column=total_col).number_format == "#,##0.00"
        assert sheet.cell(row=chosen_line, column=1).font.bold is True
        assert sheet.cell(row=2, column=1).font.bold is not True or chosen_line == 2
        assert book["Snapshot"]["B6"].value == snapshot.input_hash


class ScopingTests:
    def test_an_outsider_gets_404_on_every_snapshot_url(self, client, outsider, world, snapshot):
        client.force_login(outsider)
        for url in (
            reverse("scoring:snapshot_detail", args=[snapshot.pk]),
            reverse("scoring:snapshot_csv", args=[snapshot.pk]),
            reverse("scoring:snapshot_xlsx", args=[snapshot.pk]),
            f"{reverse('scoring:compare')}?a={snapshot.pk}&b={snapshot.pk}",
            evaluation_url(world.review),
        ):
            assert client.get(url, **HX).status_code == 404, url
        html = client.get(reverse("scoring:history")).content.decode()
        assert f'id="snapshot-{snapshot.pk}"' not in html

    def test_a_member_and_a_reviewer_can_read(self, client, member, reviewer, snapshot):
        for user in (member, reviewer):
            client.force_login(user)
            url = reverse("scoring:snapshot_detail", args=[snapshot.pk])
            assert client.get(url).status_code == 200

    def test_anonymous_users_go_to_the_login_page(self, client, world, snapshot):
        login = reverse("accounts:login")
        for url in (
            reverse("scoring:history"),
            reverse("scoring:snapshot_detail", args=[snapshot.pk]),
            reverse("scoring:snapshot_csv", args=[snapshot.pk]),
            reverse("scoring:snapshot_xlsx", args=[snapshot.pk]),
            reverse("scoring:compare"),
            reverse("scoring:quarterly"),
            evaluation_url(world.review),
        ):
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(login), url
        response = client.post(reverse("scoring:quarterly_refresh"))
        assert response["Location"].startswith(login)
