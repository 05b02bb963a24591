"""`manage.py evaluate FILE.json` and `-` for stdin: output JSON, or exit 2 naming the fields."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import engine
from tests.engine.engine_fixtures import make_input, offer, task
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


class EvaluateCommandInputTests:
    """Bad input of any kind: exit 2, every problem named on stderr, nothing on stdout, no
    traceback (SPEC 4 and 6.2)."""

    @staticmethod
    def assert_refused(out: subprocess.CompletedProcess, *expected: str) -> None:
        assert out.returncode == 2, out.stderr
        assert out.stdout == ""
        assert "Traceback" not in out.stderr
        for text in expected:
            assert text in out.stderr

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("[1, 2]", "(input): must be a JSON object, not an array"),
            ('"task"', "(input): must be a JSON object, not a string"),
            ("null", "(input): must be a JSON object, not null"),
            ("", "not valid JSON: Expecting value at line 1 column 1"),
            ("[" * 100_000, "not valid JSON: nested too deeply"),
        ],
    )
    def test_a_value_that_is_not_a_json_object_exits_2(self, text, expected):
        self.assert_refused(run("-", stdin=text), expected)

    def test_bytes_that_are_not_utf8_exit_2(self, tmp_path):
        path = tmp_path / "input.json"
        path.write_bytes(b'{"task": "\xff\xfe"}')
        self.assert_refused(run(str(path)), "not UTF-8 text")

    def test_a_directory_exits_2(self, tmp_path):
        self.assert_refused(run(str(tmp_path)), f"cannot read {tmp_path}")

    def test_an_unknown_field_exits_2_naming_its_path(self):
        body = make_input(task(offsite_alowed=True), offers=[offer("a", prise=2)])
        out = run("-", stdin=json.dumps(body))
        self.assert_refused(out, "task.offsite_alowed: unknown field", "offers[0].prise: unknown field")

    def test_bad_values_of_the_engine_3_fields_exit_2_naming_each(self):
        """SPEC 7.1-7.3 and 7.8's new fields and ranges, one subprocess for all of them."""
        body = make_input(
            task(attention="sdpa", restart_hours=-1),
            offers=[offer("a", relative_speed=0.001)],
            thresholds={"failure_rate_per_gpu_hour": -2e-5, "failure_evidence_gpu_hours": 0.5},
        )
        self.assert_refused(
            run("-", stdin=json.dumps(body)),
            "task.attention: must be one of flash, eager",
            "task.restart_hours: must be ≥ 0",
            "offers[0].relative_speed: must be ≥ 0.01",
            "thresholds.failure_rate_per_gpu_hour: must be ≥ 0",
            "thresholds.failure_evidence_gpu_hours: must be ≥ 1",
        )

    def test_bad_values_of_the_engine_3_1_fields_exit_2_naming_each(self):
        """SPEC 7.4, 7.5 and 7.11's new fields, one subprocess for all of them."""
        body = make_input(
            task(input_delivery="trickle"),
            offers=[offer("a", interconnect="fibre")],
            thresholds={"scheduler_ops_hours_per_month": -40},
        )
        self.assert_refused(
            run("-", stdin=json.dumps(body)),
            "task.input_delivery: must be one of bulk, streamed",
            "offers[0].interconnect: must be one of infiniband, roce, ethernet",
            "thresholds.scheduler_ops_hours_per_month: must be ≥ 0",
        )

    def test_an_input_larger_than_max_bytes_exits_2(self, tmp_path):
        path = tmp_path / "input.json"
        path.write_text(json.dumps(make_input(task(), offers=[offer("a")])) + " " * 1000)
        self.assert_refused(run(str(path), "--max-bytes", "500"), "larger than 500 bytes")

    def test_an_input_over_the_apis_2_mb_is_evaluated(self, tmp_path):
        """The 2 MB cap is the API's; the CLI reads up to 64 MB (docs/decisions.md)."""
        body = make_input(task(), offers=[offer("a")])
        path = tmp_path / "input.json"
        path.write_text(json.dumps(body) + " " * (3 * 1024 * 1024))
        out = run(str(path))
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == engine.evaluate(body)
