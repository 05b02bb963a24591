"""A real MLflow tracking server for the import tests: `mlflow server` on a SQLite store in a
temporary directory, started in a subprocess, and runs logged to it with the MLflow client.

The interpreter is MLFLOW_PYTHON when set, else .venv-mlflow's (`make mlflow-venv`, from
requirements-mlflow.txt: mlflow's gunicorn<27 and the app's gunicorn==27.0.1 cannot share one
virtualenv), else the test's own when mlflow is importable there.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

STARTUP_SECONDS = 240  # a bound, not a wait: the fixture polls /health until it answers
LOG_RUNS = r"""
import json, sys
from mlflow.tracking import MlflowClient
uri, experiment, runs = sys.argv[1], sys.argv[2], json.loads(sys.stdin.read())
client = MlflowClient(tracking_uri=uri)
found = client.get_experiment_by_name(experiment)
experiment_id = found.experiment_id if found else client.create_experiment(experiment)
ids = {}
for run in runs:
    created = client.create_run(experiment_id, start_time=run["start"], tags=run["tags"],
                                run_name=run["name"])
    run_id = created.info.run_id
    for key, value in run["params"].items():
        client.log_param(run_id, key, value)
    for key, value in run["metrics"].items():
        client.log_metric(run_id, key, value)
    if run.get("end") is not None:
        client.set_terminated(run_id, end_time=run["end"])
    ids[run["name"]] = run_id
print(json.dumps(ids))
"""


ROOT = Path(__file__).resolve().parents[2]


def python() -> str:
    if os.environ.get("MLFLOW_PYTHON"):
        return os.environ["MLFLOW_PYTHON"]
    separate = ROOT / ".venv-mlflow" / "bin" / "python"
    if separate.exists():
        return str(separate)
    if importlib.util.find_spec("mlflow") is not None:
        return sys.executable
    raise RuntimeError(
        "No MLflow to start: run `make mlflow-venv` (requirements-mlflow.txt) or set MLFLOW_PYTHON"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class MlflowServer:
    process: subprocess.Popen
    uri: str

    def log_runs(self, experiment: str, runs: list[dict]) -> dict[str, str]:
        """Log `runs` with the MLflow client; their ids by name."""
        done = subprocess.run(
            [python(), "-c", LOG_RUNS, self.uri, experiment],
            input=json.dumps(runs), capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"logging runs failed: {done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_server(directory: Path) -> MlflowServer:
    port = _free_port()
    log = open(directory / "server.log", "w")  # noqa: SIM115 - kept open for the process
    process = subprocess.Popen(
        [python(), "-m", "mlflow", "server",
         "--backend-store-uri", f"sqlite:///{directory / 'mlflow.db'}",
         "--default-artifact-root", str(directory / "artifacts"),
         "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
        stdout=log, stderr=subprocess.STDOUT, cwd=directory,
    )  # fmt: skip
    server = MlflowServer(process, f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((directory / "server.log").read_text()[-3000:])
        try:
            with urllib.request.urlopen(f"{server.uri}/health", timeout=2) as answer:  # noqa: S310
                if answer.status == 200:
                    return server
        except OSError:
            pass
        time.sleep(0.5)  # polling the server's start, bounded by the deadline above
    server.stop()
    raise RuntimeError(f"mlflow server did not start in {STARTUP_SECONDS} s")
