"""The Celery wiring: a real round trip through Redis and a worker, or eager without Redis."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from apps.scoring.tasks import ping_task
from config.celery import app
from tests.services import need_redis
from tests.workers import ROOT, celery_worker


class CeleryRoundTripTests:
    def test_it_round_trips_through_redis_and_a_worker_process(self, settings):
        need_redis()
        app.conf.task_always_eager = False
        with celery_worker(name="roundtrip") as proc:
            result = ping_task.delay("hello")
            value = result.get(timeout=30)
        assert value["echo"] == "hello"
        # The answer came from the worker's child process, not from this test process.
        assert value["pid"] != os.getpid()
        assert proc.pid != os.getpid()

    def test_it_runs_eagerly_without_redis_url(self):
        env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        env["DJANGO_ENV"] = "test"
        code = (
            "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings');"
            "django.setup();"
            "from config.celery import app; from apps.scoring.tasks import ping_task;"
            "r = ping_task.delay('x'); import json;"
            "print(json.dumps([app.conf.task_always_eager, r.get()['echo'], r.get()['pid'] == os.getpid()]))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip().splitlines()[-1] == '[true, "x", true]'

    def test_it_loses_no_task_by_configuration(self, settings):
        assert settings.CELERY_TASK_ACKS_LATE is True
        assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
        assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
        assert (
            settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
            > settings.CELERY_TASK_TIME_LIMIT
        )

    def test_publishing_gives_up_at_once_when_the_broker_is_down_by_configuration(self, settings):
        """A page that publishes a job answers while the broker is down (tests/scoring/
        test_broker_down.py, tests/security/test_broker_down_pages.py) because publishing tries
        once, with short socket timeouts, and is not retried."""
        options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        assert options["max_retries"] == 0
        assert options["socket_connect_timeout"] <= 2 and options["socket_timeout"] <= 5
        assert settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 2


pytestmark = pytest.mark.django_db(transaction=False)
