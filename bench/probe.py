"""In-process part of bench/run: a session for the load generator, the SQL queries each page
makes, the dataset size, and the time of one snapshot task for a review with many records.
Prints one JSON line last."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,  # noqa: E402
)
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import NoReverseMatch, reverse  # noqa: E402

from apps.benchmarks.models import BenchmarkRecord  # noqa: E402
from apps.profiles.models import TaskProfile  # noqa: E402
from apps.reviews.models import Review  # noqa: E402
from apps.reviews.snapshots.models import EvaluationSnapshot  # noqa: E402


def page_paths(user) -> dict[str, str]:
    team_ids = list(user.memberships.values_list("team_id", flat=True))
    approved = (
        Review.objects.filter(team_id__in=team_ids, state="approved").order_by("id").first()
    )
    wanted = {
        "profile_list": ("profiles:list", []),
        "review_list": ("reviews:list", []),
        "review_page": ("reviews:detail", [approved.pk] if approved else None),
        "approval_queue": ("reviews:approvals", []),
        "history_list": ("scoring:history", []),
    }
    paths = {}
    for name, (url_name, args) in wanted.items():
        if args is None:
            continue
        try:
            paths[name] = reverse(url_name, args=args)
        except NoReverseMatch:
            print(f"skipping {name}: no URL named {url_name}", file=sys.stderr)
    return paths


def _ms(client: Client, path: str, before=None) -> float:
    if before is not None:
        before()
    t0 = time.perf_counter()
    client.get(path)
    return (time.perf_counter() - t0) * 1000


def cold_and_warm(client: Client, path: str, team_ids: list[int]) -> dict:
    """Median time of a view right after a change of the user's teams' data (their generations
    bumped, as any saved row does: the cached fragments are rendered again) and of a warm one."""
    from statistics import median

    from apps.accounts.generations import bump_generations

    def change() -> None:
        bump_generations(team_ids)

    # Taken in turns, a warm view then a cold one: the machine's speed drifts over seconds, and
    # seven warm views then five cold ones measured the drift as much as the change.
    warm, cold = [], []
    for _ in range(11):
        warm.append(_ms(client, path))
        cold.append(_ms(client, path, change))
    warm_ms, cold_ms = median(warm), median(cold)
    return {
        "cold_ms": round(cold_ms, 2),
        "warm_ms": round(warm_ms, 2),
        "cold_x": round(cold_ms / warm_ms, 2),
    }


def main() -> None:
    user = get_user_model().objects.get(username="bench")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()

    paths = page_paths(user)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    queries = {}
    for name, path in {"trivial": "/ping", **paths}.items():
        client.get(path)  # warm: the first view of a review may compute its snapshot
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path)
        if response.status_code != 200:
            print(f"{name} {path} answered {response.status_code}", file=sys.stderr)
        queries[name] = len(ctx.captured_queries)
    team_ids = list(user.memberships.values_list("team_id", flat=True))
    cold = {name: cold_and_warm(client, path, team_ids) for name, path in paths.items()}

    from apps.reviews.snapshots.services import snapshot_compute

    big = Review.objects.get(title="Bench: review with many records")
    records = BenchmarkRecord.objects.filter(task=big.task).count()
    EvaluationSnapshot.objects.filter(review=big).delete()
    t0 = time.perf_counter()
    snapshot_compute(review_id=big.pk)
    snapshot_seconds = time.perf_counter() - t0
    EvaluationSnapshot.objects.filter(review=big).delete()

    dataset = {
        "profiles": TaskProfile.objects.count(),
        "reviews": Review.objects.count(),
        "benchmarks": BenchmarkRecord.objects.count(),
        "snapshots": EvaluationSnapshot.objects.count(),
    }
    print(json.dumps({
        "session_key": session.session_key,
        "pages": paths,
        "queries": queries,
        "cold_after_change": cold,
        "snapshot_seconds": round(snapshot_seconds, 4),
        "snapshot_records": records,
        "dataset": dataset,
        "database": settings.DATABASES["default"]["ENGINE"],
    }))


if __name__ == "__main__":
    main()
