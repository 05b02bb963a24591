"""The preprocessing record kind (SPEC 6.4): form, CSV import and API accept and refuse the same
records, by field; an output larger than its input is a warning, never an error; the fields of
one kind are refused on the other."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.accounts.tokens import api_token_create
from apps.benchmarks.models import BenchmarkRecord
from apps.benchmarks.services import (
    BenchmarkValidationError,
    benchmark_create,
    benchmark_import_csv,
)
from apps.benchmarks.validation import benchmark_clean
from tests.benchmarks.helpers import api_post, make_world, preprocess_data, single_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


@pytest.fixture
def raw_token(team, owner):
    return api_token_create(team=team, name="pipeline", created_by=owner)[1]


def _refused(team, data) -> dict[str, list[str]]:
    with pytest.raises(BenchmarkValidationError) as caught:
        benchmark_create(team=team, data=data)
    return caught.value.errors


class PreprocessRulesTests:
    def test_it_saves_a_run_with_its_figures_and_neutral_other_fields(self, team, world):
        record = benchmark_create(team=team, data=preprocess_data(world))
        record.refresh_from_db()
        assert record.kind == "preprocess"
        assert record.site == world.site_a
        assert (record.preprocess_hours, record.input_gb, record.output_gb) == (6, 5000, 200)
        assert record.preprocess_cost_per_hour == 12.5
        assert record.offer is None and record.e2e_hours == 0 and record.cost is None

    def test_the_timed_fields_are_not_required(self, team, world):
        values = benchmark_clean(team=team, data=preprocess_data(world))
        assert values["offer"] is None and values["compute_hours"] == 0.0

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("preprocess_hours", -1, "Must be more than zero."),
            ("preprocess_hours", 0, "Must be more than zero."),
            ("input_gb", "lots", "Enter a number."),
            ("output_gb", "nan", "Enter a finite number (not NaN or infinity)."),
            ("preprocess_cost_per_hour", -0.5, "Must be zero or more (no negative figures)."),
            ("site", "nowhere", "Unknown site: not a site of your team."),
            ("site", None, "This field is required for this kind of record."),
            ("output_gb", "", "This field is required for this kind of record."),
        ],
    )
    def test_a_bad_figure_is_refused_on_its_field(self, team, world, field, value, message):
        errors = _refused(team, preprocess_data(world, **{field: value}))
        assert errors == {field: [message]}
        assert not BenchmarkRecord.objects.exists()

    def test_another_teams_site_is_unknown(self, team, world, other_team):
        theirs = make_world(other_team, prefix="x-")
        errors = _refused(team, preprocess_data(world, site=theirs.site_a.pk))
        assert errors == {"site": ["Unknown site: not a site of your team."]}

    def test_a_free_run_costs_zero_per_hour(self, team, world):
        record = benchmark_create(
            team=team, data=preprocess_data(world, preprocess_cost_per_hour=0)
        )
        assert record.preprocess_cost_per_hour == 0

    def test_output_larger_than_input_is_saved_with_a_warning(self, team, world):
        from apps.benchmarks.validation import record_warnings

        record = benchmark_create(team=team, data=preprocess_data(world, output_gb=6000))
        assert record.pk is not None
        warnings = record_warnings(record)
        assert list(warnings) == ["output_gb"]
        assert "(6000 GB) is larger than the input (5000 GB)" in warnings["output_gb"][0]
        assert record_warnings(benchmark_create(team=team, data=preprocess_data(world))) == {}

    def test_timed_fields_on_a_preprocessing_run_are_refused(self, team, world):
        errors = _refused(
            team, preprocess_data(world, offer=world.offer.pk, e2e_hours=3, bandwidth_gbps=1)
        )
        assert set(errors) == {"offer", "e2e_hours", "bandwidth_gbps"}
        assert "Not a field of this kind of record (Preprocessing run)" in errors["offer"][0]

    def test_preprocessing_fields_on_a_timed_run_are_refused(self, team, world):
        errors = _refused(team, single_data(world, output_gb=200, site=world.site_a.code))
        assert set(errors) == {"output_gb", "site"}
        assert "Not a field of this kind of record (Single machine)" in errors["site"][0]

    def test_the_database_refuses_a_negative_figure_written_around_the_service(self, team, world):
        from django.db import IntegrityError, transaction

        record = benchmark_create(team=team, data=preprocess_data(world))
        with pytest.raises(IntegrityError), transaction.atomic():
            BenchmarkRecord.objects.filter(pk=record.pk).update(input_gb=-1)


class PreprocessApiTests:
    def test_it_creates_a_run_and_returns_its_figures(self, client, world, raw_token):
        response = api_post(client, preprocess_data(world), token=raw_token)
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["kind"] == "preprocess" and body["site"] == world.site_a.code
        assert (body["preprocess_hours"], body["input_gb"], body["output_gb"]) == (6, 5000, 200)
        assert body["preprocess_cost_per_hour"] == 12.5
        assert body["warnings"] == []

    def test_a_larger_output_is_created_with_a_warning_on_its_field(self, client, world, raw_token):
        response = api_post(client, preprocess_data(world, output_gb=7000), token=raw_token)
        assert response.status_code == 201
        assert [w["field"] for w in response.json()["warnings"]] == ["output_gb"]

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"preprocess_hours": -2}, "preprocess_hours"),
            ({"site": None}, "site"),
            ({"input_gb": "many"}, "input_gb"),
            ({"offer": 1}, "offer"),
            ({"output_gbs": 1}, "output_gbs"),
        ],
    )
    def test_bad_input_answers_422_naming_the_field(self, client, world, raw_token, change, field):
        response = api_post(client, preprocess_data(world, **change), token=raw_token)
        assert response.status_code == 422
        fields = {e["field"].split(".")[-1] for e in response.json()["errors"]}
        assert field in fields
        assert not BenchmarkRecord.objects.exists()

    def test_preprocessing_fields_on_a_probe_answer_422(self, client, world, raw_token):
        body = {
            "task": world.task.pk,
            "kind": "network_probe",
            "from_site": world.site_a.code,
            "to_site": world.site_b.code,
            "bandwidth_gbps": 5,
            "rtt_ms": 1,
            "preprocess_hours": 3,
        }
        response = api_post(client, body, token=raw_token)
        assert response.status_code == 422
        assert [e["field"] for e in response.json()["errors"]] == ["preprocess_hours"]

    def test_the_list_filters_by_kind(self, client, world, raw_token, team):
        benchmark_create(team=team, data=preprocess_data(world))
        benchmark_create(team=team, data=single_data(world))
        response = client.get(
            "/api/v1/benchmarks?kind=preprocess", HTTP_AUTHORIZATION=f"Bearer {raw_token}"
        )
        assert [r["kind"] for r in response.json()] == ["preprocess"]


CSV_HEADER = (
    "task,kind,site,preprocess_hours,input_gb,output_gb,preprocess_cost_per_hour,"
    "offer,e2e_hours,idempotency_key"
)


class PreprocessCsvTests:
    def test_bad_rows_are_named_by_line_and_column_and_nothing_is_saved(self, team, world):
        t, s = world.task.pk, world.site_a.code
        content = "\n".join(
            [
                CSV_HEADER,
                f"{t},preprocess,{s},6,5000,200,12.5,,,p1",  # 2: good
                f"{t},preprocess,{s},-6,5000,200,12.5,,,p2",  # 3: negative hours
                f"{t},preprocess,,6,5000,200,12.5,,,p3",  # 4: no site
                f"{t},preprocess,{s},6,5000,200,12.5,{world.offer.pk},,p4",  # 5: an offer
                f"{t},single,,,,200,,{world.offer.pk},10,p5",  # 6: output on a timed run
            ]
        )
        result = benchmark_import_csv(team=team, content=content)
        assert not result.saved
        assert not BenchmarkRecord.objects.exists()
        by_line = {line: {e.field for e in errs} for line, errs in result.errors_by_line.items()}
        assert by_line == {
            3: {"preprocess_hours"},
            4: {"site"},
            5: {"offer"},
            6: {"output_gb", "compute_hours"},
        }

    def test_a_clean_file_saves_and_a_larger_output_is_a_warning_of_its_line(self, team, world):
        from apps.benchmarks.services import import_warnings

        t, s = world.task.name, world.site_a.code
        content = "\n".join(
            [
                CSV_HEADER,
                f"{t},preprocess,{s},6,5000,200,12.5,,,p1",
                f"{t},preprocess,{s},2,100,150,0,,,p2",
            ]
        )
        result = benchmark_import_csv(team=team, content=content)
        assert result.saved
        assert BenchmarkRecord.objects.filter(kind="preprocess", source="csv").count() == 2
        warnings = import_warnings(result)
        assert list(warnings) == [3]
        assert warnings[3][0].field == "output_gb"

    def test_the_preview_page_shows_the_warning_with_its_line_and_column(
        self, client, member, world
    ):
        client.force_login(member)
        content = "\n".join(
            [CSV_HEADER, f"{world.task.pk},preprocess,{world.site_a.code},2,100,150,0,,,w1"]
        )
        upload = SimpleUploadedFile("runs.csv", content.encode(), content_type="text/csv")
        response = client.post(reverse("benchmarks:import"), {"file": upload})
        assert response.status_code == 200
        page = response.content.decode()
        assert 'id="import-warnings"' in page
        assert "Line 2, column output_gb:" in page
        assert not BenchmarkRecord.objects.exists()  # a preview saves nothing

    def test_the_template_lists_the_preprocessing_columns(self):
        from apps.benchmarks.csv_import import COLUMNS

        assert {
            "site",
            "preprocess_hours",
            "input_gb",
            "output_gb",
            "preprocess_cost_per_hour",
        } <= set(COLUMNS)


class PreprocessFormTests:
    def test_the_form_shows_the_preprocessing_fields_only(self, client, member, world):
        client.force_login(member)
        response = client.get(reverse("benchmarks:create") + "?kind=preprocess")
        page = response.content.decode()
        assert response.status_code == 200
        for name in (
            "site",
            "preprocess_hours",
            "input_gb",
            "output_gb",
            "preprocess_cost_per_hour",
        ):
            assert f'name="{name}"' in page
        assert 'name="offer"' not in page and 'name="e2e_hours"' not in page
        assert "per hour" in page  # the unit of the cost is in its help

    def test_a_bad_post_shows_the_errors_on_their_fields(self, client, member, world):
        client.force_login(member)
        data = preprocess_data(world, preprocess_hours=-3, preprocess_cost_per_hour=-1)
        data["site"] = world.site_a.pk
        response = client.post(reverse("benchmarks:create"), data)
        assert response.status_code == 200
        assert set(response.context["form"].errors) == {
            "preprocess_hours",
            "preprocess_cost_per_hour",
        }
        response = client.post(reverse("benchmarks:create"), {**data, "site": "", "input_gb": 9})
        assert "site" in response.context["form"].errors
        assert not BenchmarkRecord.objects.exists()

    def test_a_post_saves_and_a_larger_output_warns_on_the_detail_page(self, client, member, world):
        client.force_login(member)
        data = preprocess_data(world, output_gb=9000)
        data["site"] = world.site_a.pk
        response = client.post(reverse("benchmarks:create"), data, follow=True)
        record = BenchmarkRecord.objects.get()
        assert response.redirect_chain[-1][0] == reverse("benchmarks:detail", args=[record.pk])
        page = response.content.decode()
        assert 'id="record-warnings"' in page
        assert "is larger than the input" in page

    def test_a_reviewer_cannot_record_a_run(self, client, reviewer, world):
        client.force_login(reviewer)
        data = preprocess_data(world)
        data["site"] = world.site_a.pk
        assert client.post(reverse("benchmarks:create"), data).status_code == 403
        assert not BenchmarkRecord.objects.exists()


class PreprocessTaskPageTests:
    def test_the_task_comparison_lists_the_runs_and_links_the_profile(
        self, client, reviewer, team, world
    ):
        record = benchmark_create(team=team, data=preprocess_data(world))
        client.force_login(reviewer)
        page = client.get(reverse("benchmarks:task", args=[world.task.pk])).content.decode()
        assert 'id="preprocess-runs"' in page
        assert f'href="/benchmarks/{record.pk}/"' in page
        assert reverse("profiles:detail", args=[world.task.pk]) + "#preprocess-fill" in page
