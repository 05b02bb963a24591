"""Orchestrates bench/lighthouse: Lighthouse (Node, from the npm registry) against the production
stack with the demo data, desktop and mobile, on the review page and every main page.

    bench/lighthouse [--only LABEL ...] [--runs N] [--form-factor desktop|mobile|both]

Lighthouse 12 (pinned below; 13 needs Node 22) is installed by npm into var/lighthouse/ the first
time. The app runs under gunicorn with DJANGO_ENV=production (static files hashed and compressed
by WhiteNoise, no debug) on a throwaway SQLite database filled by load_demo, without Redis (tasks
run in the request). Lighthouse drives the system Chromium (CHROME_PATH, default /usr/bin/chromium),
started here with a debugging port; after the login page it is signed in as the demo owner alice
by a session cookie put in its cookie jar (an --extra-headers cookie would not reach the page's
own htmx requests, which then load the sign-in page into the page).

Writes bench/lighthouse.json and prints a table. With --runs N each page and form factor is
measured N times and the run of median performance kept (the machine is shared: one run is noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE_DIR = ROOT / "var" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
SECRET = "lighthouse-only-secret-key-" + "x" * 40
CATEGORIES = ("performance", "accessibility", "best-practices")
REVIEW = "review (submitted)"  # the page the product exists for (tests/e2e/pages.py label)
# Issue 35: the review page in each of its states meets the review page's targets.
REVIEW_PAGES = ("review (draft)", REVIEW, "review (approved)")
# Issue 16: the review page's performance; accessibility and best practices on every main page.
TARGETS = {
    "review_desktop_performance": 95,
    "review_desktop_tbt_ms": 200,
    "review_mobile_performance": 90,
    "review_cls": 0.1,
    "accessibility": 100,
    "best_practices": 100,
}
PAGES_CODE = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tests.e2e.pages import main_pages
user = get_user_model().objects.get(username="alice")
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print("JSON " + json.dumps({"session": session.session_key, "pages": main_pages()}))
"""


def install_lighthouse() -> str:
    package = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "package.json"
    if package.exists() and json.loads(package.read_text())["version"] == LIGHTHOUSE_VERSION:
        return LIGHTHOUSE_VERSION
    if not shutil.which("npm"):
        raise SystemExit("npm is needed to install Lighthouse (apt-get install nodejs npm)")
    print(f"== npm install lighthouse@{LIGHTHOUSE_VERSION} into {LIGHTHOUSE_DIR}", flush=True)
    LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "npm",
            "install",
            "--prefix",
            str(LIGHTHOUSE_DIR),
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            f"lighthouse@{LIGHTHOUSE_VERSION}",
        ],
        check=True,
    )
    return LIGHTHOUSE_VERSION


def app_env(tmp: str, production: bool) -> dict:
    """The demo is built with development settings (load_demo refuses production ones) and served
    with production settings; one database and one secret key, so the session holds for both."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DJANGO_") and k not in {"REDIS_URL", "DATABASE_URL"}
    }
    env.update(DATABASE_URL=f"sqlite:///{tmp}/lighthouse.sqlite3", DJANGO_SECRET_KEY=SECRET)
    if production:
        env.update(
            DJANGO_ENV="production",
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_SECURE_SSL_REDIRECT="false",
            AXES_ENABLED="false",
        )
    else:
        env.update(DJANGO_ENV="development")
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)  # noqa: S310 (a local URL)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer at {url}")


def warm(url: str, cookie: str) -> None:
    """One view first: a review's first view may compute its snapshot (not what is measured)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie})  # noqa: S310
    try:
        urllib.request.urlopen(request, timeout=60).read()  # noqa: S310
    except urllib.error.HTTPError:
        pass  # the error page is a main page too


def start_chromium(profile: Path) -> tuple[subprocess.Popen, int]:
    """The system Chromium with a debugging port: Lighthouse attaches to it (--port), and the
    session cookie lives in its cookie jar, so that the page's own fetches (htmx) carry it too, as
    in a signed-in browser (Lighthouse clears caches between runs, never cookies)."""
    port = free_port()
    chrome = subprocess.Popen(
        [
            CHROME,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--remote-debugging-port={port}",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_http(f"http://127.0.0.1:{port}/json/version")
    return chrome, port


def set_cookie(port: int, base: str, name: str, value: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        browser.contexts[0].add_cookies([{"name": name, "value": value, "url": base}])
        browser.close()  # disconnects; the browser and its cookie jar stay


def lighthouse(url: str, port: int, form_factor: str, out: Path) -> dict:
    args = [
        "node",
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={out}",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--port={port}",
    ]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    done = subprocess.run(
        args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0 or not out.exists():
        # Recorded, not fatal: one page Lighthouse could not measure must not lose the others.
        print(done.stderr[-2000:], file=sys.stderr)
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:500]}
    report = json.loads(out.read_text())
    audits = report["audits"]

    def ms(audit: str) -> int | None:
        value = audits.get(audit, {}).get("numericValue")
        return round(value) if value is not None else None

    failing = {}
    for category in ("accessibility", "best-practices"):
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] and audit.get("score") is not None and audit["score"] < 1:
                failing.setdefault(category, []).append(ref["id"])
    return {
        "performance": round(report["categories"]["performance"]["score"] * 100),
        "accessibility": round(report["categories"]["accessibility"]["score"] * 100),
        "best_practices": round(report["categories"]["best-practices"]["score"] * 100),
        "tbt_ms": ms("total-blocking-time"),
        "fcp_ms": ms("first-contentful-paint"),
        "lcp_ms": ms("largest-contentful-paint"),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "speed_index_ms": ms("speed-index"),
        "transfer_kb": round(audits["total-byte-weight"]["numericValue"] / 1024),
        "failing": failing,
        "final_url": report.get("finalDisplayedUrl") or report.get("finalUrl"),
    }


def measure(url: str, port: int, form_factor: str, runs: int, tmp: Path) -> dict:
    results = []
    for i in range(runs):
        target = tmp / f"run-{i}.json"
        target.unlink(missing_ok=True)
        result = lighthouse(url, port, form_factor, target)
        for _retry in range(2):  # a trace Lighthouse failed to record on a busy machine
            if "NO_NAVSTART" not in result.get("error", ""):
                break
            result = lighthouse(url, port, form_factor, target)
        results.append(result)
    if any("error" in r for r in results):
        return next(r for r in results if "error" in r)
    results.sort(key=lambda r: r["performance"])
    chosen = results[len(results) // 2]
    if runs > 1:
        chosen["performance_runs"] = [r["performance"] for r in results]
        chosen["tbt_runs_ms"] = sorted(r["tbt_ms"] for r in results)
        chosen["tbt_median_ms"] = round(statistics.median(chosen["tbt_runs_ms"]))
    return chosen


def chromium_version() -> str:
    out = subprocess.run([CHROME, "--version"], capture_output=True, text=True).stdout
    return out.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="page labels (tests/e2e/pages.py) to measure")
    parser.add_argument("--runs", type=int, default=1, help="runs per page and form factor")
    parser.add_argument("--form-factor", choices=("desktop", "mobile", "both"), default="both")
    parser.add_argument("--output", default=str(ROOT / "bench" / "lighthouse.json"))
    parser.add_argument("--table", action="store_true", help="print the table of --output only")
    args = parser.parse_args()
    if args.table:
        print_table(json.loads(Path(args.output).read_text()))
        return 0
    if not Path(CHROME).exists():
        print(f"no Chromium at {CHROME} (apt-get install chromium)", file=sys.stderr)
        return 2
    version = install_lighthouse()
    factors = ("desktop", "mobile") if args.form_factor == "both" else (args.form_factor,)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        env = app_env(tmp, production=False)
        production = app_env(tmp, production=True)
        run = {"cwd": ROOT, "env": env, "check": True}
        subprocess.run(
            [PY, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=production,
            check=True,
        )
        subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], **run)
        subprocess.run([PY, "manage.py", "load_demo"], **run, stdout=subprocess.DEVNULL)
        out = subprocess.run(
            [PY, "manage.py", "shell", "-c", PAGES_CODE], **run, capture_output=True, text=True
        ).stdout
        found = json.loads(next(line for line in out.splitlines() if line.startswith("JSON "))[5:])
        session = found["session"]
        # Lighthouse refuses to measure a page answered with an error status (the 404 page).
        pages = [
            p
            for p in found["pages"]
            if (not args.only or p[0] in args.only) and not p[1].startswith("/no-such-page")
        ]
        if not args.only:
            pages.insert(0, ("login", "/accounts/login/", None))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [
                str(ROOT / ".venv" / "bin" / "gunicorn"),
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--worker-class",
                "gthread",
                "--threads",
                "2",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=production,
            start_new_session=True,
        )
        results: dict[str, dict] = {}
        chrome, cdp = start_chromium(Path(tmp) / "chromium")
        try:
            wait_http(base + "/ping")
            for label, path, _ready in pages:  # the login page first, signed out
                if label != "login" and not results.get("_signed_in"):
                    set_cookie(cdp, base, "sessionid", session)
                    results["_signed_in"] = {}
                warm(base + path, "" if label == "login" else f"sessionid={session}")
                results[label] = {"path": path}
                for factor in factors:
                    print(f"== {label} {factor}", flush=True)
                    results[label][factor] = measure(base + path, cdp, factor, args.runs, Path(tmp))
        finally:
            results.pop("_signed_in", None)
            for process in (server, chrome):
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=20)
    today = datetime.now(UTC).isoformat(timespec="seconds")
    for page in results.values():
        page["date"], page["runs"] = today, args.runs
    if args.only and Path(args.output).exists():  # the other pages keep their last figures
        results = {**json.loads(Path(args.output).read_text())["pages"], **results}
    report = {
        "date": today,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "lighthouse": version,
        "chromium": chromium_version(),
        "stack": "gunicorn (2 workers × 2 threads), DJANGO_ENV=production, WhiteNoise, "
        "SQLite demo data (load_demo), no Redis",
        "runs_per_page": args.runs,
        "targets": TARGETS,
        "pages": results,
        "total_seconds": round(time.monotonic() - started),
    }
    Path(args.output).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print_table(report)
    return 0


def print_table(report: dict) -> None:
    print()
    print(f"Lighthouse {report['lighthouse']}, {report['chromium']}; {report['stack']}")
    print("| Page | Desktop perf. | TBT | LCP | CLS | Mobile perf. | TBT | LCP | A11y | Best pr. |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, page in report["pages"].items():
        d, m = page.get("desktop", {}), page.get("mobile", {})
        a11y = sorted({x["accessibility"] for x in (d, m) if "accessibility" in x})
        bp = sorted({x["best_practices"] for x in (d, m) if "best_practices" in x})

        def cell(result: dict, key: str, unit: str = "") -> str:
            if "error" in result:
                return "error"
            return "—" if result.get(key) is None else f"{result[key]}{unit}"

        print(
            f"| {label} | {cell(d, 'performance')} | {cell(d, 'tbt_ms', ' ms')} | "
            f"{cell(d, 'lcp_ms', ' ms')} | {cell(d, 'cls')} | {cell(m, 'performance')} | "
            f"{cell(m, 'tbt_ms', ' ms')} | {cell(m, 'lcp_ms', ' ms')} | "
            f"{'/'.join(map(str, a11y))} | {'/'.join(map(str, bp))} |"
        )
    failing = {}
    for label, page in report["pages"].items():
        for factor in ("desktop", "mobile"):
            for category, ids in page.get(factor, {}).get("failing", {}).items():
                failing.setdefault(f"{category}: {', '.join(ids)}", set()).add(label)
    for what, labels in sorted(failing.items()):
        print(f"failing {what}  ({', '.join(sorted(labels))})")
    for label, page in report["pages"].items():
        for factor in ("desktop", "mobile"):
            if "error" in page.get(factor, {}):
                print(f"not measured: {label} {factor}: {page[factor]['error']}")
    for label in REVIEW_PAGES:
        print(f"{label}: {', '.join(review_misses(report, label)) or 'meets its targets'}")


def review_misses(report: dict, label: str) -> list[str]:
    """What a review page misses of TARGETS (performance, and layout shift on both)."""
    targets, page = report["targets"], report["pages"].get(label)
    if page is None:
        return ["not measured"]
    misses = []
    for factor, floor in (("desktop", targets["review_desktop_performance"]),
                          ("mobile", targets["review_mobile_performance"])):
        result = page.get(factor, {})
        if "error" in result:
            misses.append(f"{factor} not measured")
            continue
        if result["performance"] < floor:
            misses.append(f"{factor} performance {result['performance']} < {floor}")
        if result["cls"] > targets.get("review_cls", 0.1):
            misses.append(f"{factor} layout shift {result['cls']}")
    return misses


if __name__ == "__main__":
    sys.exit(main())
