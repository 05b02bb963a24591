"""Settings: production refuses to start half-configured, and passes Django's deploy checks."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.workers import ROOT

SECRET = "x" * 20 + "-production-secret-key-for-tests-only-0123456789abcdef"


def run_manage(*args: str, **env_overrides: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


class ProductionSettingsTests:
    def test_it_passes_check_deploy_without_warnings(self):
        out = run_manage(
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
            DJANGO_ENV="production",
            DJANGO_SECRET_KEY=SECRET,
            DJANGO_ALLOWED_HOSTS="reviews.example.com",
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert "System check identified no issues" in out.stdout
        assert "WARNING" not in out.stderr

    def test_it_refuses_to_start_without_a_secret_key(self):
        out = run_manage("check", DJANGO_ENV="production", DJANGO_ALLOWED_HOSTS="x.example.com")
        assert out.returncode != 0
        assert "DJANGO_SECRET_KEY" in out.stderr

    def test_it_refuses_to_start_without_allowed_hosts(self):
        out = run_manage("check", DJANGO_ENV="production", DJANGO_SECRET_KEY=SECRET)
        assert out.returncode != 0
        assert "DJANGO_ALLOWED_HOSTS" in out.stderr

    def test_it_rejects_a_malformed_boolean(self):
        out = run_manage("check", DJANGO_DEBUG="perhaps")
        assert out.returncode != 0
        assert "DJANGO_DEBUG must be a boolean" in out.stderr

    def test_load_demo_refuses_production(self):
        out = run_manage(
            "load_demo",
            DJANGO_ENV="production",
            DJANGO_SECRET_KEY=SECRET,
            DJANGO_ALLOWED_HOSTS="reviews.example.com",
        )
        assert out.returncode != 0
        assert "never runs with production settings" in out.stderr
