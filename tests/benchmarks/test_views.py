from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.benchmarks.models import BenchmarkRecord
from tests.benchmarks.helpers import make_world
from tests.factories import make_benchmark, make_offer

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


def _form_post(world, **kw) -> dict:
    data = {
        "kind": "single",
        "task": world.task.pk,
        "offer": world.offer.pk,
        "nodes": 1,
        "gpus_per_node": 8,
        "e2e_hours": "12.5",
        "compute_hours": "11",
        "transfer_hours": "0.5",
        "queue_hours": "1",
        "failure_reruns": 0,
        "hours_lost_per_rerun": 0,
        "recovery": "resume",
    }
    data.update(kw)
    return data


class ListTests:
    def test_it_lists_the_teams_records_as_a_page(self, client, member, team, world, other_team):
        theirs = make_world(other_team, prefix="x-")
        mine = make_benchmark(team, world.task, world.offer)
        hidden = make_benchmark(other_team, theirs.task, theirs.offer)
        client.force_login(member)
        response = client.get(reverse("benchmarks:list"))
        html = response.content.decode()
        assert response.status_code == 200
        assert "<html" in html
        assert f'id="record-{mine.pk}"' in html
        assert f'id="record-{hidden.pk}"' not in html

    def test_an_htmx_request_gets_the_list_fragment(self, client, member, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        response = client.get(reverse("benchmarks:list"), HTTP_HX_REQUEST="true")
        html = response.content.decode()
        assert html.lstrip().startswith('<div id="benchmark-list">')
        assert "<html" not in html
        assert f'id="record-{record.pk}"' in html

    def test_it_filters_by_task_kind_and_offer(self, client, member, team, world):
        other = make_world(team, prefix="b-")
        single = make_benchmark(team, world.task, world.offer)
        multi = make_benchmark(team, world.task, world.offer, kind="multi", nodes=2)
        elsewhere = make_benchmark(team, other.task, other.offer)
        client.force_login(member)

        def ids(**params):
            response = client.get(reverse("benchmarks:list"), params)
            return {r.pk for r in response.context["records"]}

        assert ids(task=world.task.pk) == {single.pk, multi.pk}
        assert ids(kind="multi") == {multi.pk}
        assert ids(offer=other.offer.pk) == {elsewhere.pk}
        assert ids(kind="bogus", task="x") == {single.pk, multi.pk, elsewhere.pk}

    def test_it_paginates_by_25(self, client, member, team, world):
        for _ in range(30):
            make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        first = client.get(reverse("benchmarks:list"))
        second = client.get(reverse("benchmarks:list"), {"page": 2})
        assert len(first.context["records"]) == 25
        assert len(second.context["records"]) == 5
        assert "Page 1 of 2" in first.content.decode()

    def test_the_query_count_does_not_grow_with_rows(self, client, member, team, world):
        client.force_login(member)
        url = reverse("benchmarks:list")

        def count_queries() -> int:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            return len(ctx.captured_queries)

        for _ in range(5):
            make_benchmark(team, world.task, world.offer)
        make_benchmark(
            team,
            world.task,
            kind="network_probe",
            e2e_hours=0,
            compute_hours=0,
            from_site=world.site_a,
            to_site=world.site_b,
            bandwidth_gbps=5,
            rtt_ms=1,
        )
        count_queries()  # warm: the navigation badges are cached per person after one view
        few = count_queries()
        BenchmarkRecord.objects.bulk_create(
            [
                BenchmarkRecord(
                    team=team,
                    task=world.task,
                    offer=world.offer,
                    kind="multi",
                    nodes=2,
                    gpus_per_node=8,
                    e2e_hours=5,
                    compute_hours=4,
                )
                for _ in range(200)
            ]
        )
        count_queries()  # the import moved the team's generation: the badges are counted again
        assert count_queries() == few

    def test_an_empty_list_invites_to_record_a_run(self, client, member, world):
        client.force_login(member)
        html = client.get(reverse("benchmarks:list")).content.decode()
        assert "No benchmark records yet" in html
        assert reverse("benchmarks:create") in html

    def test_anonymous_users_are_sent_to_sign_in(self, client):
        for url in (
            reverse("benchmarks:list"),
            reverse("benchmarks:create"),
            reverse("benchmarks:tokens"),
            reverse("benchmarks:import"),
        ):
            response = client.get(url)
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("accounts:login"))


class FormTests:
    def test_the_form_is_a_page_and_an_htmx_fragment(self, client, member, world):
        client.force_login(member)
        page = client.get(reverse("benchmarks:create"))
        assert page.status_code == 200
        assert "<html" in page.content.decode()
        assert 'name="e2e_hours"' in page.content.decode()
        fragment = client.get(
            reverse("benchmarks:create"), {"kind": "network_probe"}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert fragment.lstrip().startswith('<div id="benchmark-form"')
        assert "<html" not in fragment
        assert 'name="from_site"' in fragment and 'name="bandwidth_gbps"' in fragment
        assert 'name="e2e_hours"' not in fragment

    def test_the_pilot_fields_replace_the_timing_fields(self, client, member, world):
        client.force_login(member)
        html = client.get(
            reverse("benchmarks:create"), {"kind": "pilot_migration"}
        ).content.decode()
        assert 'name="tier"' in html and 'name="succeeded"' in html
        assert 'name="nodes"' not in html

    def test_switching_kind_keeps_what_was_typed(self, client, member, world):
        client.force_login(member)
        response = client.get(
            reverse("benchmarks:create"),
            {"kind": "multi", "task": world.task.pk, "e2e_hours": "7"},
            HTTP_HX_REQUEST="true",
        )
        assert response.context["form"]["e2e_hours"].value() == "7"
        assert str(response.context["form"]["task"].value()) == str(world.task.pk)

    def test_a_valid_post_saves_a_form_record(self, client, member, team, world):
        client.force_login(member)
        response = client.post(reverse("benchmarks:create"), _form_post(world))
        record = BenchmarkRecord.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("benchmarks:detail", args=[record.pk])
        assert (record.team, record.source, record.created_by) == (team, "form", member)
        assert (record.e2e_hours, record.recovery) == (12.5, "resume")

    def test_errors_show_on_their_field_and_nothing_is_saved(self, client, member, world):
        client.force_login(member)
        response = client.post(
            reverse("benchmarks:create"), _form_post(world, e2e_hours="5", compute_hours="6")
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="field-e2e_hours"' in html
        assert "End-to-end hours must be at least the compute hours." in html
        assert response.context["form"].errors["e2e_hours"]
        assert not BenchmarkRecord.objects.exists()

    def test_a_probe_is_recorded_from_the_form(self, client, member, world):
        client.force_login(member)
        client.post(
            reverse("benchmarks:create"),
            {
                "kind": "network_probe",
                "task": world.task.pk,
                "from_site": world.site_a.pk,
                "to_site": world.site_b.pk,
                "bandwidth_gbps": "10",
                "rtt_ms": "2",
            },
        )
        probe = BenchmarkRecord.objects.get()
        assert (probe.kind, probe.bandwidth_gbps, probe.to_site) == (
            "network_probe",
            10,
            world.site_b,
        )

    def test_another_teams_task_is_not_a_choice(self, client, member, world, other_team):
        theirs = make_world(other_team, prefix="x-")
        client.force_login(member)
        response = client.post(reverse("benchmarks:create"), _form_post(world, task=theirs.task.pk))
        assert response.status_code == 200
        assert response.context["form"].errors["task"]
        assert not BenchmarkRecord.objects.exists()

    def test_reviewers_cannot_record(self, client, reviewer, world):
        client.force_login(reviewer)
        assert client.get(reverse("benchmarks:create")).status_code == 403
        assert client.post(reverse("benchmarks:create"), _form_post(world)).status_code == 403
        assert not BenchmarkRecord.objects.exists()


class DetailEditDeleteTests:
    def test_the_detail_page_shows_the_figures(self, client, reviewer, team, world):
        record = make_benchmark(
            team, world.task, world.offer, cost=321.5, failure_reruns=2, hours_lost_per_rerun=3
        )
        client.force_login(reviewer)
        html = client.get(reverse("benchmarks:detail", args=[record.pk])).content.decode()
        assert f"Benchmark record #{record.pk}" in html
        assert "321.50 USD" in html
        assert "2 × 3 h lost" in html
        assert reverse("benchmarks:edit", args=[record.pk]) not in html  # reviewers read only

    def test_edit_prefills_and_saves(self, client, member, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        page = client.get(reverse("benchmarks:edit", args=[record.pk]))
        assert page.context["form"]["e2e_hours"].value() == 10
        response = client.post(
            reverse("benchmarks:edit", args=[record.pk]), _form_post(world, e2e_hours="20")
        )
        assert response.status_code == 302
        record.refresh_from_db()
        assert record.e2e_hours == 20

    def test_delete_asks_then_deletes_on_post(self, client, member, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        url = reverse("benchmarks:delete", args=[record.pk])
        assert client.get(url).status_code == 200
        assert BenchmarkRecord.objects.exists()
        assert client.post(url).status_code == 302
        assert not BenchmarkRecord.objects.exists()

    def test_outsiders_get_404_everywhere(self, client, outsider, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(outsider)
        for name in ("detail", "edit", "delete"):
            assert client.get(reverse(f"benchmarks:{name}", args=[record.pk])).status_code == 404
        assert client.post(reverse("benchmarks:delete", args=[record.pk])).status_code == 404
        assert client.post(reverse("benchmarks:apply_probe", args=[record.pk])).status_code == 404
        assert client.get(reverse("benchmarks:task", args=[world.task.pk])).status_code == 404
        assert BenchmarkRecord.objects.filter(pk=record.pk).exists()

    def test_reviewers_cannot_edit_or_delete(self, client, reviewer, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(reviewer)
        assert client.get(reverse("benchmarks:edit", args=[record.pk])).status_code == 403
        assert client.post(reverse("benchmarks:delete", args=[record.pk])).status_code == 403


class TaskComparisonTests:
    def _pair(self, team, world, multi_e2e):
        single = make_benchmark(team, world.task, world.offer, e2e_hours=480, compute_hours=470)
        multi = make_benchmark(
            team,
            world.task,
            world.offer,
            kind="multi",
            nodes=4,
            e2e_hours=multi_e2e,
            compute_hours=min(multi_e2e, 120),
            failure_reruns=1,
            hours_lost_per_rerun=6,
        )
        return single, multi

    def test_it_shows_speedup_efficiency_and_the_chart(self, client, member, team, world):
        single, multi = self._pair(team, world, 140)
        client.force_login(member)
        response = client.get(reverse("benchmarks:task", args=[world.task.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        verdict = response.context["comparison"].verdict
        assert verdict["speedup"] == pytest.approx(480 / 140, rel=1e-4)
        assert verdict["scaling_efficiency"] == pytest.approx(480 / 140 / 4, rel=1e-4)
        assert verdict["net_gain_positive"] is True
        assert "3.43×" in html
        assert f'id="run-{multi.pk}" class="is-chosen"' in html
        assert 'data-plotly="scaling-figure"' in html
        assert "vendor/plotly-basic-4.1.1.min.js" in html  # fetched by app.js when drawn
        script = re.search(r'<script id="scaling-figure"[^>]*>(.*?)</script>', html, re.S)
        figure = json.loads(script.group(1))
        # One offer: its ideal line (x / 8 GPUs of its single run) and its runs, each labelled.
        ideal, points = figure["data"]
        assert ideal["x"] == [8, 32] and ideal["y"] == [1.0, 4.0]
        assert points["x"] == [8, 32] and points["name"] == world.offer.name
        assert points["text"] == [
            f"{world.offer.name} #{single.pk}",
            f"{world.offer.name} #{multi.pk}",
        ]
        assert figure["layout"]["xaxis"]["title"]["text"] == "GPUs"

    def test_runs_on_different_offers_are_never_divided_by_each_other(
        self, client, member, team, world
    ):
        """SPEC 6.1 like for like: an H200 single run is not the baseline of an H100 multi run."""
        h200 = make_offer(team, world.site_a, name="H200 x8", gpu_mem_gb=141)
        make_benchmark(team, world.task, h200, e2e_hours=300, compute_hours=290)
        single = make_benchmark(team, world.task, world.offer, e2e_hours=480, compute_hours=470)
        multi = make_benchmark(
            team, world.task, world.offer, kind="multi", nodes=2, e2e_hours=300, compute_hours=290
        )
        client.force_login(member)
        comparison = client.get(reverse("benchmarks:task", args=[world.task.pk])).context[
            "comparison"
        ]
        rows = {row.record.pk: row for row in comparison.runs}
        # Against its own offer's single run (480 h on 8 GPUs): 480 / 300 = 1.6, over 16 GPUs
        # 1.6 / (16 / 8) = 0.8 — not 300 / 300 = 1.0 against the faster H200 run.
        assert rows[multi.pk].baseline == single
        assert rows[multi.pk].speedup == pytest.approx(1.6)
        assert rows[multi.pk].scaling_efficiency == pytest.approx(0.8)
        # The H200 has no multi run: no pair, and the engine reports the H100's.
        assert comparison.verdict["offer"] == str(world.offer.pk)
        assert [p["offer"] for p in comparison.verdict["pairs"]] == [str(world.offer.pk)]
        names = {trace["name"] for trace in comparison.figure["data"]}
        assert {"H200 x8", world.offer.name} <= names

    def test_a_slower_multi_run_gets_b1_and_r0(self, client, member, team, world):
        self._pair(team, world, 600)
        client.force_login(member)
        response = client.get(reverse("benchmarks:task", args=[world.task.pk]))
        rules = {f["rule"] for f in response.context["comparison"].findings}
        assert {"B1", "R0"} <= rules
        html = response.content.decode()
        assert 'data-rule="B1"' in html
        assert "negative" in html

    def test_without_a_pair_it_explains_what_is_missing(self, client, member, team, world):
        make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        html = client.get(reverse("benchmarks:task", args=[world.task.pk])).content.decode()
        assert "No pair yet" in html


class ChineseTests:
    def test_the_pages_render_in_simplified_chinese(self, client, member, team, world):
        record = make_benchmark(team, world.task, world.offer)
        client.force_login(member)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        listing = client.get(reverse("benchmarks:list")).content.decode()
        assert "基准记录" in listing and "Benchmark records" not in listing
        assert "单机" in listing
        form = client.get(reverse("benchmarks:create")).content.decode()
        assert "端到端时长" in form and "End-to-end hours" not in form
        detail = client.get(reverse("benchmarks:detail", args=[record.pk])).content.decode()
        assert "时间与费用" in detail and "Time and cost" not in detail
        comparison = client.get(reverse("benchmarks:task", args=[world.task.pk])).content.decode()
        assert "运行记录" in comparison and "Runs of" not in comparison
