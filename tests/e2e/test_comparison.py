"""The comparison in a real browser: a review page shows progress, then the table and Plotly
charts drawn as SVG; the CSV export downloads with its header row; charts fit a phone screen."""

from __future__ import annotations

import csv

import pytest
from django.urls import reverse

from apps.reviews.snapshots import jobs
from apps.reviews.snapshots.models import SnapshotJob
from apps.reviews.snapshots.services import snapshot_compute
from apps.reviews.snapshots.tables import COLUMN_KEYS
from tests.e2e.conftest import log_in, reveal_charts
from tests.scoring.helpers import make_world

pytestmark = pytest.mark.django_db(transaction=True)


class ComparisonInBrowserTests:
    def test_progress_then_table_charts_and_csv(
        self, live_server, browser_page, team, owner, monkeypatch, tmp_path
    ):
        page = browser_page
        world = make_world(team, owner)
        # A job no worker has picked up yet: the page must show progress until it is done.
        monkeypatch.setattr(jobs, "_enqueue", lambda job_id: True)

        log_in(page, live_server.url, owner.username)

        page.goto(f"{live_server.url}{reverse('reviews:detail', args=[world.review.pk])}")
        progress = page.wait_for_selector("#review-evaluation .progress")
        assert "comparison table" in progress.inner_text()
        assert page.locator("#review-evaluation table").count() == 0

        job = SnapshotJob.objects.get(review=world.review)
        snapshot_compute(review_id=world.review.pk, job_id=job.pk)  # the worker's part

        page.wait_for_selector("#review-evaluation table.comparison")
        assert reveal_charts(page, "#review-evaluation") >= 2  # drawn as they come into view
        drawn = page.locator("#review-evaluation .chart .main-svg").count()
        assert drawn >= 4  # hours, cost, scaling, indicators, history; 2 SVG layers each
        assert page.locator("#review-evaluation .progress").count() == 0
        chosen = page.locator("#review-evaluation tr.is-chosen")
        assert chosen.count() == 1 and "Far L40S" in chosen.inner_text()
        titles = page.locator("#review-evaluation .chart-card__title").all_inner_texts()
        assert "Hours by segment per option" in titles

        with page.expect_download() as download_info:
            page.click("#review-evaluation a[data-export=csv]")
        download = download_info.value
        target = tmp_path / download.suggested_filename
        download.save_as(target)
        assert target.name.endswith(".csv")
        with open(target, newline="", encoding="utf-8-sig") as handle:  # it starts with a BOM
            rows = list(csv.reader(handle))
        assert rows[0][: len(COLUMN_KEYS)] == COLUMN_KEYS
        assert len(rows) == 1 + 5  # three options, two benchmark runs

        # Phone width: every chart redraws inside the screen.
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(600)
        widths = page.eval_on_selector_all(
            "#review-evaluation .chart .main-svg:first-child",
            "els => els.map(e => e.getBoundingClientRect().right)",
        )
        assert widths and max(widths) <= 390
