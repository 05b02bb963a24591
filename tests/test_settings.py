"""Settings: production refuses to start half-configured, and passes Django's deploy checks."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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


SERVE_ONE_STATIC_FILE = """
import django, re
django.setup()
from django.test import Client
from django.templatetags.static import static
url = static("css/app.css")
response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
print(url, response.status_code, response.get("Cache-Control"), response.get("Content-Encoding"),
      sep="|")
"""


class MakeRunStaticTests:
    # collectstatic writes the one staticfiles/ folder: never at the same time as
    # tests/test_run_script.py, under pytest-xdist.
    @pytest.mark.xdist_group(name="staticfiles")
    def test_make_run_serves_static_files_as_production_does(self):
        """scripts/run: collectstatic, then WhiteNoise serves hashed names, compressed, cached for
        a year (issue 16: a newcomer sees the real speed)."""
        with open(ROOT / "scripts" / "run", encoding="utf-8") as script:
            text = script.read()
        assert "export STATIC_AS_PRODUCTION=1" in text and "runserver --nostatic" in text
        env = {"STATIC_AS_PRODUCTION": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
        collected = run_manage("collectstatic", "--noinput", "-v", "0", **env)
        assert collected.returncode == 0, collected.stderr
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        full_env.update(env)
        out = subprocess.run(
            [sys.executable, "-c", SERVE_ONE_STATIC_FILE],
            cwd=ROOT, env=full_env, capture_output=True, text=True,
        )
        assert out.returncode == 0, out.stderr
        url, status, cache_control, encoding = out.stdout.strip().split("|")
        assert url.startswith("/static/css/app.") and url.endswith(".css") and url.count(".") == 2
        assert status == "200"
        assert "immutable" in cache_control and "max-age=315360000" in cache_control
        assert encoding.strip() == "gzip"


class ReleaseIdTests:
    """The release in the cache's keys (apps/web/fragments.py): a build's id, else the commit."""

    def _release(self, **env) -> str:
        code = "from django.conf import settings; print(settings.RELEASE_ID)"
        out = run_manage("shell", "-c", code, DJANGO_ENV="test", **env)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()[-1]  # after the shell's own notice

    def test_a_builds_release_id_wins(self):
        assert self._release(RELEASE_ID="build-42") == "build-42"

    def test_without_one_it_is_the_checkouts_commit(self):
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        assert head and self._release(RELEASE_ID="") == head
