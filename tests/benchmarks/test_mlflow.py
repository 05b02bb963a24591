"""MLflow runs as benchmark records (issue 40), against a real MLflow tracking server started
here (tests/benchmarks/mlflow_server.py): runs logged with the MLflow client, imported, imported
again (nothing new), a run missing a metric listed and not imported; the command line and the
page; the page's tracking URI under the webhook address rule."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from apps.benchmarks import mlflow_import
from apps.benchmarks.models import BenchmarkKind, BenchmarkRecord, MlflowMapping, Source
from tests.benchmarks.mlflow_server import start_server
from tests.factories import make_offer, make_profile

pytestmark = pytest.mark.django_db
EXPERIMENT = "llm-finetune"
T0 = 1_767_225_600_000  # 2026-01-01T00:00:00Z in milliseconds, MLflow's unit
HOUR = 3_600_000


@pytest.fixture(scope="module")
def mlflow_server(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("mlflow"))
    yield server
    server.stop()


def run(name, offer, *, nodes="1", gpus="8", start=T0, hours=3.0, metrics=None):
    return {
        "name": name, "start": start, "end": start + int(hours * HOUR),
        "tags": {"offer": str(offer)}, "params": {"nodes": nodes, "gpus_per_node": gpus},
        "metrics": {"compute_hours": 2.5, "peak_gpu_mem_gb": 61.5, "failure_reruns": 1}
        if metrics is None else metrics,
    }  # fmt: skip


@pytest.fixture
def logged(mlflow_server, team, request):
    """Four runs in an experiment of this test's own: two good, one without the compute hours
    metric, one naming an offer the team does not have."""
    offer = make_offer(team, name="H100 x8")
    profile = make_profile(team)
    experiment = f"{EXPERIMENT}-{request.node.name}"[:200]
    ids = mlflow_server.log_runs(experiment, [
        run("single", offer.pk),
        run("multi", offer.pk, nodes="2", start=T0 + HOUR, hours=2.0,
            metrics={"compute_hours": 1.5, "peak_gpu_mem_gb": 70.0, "failure_reruns": 0}),
        run("no-metric", offer.pk, metrics={"peak_gpu_mem_gb": 40.0, "failure_reruns": 0}),
        run("foreign-offer", 999_999),
    ])  # fmt: skip
    mapping = MlflowMapping.objects.create(
        team=team, tracking_uri=mlflow_server.uri, experiment=experiment, task=profile,
        offer_tag="offer", nodes_key="nodes", gpus_per_node_key="gpus_per_node",
        compute_hours_metric="compute_hours", peak_gpu_mem_metric="peak_gpu_mem_gb",
        failure_reruns_metric="failure_reruns",
    )  # fmt: skip
    return {"ids": ids, "offer": offer, "mapping": mapping, "experiment": experiment}


def fetch(mlflow_server, logged):
    return mlflow_import.fetch_runs(mlflow_server.uri, logged["experiment"], allow_private=True)


class MlflowImportTests:
    def test_runs_are_imported_once_and_a_run_missing_a_metric_is_listed(
        self, mlflow_server, team, logged
    ):
        runs = fetch(mlflow_server, logged)
        assert len(runs) == 4
        rows = {r.run_name: r for r in mlflow_import.import_runs(team, logged["mapping"], runs)}
        assert rows["single"].status == rows["multi"].status == "created", rows["multi"].reasons
        assert rows["no-metric"].status == "skipped"
        assert rows["no-metric"].reasons == ["no metric compute_hours"]
        # The offer is checked by the benchmark records' own rules (validation.benchmark_clean).
        assert rows["foreign-offer"].status == "skipped"
        assert rows["foreign-offer"].reasons == ["offer: Unknown offer: not an offer of your team."]
        single = BenchmarkRecord.objects.get(pk=rows["single"].record_id)
        # Started at T0, ended 3 h later: (3 × 3,600,000 ms) ÷ 3,600,000 = 3.0 h end to end.
        assert single.e2e_hours == 3.0 and single.compute_hours == 2.5
        assert (single.kind, single.nodes, single.gpus_per_node) == (BenchmarkKind.SINGLE, 1, 8)
        assert single.peak_gpu_mem_gb == 61.5 and single.failure_reruns == 1
        assert single.offer == logged["offer"] and single.source == Source.MLFLOW
        assert single.idempotency_key == f"mlflow:{logged['ids']['single']}"
        multi = BenchmarkRecord.objects.get(pk=rows["multi"].record_id)
        # Two nodes: a multi-machine run; 2 h end to end.
        assert (multi.kind, multi.nodes, multi.e2e_hours) == (BenchmarkKind.MULTI, 2, 2.0)
        assert multi.peak_gpu_mem_gb == 70.0 and multi.failure_reruns == 0

        again = mlflow_import.import_runs(team, logged["mapping"], fetch(mlflow_server, logged))
        assert mlflow_import.counts(again) == {"new": 0, "created": 0, "imported": 2, "skipped": 2}
        assert BenchmarkRecord.objects.filter(team=team).count() == 2

    def test_the_command_previews_imports_and_reports_json(self, mlflow_server, team, logged):
        args = ["import_mlflow", "--team", team.slug, "--tracking-uri", mlflow_server.uri,
                "--experiment", logged["experiment"], "--json"]  # fmt: skip
        out = io.StringIO()
        call_command(*args, "--dry-run", stdout=out)
        dry = json.loads(out.getvalue())
        assert dry["dry_run"] is True and dry["counts"]["new"] == 2
        assert not BenchmarkRecord.objects.exists()
        out = io.StringIO()
        call_command(*args, stdout=out)
        assert json.loads(out.getvalue())["counts"] == {
            "new": 0, "created": 2, "imported": 0, "skipped": 2
        }  # fmt: skip
        out = io.StringIO()
        call_command(*args, stdout=out)
        result = json.loads(out.getvalue())
        assert result["counts"]["created"] == 0 and result["counts"]["imported"] == 2
        skipped = {r["run_name"]: r["reasons"] for r in result["runs"] if r["status"] == "skipped"}
        assert skipped["no-metric"] == ["no metric compute_hours"]

    def test_bad_input_exits_with_code_2(self, mlflow_server, team, logged):
        with pytest.raises(CommandError) as caught:
            call_command("import_mlflow", "--team", "nope", "--tracking-uri", mlflow_server.uri,
                         "--experiment", "x")  # fmt: skip
        assert caught.value.returncode == 2
        with pytest.raises(CommandError, match="No experiment named missing") as caught:
            call_command("import_mlflow", "--team", team.slug, "--tracking-uri",
                         mlflow_server.uri, "--experiment", "missing")  # fmt: skip
        assert caught.value.returncode == 2
        with pytest.raises(CommandError, match="metadata") as caught:
            call_command("import_mlflow", "--team", team.slug, "--tracking-uri",
                         "http://169.254.169.254/", "--experiment", "x")  # fmt: skip
        assert caught.value.returncode == 2


class MlflowPageTests:
    def form(self, logged, uri: str, action: str) -> dict:
        mapping = logged["mapping"]
        return {
            "action": action, "tracking_uri": uri, "experiment": mapping.experiment,
            "task": mapping.task_id, "offer_tag": "offer", "nodes_key": "nodes",
            "gpus_per_node_key": "gpus_per_node", "compute_hours_metric": "compute_hours",
            "peak_gpu_mem_metric": "", "failure_reruns_metric": "",
        }  # fmt: skip

    def test_the_page_refuses_a_loopback_tracking_uri(
        self, client, member, mlflow_server, logged, settings
    ):
        settings.OUTBOUND_ALLOW_PRIVATE = False
        client.force_login(member)
        response = client.post(
            "/benchmarks/mlflow/", self.form(logged, mlflow_server.uri, "preview")
        )
        assert response.status_code == 422
        assert "127.0.0.1 is a loopback address" in str(response.context["form"].errors)
        assert not BenchmarkRecord.objects.exists()

    def test_preview_then_import_from_the_page(
        self, client, member, reviewer, mlflow_server, logged, settings
    ):
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
        client.force_login(member)
        page = client.post("/benchmarks/mlflow/", self.form(logged, mlflow_server.uri, "preview"))
        assert page.status_code == 200 and page.context["counts"]["new"] == 2
        assert not BenchmarkRecord.objects.exists()
        page = client.post("/benchmarks/mlflow/", self.form(logged, mlflow_server.uri, "import"))
        assert page.context["counts"]["created"] == 2
        assert 'data-status="skipped"' in page.content.decode()
        assert "no metric compute_hours" in page.content.decode()
        client.force_login(reviewer)
        assert client.get("/benchmarks/mlflow/").status_code == 403
