"""`make run` on a fresh database: the address to open is on screen, not buried under migrations
and the demo's notification emails (issue 39), and links in emails follow the port it serves on."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        # as on a fresh clone: no DJANGO_ENV (development, emails to the console), no services
        if key
        not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL", "PORT", "DJANGO_ENV"}
    }
    env.update(extra)
    return env


def test_site_url_follows_the_port_served_on():
    code = "from django.conf import settings; print(settings.SITE_URL)"
    for env, expected in (
        (_env(PORT="8123"), "http://localhost:8123"),
        (_env(), "http://localhost:8000"),
        (_env(PORT="8123", SITE_URL="https://reviews.example.com/"), "https://reviews.example.com"),
    ):
        done = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {code}"],
            cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.stdout.strip() == expected, done.stderr


def test_a_bad_port_stops_the_start_naming_it():
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env={**_env(PORT="80x"), "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "PORT must be a port number" in done.stderr


# collectstatic writes the one staticfiles/ folder: never at the same time as the other test that
# runs it (tests/test_settings.py), under pytest-xdist.
@pytest.mark.xdist_group(name="staticfiles")
def test_make_run_prints_the_address_within_40_lines_and_serves(tmp_path):
    port = _free_port()
    env = _env(PORT=str(port), DATABASE_URL=f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    server = subprocess.Popen(
        ["./scripts/run"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        before = []
        for line in server.stdout:
            if line.startswith("Serving on"):
                break
            before.append(line)
        else:
            raise AssertionError("no 'Serving on' line:\n" + "".join(before))
        assert len(before) < 40, "".join(before)
        assert f"http://127.0.0.1:{port}" in line
        assert any(line.startswith("Demo data ready") for line in before), before
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=5) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # polling the server's start, bounded by the deadline
        # The demo's notification emails (kept in var/run/demo.log) link to the port served on.
        mails = (ROOT / "var" / "run" / "demo.log").read_text(encoding="utf-8")
        links = [word for word in mails.split() if word.startswith("http://localhost:")]
        assert links and all(link.startswith(f"http://localhost:{port}/") for link in links)
        # An invitation printed under PORT=8123 (the first owner's, by bootstrap) points there.
        invited = subprocess.run(
            [sys.executable, "manage.py", "bootstrap", "--team", "Port check",
             "--owner", "lead@corp.example"],
            cwd=ROOT, env={**env, "PORT": "8123"}, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert invited.returncode == 0, invited.stderr
        assert "the link: http://localhost:8123/accounts/invitations/accept/" in invited.stdout
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
