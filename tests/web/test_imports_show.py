"""What a CSV import saves (in bulk, no save signal) shows at the next view of every page that
displays it, its pages viewed (and cached) before the import."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.actuals.helpers import approved_review
from tests.benchmarks.helpers import make_world

pytestmark = pytest.mark.django_db


def _get(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _import(client, url, content) -> None:
    assert client.post(url, {"content": content, "confirm": "1"}).status_code == 302


class ActualCostImportTests:
    def test_an_imported_actual_shows_on_the_review_and_the_list(
        self, client, team, member, reviewer
    ):
        review = approved_review(team, member, reviewer)
        client.force_login(member)
        pages = [reverse("reviews:detail", args=[review.pk]), reverse("actuals:list")]
        for url in pages:
            _get(client, url)  # drawn and cached before the import
        # One run of 300 + 60 against the plan's 200 + 60 (tests.actuals.helpers): +100.00.
        _import(
            client,
            reverse("actuals:import"),
            f"review,period,compute_cost,transfer_cost\n{review.pk},2026-02-03,300,60\n",
        )
        assert "<strong data-variance>+100.00</strong>" in _get(client, pages[0])
        assert "300.00" in _get(client, pages[1])


class BenchmarkImportTests:
    def test_an_imported_benchmark_shows_on_the_list_and_the_task_page(self, client, team, member):
        world = make_world(team)
        client.force_login(member)
        pages = [reverse("benchmarks:list"), reverse("benchmarks:task", args=[world.task.pk])]
        before = [_get(client, url) for url in pages]
        assert all('data-value="12.5"' not in page for page in before)
        _import(
            client,
            reverse("benchmarks:import"),
            "task,offer,kind,nodes,gpus_per_node,e2e_hours,compute_hours\n"
            f"{world.task.pk},{world.offer.pk},single,1,8,12.5,11\n",
        )
        from apps.benchmarks.models import BenchmarkRecord

        record = BenchmarkRecord.objects.get(team=team)
        for url in pages:
            assert f"#{record.pk}" in _get(client, url) or f"/{record.pk}/" in _get(client, url)
