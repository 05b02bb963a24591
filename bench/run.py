"""Orchestrates bench/run: seed, serve under gunicorn (production settings), load with wrk.

Every latency figure is printed next to the trivial view (/ping, a fixed string through the same
stack) measured in the same run, because on a shared 2-core machine only ratios are comparable.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
DB_NAME = os.environ.get("BENCH_DB_NAME", "compute_review_bench")
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
SECRET = "bench-only-secret-key-" + "x" * 40
TARGETS = {"p95_c1_ms": 100, "p95_c8_ms": 400, "list_ratio": 0.25, "approved_ratio": 0.40,
           "cold_x": 3.0,
           "queries": 15, "snapshot_s": 1.0, "engine_eps": 2000}


def sh(*args: str, env: dict | None = None, check: bool = True, capture: bool = False):
    return subprocess.run(
        args, cwd=ROOT, env=env, check=check, text=True,
        stdout=subprocess.PIPE if capture else None, stderr=subprocess.STDOUT if capture else None,
    )


def django_env(production: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    # One secret for both: the session the probe creates must be valid for gunicorn.
    env.update(DATABASE_URL=DATABASE_URL, REDIS_URL=REDIS_URL, CACHE_KEY_PREFIX="bench",
               DJANGO_SECRET_KEY=SECRET)
    if production:
        env.update(
            DJANGO_ENV="production", DJANGO_SECRET_KEY=SECRET,
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_SECURE_SSL_REDIRECT="false",
            AXES_ENABLED="false",
        )
    else:
        env.update(DJANGO_ENV="development")
    return env


def fresh_database() -> None:
    admin = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    sh("psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
    sh("psql", admin, "-qc", f'CREATE DATABASE "{DB_NAME}"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout}s")


def wrk(url: str, cookie: str, connections: int, duration: int) -> dict:
    threads = min(connections, 2)
    out = sh(
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
        "-H", f"Cookie: {cookie}", "-s", str(ROOT / "bench" / "wrk_report.lua"), url,
        capture=True,
    ).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("{"))
    result = json.loads(line)
    result["rps"] = round(result["requests"] / (result["duration_us"] / 1e6), 1)
    return result


PAIRS, PAIR_SECONDS = 7, 3


def paired_with_ping(page_url: str, ping_url: str, cookie: str) -> dict:
    """The page's c8 throughput against /ping's, taken in turns (/ping, page, /ping, ... /ping),
    seven turns of the page for three seconds each, each against the mean of the /ping turns
    either side of it: the ratio is the median of the seven. On a shared machine /ping alone
    moved 208-514 req/s between runs and within one, so a page against a /ping measured minutes
    before, or once after it, moved as much."""
    pings = [wrk(ping_url, cookie, 8, PAIR_SECONDS)["rps"] or 1]
    ratios = []
    for _ in range(PAIRS):
        page = wrk(page_url, cookie, 8, PAIR_SECONDS)["rps"]
        pings.append(wrk(ping_url, cookie, 8, PAIR_SECONDS)["rps"] or 1)
        ratios.append(page / ((pings[-2] + pings[-1]) / 2))
    return {"ratio": round(statistics.median(ratios), 3), "ratios": [round(r, 3) for r in ratios],
            "ping_rps": round(statistics.median(pings), 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a small dataset and short runs")
    parser.add_argument("--duration", type=int, default=None, help="seconds per wrk run")
    parser.add_argument("--keep-db", action="store_true", help="reuse an already seeded database")
    args = parser.parse_args()
    duration = args.duration or (3 if args.quick else 10)
    started = time.monotonic()
    env = django_env()

    if not args.keep_db:
        print("== fresh database", DB_NAME, flush=True)
        fresh_database()
    sh(PY, "manage.py", "migrate", "--noinput", "-v0", env=env)
    seed_args = ["--teams", "4", "--profiles", "400", "--reviews", "400", "--benchmarks",
                 "4000", "--snapshots", "800"] if args.quick else []
    t0 = time.monotonic()
    sh(PY, "manage.py", "bench_seed", *seed_args, env=env)
    seed_seconds = time.monotonic() - t0
    # Write the seeded pages out now: a checkpoint of a few hundred MB falling due during the
    # last page's load halved its throughput in two runs of three (history at 0.25 of /ping).
    # Needs a superuser or pg_checkpoint; without one the run goes on as before.
    sh("psql", DATABASE_URL, "-qc", "CHECKPOINT", check=False)
    sh(PY, "manage.py", "collectstatic", "--noinput", "-v0", env=django_env(production=True))

    print("== queries per page, snapshot task, session", flush=True)
    probe = json.loads(
        sh(PY, "bench/probe.py", env=env, capture=True).stdout.strip().splitlines()[-1]
    )
    print("== engine", flush=True)
    engine_figures = json.loads(
        sh(PY, "bench/engine.py", "--json", env=env, capture=True).stdout.strip().splitlines()[-1]
    )

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "4", "--worker-class", "gthread",
         "--threads", "2", "--log-level", "warning"],
        cwd=ROOT, env=django_env(production=True), start_new_session=True,
    )
    pages: dict[str, dict] = {}
    try:
        wait_http(base + "/ping")
        cookie = f"sessionid={probe['session_key']}"
        for name, path in [("trivial", "/ping"), *probe["pages"].items()]:
            pages[name] = {"path": path, "queries": probe["queries"].get(name),
                           **probe["cold_after_change"].get(name, {})}
            wrk(base + path, cookie, 2, 2)  # warm up caches and connections
            for c in (1, 8):
                print(f"== wrk {name} c={c}", flush=True)
                pages[name][f"c{c}"] = wrk(base + path, cookie, c, duration)
            if name != "trivial":
                pages[name]["pairs_c8"] = paired_with_ping(base + path, base + "/ping", cookie)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)

    for page in pages.values():
        pairs = page.get("pairs_c8")
        page["ratio_c8"] = pairs["ratio"] if pairs else 1.0
    results = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version()},
        "quick": args.quick,
        "seed_seconds": round(seed_seconds, 1),
        "dataset": probe["dataset"],
        "pages": pages,
        "engine": engine_figures,
        "snapshot_task_seconds": probe["snapshot_seconds"],
        "snapshot_records": probe["snapshot_records"],
        "targets": TARGETS,
        "total_seconds": round(time.monotonic() - started, 1),
    }
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print_table(results)
    return 0


def print_table(r: dict) -> None:
    print()
    print(f"Dataset: {r['dataset']}  (seeded in {r['seed_seconds']} s)")
    header = (f"{'page':<16}{'queries':>8}{'c1 p50':>9}{'c1 p95':>9}{'c1 p99':>9}{'c1 rps':>9}"
              f"{'c8 p50':>9}{'c8 p95':>9}{'c8 p99':>9}{'c8 rps':>9}{'ping rps':>9}{'vs ping':>9}"
              f"{'non2xx':>8}"
              f"{'cold x':>8}")
    print(header)
    print("-" * len(header))
    for name, p in r["pages"].items():
        c1, c8 = p["c1"], p["c8"]
        print(f"{name:<16}{p['queries'] if p['queries'] is not None else '-':>8}"
              f"{c1['p50_ms']:>9.1f}{c1['p95_ms']:>9.1f}{c1['p99_ms']:>9.1f}{c1['rps']:>9.1f}"
              f"{c8['p50_ms']:>9.1f}{c8['p95_ms']:>9.1f}{c8['p99_ms']:>9.1f}{c8['rps']:>9.1f}"
              f"{(p.get('pairs_c8') or {'ping_rps': c8['rps']})['ping_rps']:>9.1f}"
              f"{p['ratio_c8']:>9.2f}"
              f"{c1['non2xx'] + c8['non2xx']:>8}"
              f"{p.get('cold_x', '-'):>8}")
    print()
    print("vs ping: the median of seven 3 s turns of the page at c8, each against the mean of the"
          " /ping turns either side of it; ping rps: /ping's median in those turns")
    print("cold x: a view right after a change of the team's data against a warm one "
          "(in-process, bench/probe.py)")
    print(f"Engine: {r['engine']}")
    print(f"Snapshot task for a review with {r['snapshot_records']} benchmark records: "
          f"{r['snapshot_task_seconds']:.3f} s")
    print(f"Total bench time: {r['total_seconds']} s; results in bench/results.json")


if __name__ == "__main__":
    sys.exit(main())
