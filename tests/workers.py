"""Start and stop a real Celery worker process for integration tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def worker_env(**extra: str) -> dict:
    """The environment of a worker that sees this test run's database and broker."""
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.setdefault("DJANGO_ENV", "test")
    db = connection.settings_dict
    if db["ENGINE"].endswith("postgresql"):
        user = db.get("USER") or ""
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        auth = f"{user}{password}@" if user else ""
        host = db.get("HOST") or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        # The test database pytest-django created, not the configured one.
        env["DATABASE_URL"] = f"postgres://{auth}{host}{port}/{db['NAME']}?conn_max_age=0"
    env["REDIS_URL"] = settings.REDIS_URL
    env.update(extra)
    return env


@contextmanager
def celery_worker(*, name: str = "test", extra_env: dict | None = None, ready_timeout: float = 40):
    """Run `celery -A config worker` as a subprocess until the block ends."""
    log_path = ROOT / "var" / f"worker-{name}-{os.getpid()}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "w")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--loglevel=INFO", "--concurrency=1", "--pool=prefork",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            f"--hostname={name}-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=worker_env(**(extra_env or {})),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"worker exited early:\n{log_path.read_text()[-3000:]}")
            if "ready." in log_path.read_text():
                break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"worker not ready in {ready_timeout}s:\n{log_path.read_text()[-3000:]}")
        yield proc
    finally:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=15)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=5)
        log.close()
