"""Scoring pages whose query counts must not grow with snapshots (history, evaluation block,
review page), the quarterly review page and the admin."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.scoring.models import QuarterlyCostReview
from apps.scoring.services.quarterly_review import quarterly_refresh
from tests.scoring.helpers import approve
from tests.scoring.web_helpers import HX, clone_snapshots, evaluation_url
from tests.services import need_redis

pytestmark = pytest.mark.django_db


class QueryCountTests:
    def _count(self, client, url, **extra) -> int:
        # The uncached page: bulk_create (used to make the rows) sends no signal, so the team's
        # generation is not bumped; what is measured here is the cost of a cache miss.
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **extra)
        assert response.status_code in (200, 286)
        return len(queries)

    def test_the_history_makes_the_same_queries_with_10_and_500_snapshots(
        self, client, owner, snapshot
    ):
        client.force_login(owner)
        clone_snapshots(snapshot, 9)
        small = self._count(client, reverse("scoring:history"))
        clone_snapshots(snapshot, 490, start=datetime(2025, 1, 1, tzinfo=UTC))
        assert EvaluationSnapshot.objects.count() == 500
        large = self._count(client, reverse("scoring:history"))
        assert small == large

    def test_the_evaluation_block_makes_the_same_queries_with_10_and_500_snapshots(
        self, client, owner, world, snapshot
    ):
        client.force_login(owner)
        clone_snapshots(snapshot, 9)
        url = evaluation_url(world.review)
        small = self._count(client, url, **HX)
        clone_snapshots(snapshot, 490, start=datetime(2025, 1, 1, tzinfo=UTC))
        large = self._count(client, url, **HX)
        assert small == large


class QuarterlyPageTests:
    def test_it_shows_the_quarters_and_a_chart(self, client, owner, reviewer, world, snapshot):
        approve(world.review, reviewer, snapshot, datetime(2026, 2, 1, tzinfo=UTC))
        quarterly_refresh(team=world.review.team)
        client.force_login(owner)
        response = client.get(reverse("scoring:quarterly"))
        html = response.content.decode()
        assert response.status_code == 200
        assert 'data-quarter="2026Q1"' in html
        assert "122.55" in html  # 128 compute saved − (10.45 − 5.00) extra transfer fees
        assert 'data-plotly="chart-quarterly"' in html

    def test_refresh_now_recomputes_in_eager_mode(self, client, member, reviewer, world, snapshot):
        approve(world.review, reviewer, snapshot, datetime(2026, 2, 1, tzinfo=UTC))
        client.force_login(member)
        response = client.post(reverse("scoring:quarterly_refresh"))
        assert response.status_code == 302
        assert response["Location"] == reverse("scoring:quarterly")
        assert QuarterlyCostReview.objects.get(team=world.review.team).net == pytest.approx(122.55)
        assert client.get(reverse("scoring:quarterly_refresh")).status_code == 405

    def test_the_fragment_polls_until_the_result_backend_has_the_refresh(self, client, owner):
        # The real Redis result backend: nothing stored yet is PENDING (keep polling); a stored
        # result, success or failure, is done (286 stops htmx's polling).
        from config.celery import app

        need_redis()
        app.conf.task_always_eager = False  # as in production; the autouse fixture restores it
        client.force_login(owner)
        url = reverse("scoring:quarterly")
        running_id, failed_id = f"test-{uuid.uuid4().hex}", f"test-{uuid.uuid4().hex}"
        try:
            running = client.get(url, {"task": running_id}, **HX)
            assert running.status_code == 200
            assert 'hx-trigger="every 1s"' in running.content.decode()
            app.backend.store_result(running_id, {"net": 1}, "SUCCESS")
            done = client.get(url, {"task": running_id}, **HX)
            assert done.status_code == 286 and "hx-trigger" not in done.content.decode()
            app.backend.store_result(failed_id, ValueError("boom"), "FAILURE")
            assert client.get(url, {"task": failed_id}, **HX).status_code == 286
        finally:
            app.backend.forget(running_id)
            app.backend.forget(failed_id)

    def test_without_a_result_backend_there_is_nothing_to_wait_for(
        self, client, owner, monkeypatch
    ):
        # Celery's own DisabledBackend (what the app has without REDIS_URL) cannot say: the
        # fragment stops polling at once instead of polling forever.
        from celery.backends.base import DisabledBackend

        from config.celery import app

        monkeypatch.setattr(app._local, "backend", DisabledBackend(app), raising=False)
        client.force_login(owner)
        done = client.get(reverse("scoring:quarterly"), {"task": "abc"}, **HX)
        assert done.status_code == 286 and "hx-trigger" not in done.content.decode()
        full = client.get(reverse("scoring:quarterly"), {"task": "abc"})
        assert full.status_code == 200 and "hx-trigger" not in full.content.decode()

    def test_it_shows_an_empty_state(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("scoring:quarterly")).content.decode()
        assert "No approved review yet" in html


class ReviewPageQueryCountTests:
    def test_the_review_page_makes_the_same_queries_with_10_and_500_snapshots(
        self, client, owner, world, snapshot
    ):
        client.force_login(owner)
        url = reverse("reviews:detail", args=[world.review.pk])
        clone_snapshots(snapshot, 9)
        cache.clear()  # cold both times: bulk_create bumps no team generation
        with CaptureQueriesContext(connection) as small:
            assert client.get(url).status_code == 200
        clone_snapshots(snapshot, 490, start=datetime(2025, 1, 1, tzinfo=UTC))
        cache.clear()
        with CaptureQueriesContext(connection) as large:
            response = client.get(url)
        assert response.status_code == 200
        assert f'data-plotly="chart-history-{snapshot.pk}"' in response.content.decode()
        assert len(small) == len(large)


class AdminTests:
    def test_snapshots_and_jobs_are_read_only_in_the_admin(self, client, snapshot):
        from django.contrib.auth import get_user_model

        admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-123456")
        client.force_login(admin)
        change = reverse("admin:reviews_evaluationsnapshot_change", args=[snapshot.pk])
        response = client.get(change)
        assert response.status_code == 200
        assert b'name="_save"' not in response.content  # viewable, not editable
        assert client.post(change, {}).status_code == 403
        delete = reverse("admin:reviews_evaluationsnapshot_delete", args=[snapshot.pk])
        assert client.get(delete).status_code == 403
        assert client.get(reverse("admin:reviews_evaluationsnapshot_add")).status_code == 403
        assert client.get(reverse("admin:reviews_snapshotjob_changelist")).status_code == 200
        assert client.get(reverse("admin:reviews_snapshotjob_add")).status_code == 403
        # Their addresses from when they were the scoring app's lead to the same pages.
        old = client.get(f"/admin/scoring/evaluationsnapshot/{snapshot.pk}/change/?x=1")
        assert old.status_code == 302
        assert old["Location"] == f"/admin/reviews/evaluationsnapshot/{snapshot.pk}/change/?x=1"
