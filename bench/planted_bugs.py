"""Planted bugs: does the suite catch the web layer's realistic mistakes? (issue 36)

    .venv/bin/python bench/planted_bugs.py              # every bug; prints, writes JSON
    .venv/bin/python bench/planted_bugs.py --bug ID     # one bug (repeatable), merged in
    .venv/bin/python bench/planted_bugs.py --list       # the bugs and their tests, no run

Each bug is a text substitution in one source file (the first occurrence of `old` after the
`after` anchor, each found exactly where expected: a bug that no longer applies to today's code
is reported as such, never silently passed). The run copies the working tree (tracked and new
files, not the ignored ones) to a scratch directory, runs the named tests there once unchanged
(they must all pass), then plants each bug alone, runs the same tests and restores the file. A
bug is caught when at least one test fails; the JSON names the tests that failed.

Writes bench/planted_bugs.json. The main tree is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "planted_bugs.json"

LISTS = "tests/web/test_switched_team_lists.py"
API = "tests/api/test_two_teams.py"
ACTUALS = "tests/actuals/test_two_teams.py"
BENCHMARKS = "tests/benchmarks/test_two_teams.py"
FRAGMENTS = "tests/web/test_fragments.py"


@dataclass(frozen=True)
class Bug:
    id: str
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    after: str = ""  # an anchor the substitution follows (the function it is in)
    from_issue: bool = False  # one of the three the issue names


BUGS = [
    Bug(
        "review-list-cached-under-all-teams",
        "The review list cached under all of the viewer's teams instead of the current one.",
        "apps/reviews/views/lists.py",
        "team_ids=[team.pk],",
        "team_ids=[m.team_id for m in request.memberships],",
        (LISTS, FRAGMENTS),
        after="def review_list(",
        from_issue=True,
    ),
    Bug(
        "profile-list-cached-under-all-teams",
        "The task profile list cached under all of the viewer's teams instead of the current one.",
        "apps/profiles/views.py",
        "team_ids=[team.pk],",
        "team_ids=[m.team_id for m in request.memberships],",
        (LISTS, FRAGMENTS),
    ),
    Bug(
        "history-cached-under-current-team",
        "The history (all of one's teams) cached under the current team only.",
        "apps/scoring/views.py",
        "team_ids=[m.team_id for m in request.memberships],",
        "team_ids=[request.team.pk],",
        (LISTS,),
        after="def history(",
    ),
    Bug(
        "actuals-csv-into-first-team",
        "Actual costs imported by CSV into the person's first team instead of the current one.",
        "apps/actuals/views.py",
        "team = require_current_team(request)",
        "team = request.memberships[0].team",
        (ACTUALS,),
        after="def actual_import(",
        from_issue=True,
    ),
    Bug(
        "bill-into-first-team",
        "A provider bill imported into the person's first team instead of the current one.",
        "apps/actuals/views.py",
        "team = require_current_team(request)",
        "team = request.memberships[0].team",
        (ACTUALS,),
        after="def bill_import(",
    ),
    Bug(
        "benchmarks-csv-into-first-team",
        "Benchmark records imported by CSV into the person's first team instead of the current "
        "one.",
        "apps/benchmarks/views.py",
        "team = require_current_team(request)",
        "team = request.memberships[0].team",
        (BENCHMARKS,),
        after="def benchmark_import(",
    ),
    Bug(
        "aws-cur-other-currency-accepted",
        "A bill in another currency accepted in the AWS cost-report format (checked on the "
        "generic format only).",
        "apps/actuals/bills.py",
        "if currency != team.currency.upper():",
        'if fmt != "cur" and currency != team.currency.upper():',
        (ACTUALS,),
        after="def _read_line(",
        from_issue=True,
    ),
    Bug(
        "api-write-into-first-team",
        "A signed-in API write that names no team saved into the person's first team instead of "
        "the current one.",
        "apps/web/api_auth.py",
        "wanted = team_id if team_id is not None else self.current_team_id",
        "wanted = team_id",
        (API,),
    ),
    Bug(
        "token-lists-its-makers-teams",
        "A team token's API lists scoped to all the teams of the person who made it.",
        "apps/web/api_auth.py",
        "return Principal(token=api_token, team_ids=[api_token.team_id])",
        "return Principal(token=api_token, team_ids=list(team_ids_for(api_token.created_by)))",
        (API,),
    ),
    Bug(
        "snapshot-exports-unscoped",
        "A snapshot (its page, CSV, Excel and SkyPilot exports) read by id without the viewer's "
        "teams.",
        "apps/scoring/selectors.py",
        "return get_scoped_or_404(\n"
        '        EvaluationSnapshot.objects.select_related("review", "task", "team"), user, pk=pk\n'
        "    )",
        'return EvaluationSnapshot.objects.select_related("review", "task", "team").get(pk=pk)',
        (API,),
        after="def snapshot_for_user(",
    ),
    Bug(
        "offer-list-of-first-team",
        "The offer and site lists of the person's first team instead of the current one.",
        "apps/catalog/views.py",
        "team = require_current_team(request)",
        "team = request.memberships[0].team",
        (LISTS,),
        after="def _list(",
    ),
    Bug(
        "quarterly-of-first-team",
        "The quarterly cost review of the person's first team instead of the current one.",
        "apps/scoring/views.py",
        "team = require_current_team(request)",
        "team = request.memberships[0].team",
        (LISTS,),
        after="def quarterly(",
    ),
    Bug(
        "inbox-of-everyone-in-ones-teams",
        "The notification inbox holding every notification of one's teams, not one's own.",
        "apps/notifications/selectors.py",
        "Notification.objects.filter(recipient=user, team_id__in=_team_ids(user))",
        "Notification.objects.filter(team_id__in=_team_ids(user))",
        (LISTS,),
        after="def inbox(",
    ),
    Bug(
        "approvals-cached-without-the-viewer",
        "The approval queue (each reviewer's own) cached under the teams only, not the viewer.",
        "apps/reviews/views/lists.py",
        "parts=(sorted(request.GET.lists()), request.user.pk, minute.isoformat()),",
        "parts=(sorted(request.GET.lists()), minute.isoformat()),",
        ("tests/reviews/test_approvals_cache.py",),
        after="def approvals(",
    ),
    Bug(
        "dashboard-snapshots-of-all-teams",
        "The dashboard's latest snapshots of the team drawn from all of one's teams.",
        "apps/teams/dashboard.py",
        "Snapshot.objects.filter(team=team)",
        "Snapshot.objects.all()",
        (LISTS,),
        after="def latest_team_snapshots(",
    ),
]


def planted(text: str, bug: Bug) -> str | None:
    """The source with the bug planted, or None when it no longer applies."""
    start = 0
    if bug.after:
        if text.count(bug.after) != 1:
            return None
        start = text.index(bug.after)
    at = text.find(bug.old, start)
    if at < 0:
        return None
    return text[:at] + bug.new + text[at + len(bug.old) :]


def scratch_copy() -> Path:
    files = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    dest = Path(tempfile.mkdtemp(prefix="planted-bugs-"))
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    (dest / ".venv").symlink_to((ROOT / ".venv").resolve())
    return dest


def run_tests(copy: Path, tests: tuple[str, ...]) -> dict:
    report = copy / "planted-report.xml"
    env = {**os.environ, "DJANGO_ENV": "test", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("CI", None)
    started = time.monotonic()
    done = subprocess.run(
        [
            str(copy / ".venv/bin/python"),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            *tests,
        ],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    failed, total = [], 0
    if report.exists():
        for case in ET.parse(report).getroot().iter("testcase"):
            total += 1
            if case.find("failure") is not None or case.find("error") is not None:
                failed.append(f"{case.get('classname')}::{case.get('name')}")
        report.unlink()
    return {
        "exit_code": done.returncode,
        "tests_run": total,
        "failed": failed,
        "seconds": round(time.monotonic() - started, 1),
        "tail": done.stdout.strip().splitlines()[-1:] if done.returncode not in (0, 1) else [],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", help="only this bug (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the bugs, run nothing")
    args = parser.parse_args(argv)
    bugs = [b for b in BUGS if not args.bug or b.id in args.bug]
    if args.bug and len(bugs) != len(set(args.bug)):
        print(f"unknown bug; known: {', '.join(b.id for b in BUGS)}", file=sys.stderr)
        return 2
    if args.list:
        for bug in bugs:
            print(f"{bug.id}: {bug.what}\n    {bug.path}; tests: {' '.join(bug.tests)}")
        return 0
    copy = scratch_copy()
    try:
        all_tests = tuple(sorted({t for b in bugs for t in b.tests}))
        baseline = run_tests(copy, all_tests)
        print(f"unchanged: {baseline['tests_run']} tests, {len(baseline['failed'])} failed")
        if baseline["exit_code"] != 0:
            print("the tests fail without any bug planted: nothing to measure", file=sys.stderr)
            print("\n".join(baseline["failed"] + baseline["tail"]), file=sys.stderr)
            return 1
        results = []
        for bug in bugs:
            path = copy / bug.path
            original = path.read_text()
            text = planted(original, bug)
            if text is None:
                results.append({"id": bug.id, "what": bug.what, "applied": False})
                print(f"{bug.id}: NO LONGER APPLIES to {bug.path}")
                continue
            path.write_text(text)
            try:
                outcome = run_tests(copy, bug.tests)
            finally:
                path.write_text(original)
            caught = outcome["exit_code"] != 0
            results.append(
                {
                    "id": bug.id,
                    "what": bug.what,
                    "from_issue": bug.from_issue,
                    "file": bug.path,
                    "applied": True,
                    "tests": list(bug.tests),
                    "caught": caught,
                    "caught_by": outcome["failed"],
                    "tests_run": outcome["tests_run"],
                }
            )
            word = f"caught by {len(outcome['failed'])}" if caught else "MISSED"
            print(f"{bug.id}: {word} of {outcome['tests_run']} tests")
            for name in outcome["failed"]:
                print(f"    {name}")
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    if args.bug and OUT.exists():  # merged into the last full run's record
        kept = {r["id"]: r for r in json.loads(OUT.read_text())["bugs"]}
        kept.update({r["id"]: r for r in results})
        results = [kept[b.id] for b in BUGS if b.id in kept]
    applied = [r for r in results if r["applied"]]
    summary = {
        "bugs": len(results),
        "applied": len(applied),
        "caught": sum(r["caught"] for r in applied),
    }
    print(f"caught {summary['caught']} of {summary['applied']} planted bugs")
    OUT.write_text(json.dumps({"summary": summary, "bugs": results}, indent=2) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0 if summary["caught"] == summary["applied"] == summary["bugs"] else 1


if __name__ == "__main__":
    sys.exit(main())
