"""`manage.py evaluate FILE.json` and `-` for stdin: output JSON, or exit 2 naming the fields."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from apps.scoring import engine
from tests.scoring.engine_fixtures import make_input, offer, task
from tests.workers import ROOT


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", "evaluate", *args], cwd=ROOT, env=env, input=stdin,
        capture_output=True, text=True,
    )


class EvaluateCommandTests:
    def test_it_prints_the_output_for_a_file(self, tmp_path):
        body = make_input(task(), offers=[offer("a")])
        path = tmp_path / "input.json"
        path.write_text(json.dumps(body))
        out = run(str(path))
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == engine.evaluate(body)

    def test_it_reads_stdin_with_a_dash(self):
        body = make_input(task(params_b=70, workload="training"), offers=[offer("a")])
        out = run("-", stdin=json.dumps(body))
        assert out.returncode == 0, out.stderr
        # 70B full training: 70 × 16 × 1.2 = 1344 GB (SPEC A).
        assert json.loads(out.stdout)["sizing"]["estimated_gpu_mem_gb"] == 1344

    def test_bad_input_exits_2_naming_the_fields_without_a_traceback(self):
        body = make_input(task(workload="mining"), offers=[offer("a", site="nowhere")])
        out = run("-", stdin=json.dumps(body))
        assert out.returncode == 2
        assert "task.workload" in out.stderr
        assert "offers[0].site" in out.stderr
        assert "Traceback" not in out.stderr
        assert out.stdout == ""

    def test_invalid_json_and_missing_file_exit_2(self, tmp_path):
        bad = run("-", stdin="{oops")
        assert bad.returncode == 2 and "not valid JSON" in bad.stderr
        missing = run(str(tmp_path / "missing.json"))
        assert missing.returncode == 2 and "cannot read" in missing.stderr
        assert "Traceback" not in bad.stderr + missing.stderr
