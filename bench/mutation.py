"""Mutation score of the scoring engine: mutmut over ``engine/`` against its tests.

    bench/mutation                       # every engine module; prints the score, writes JSON
    bench/mutation --module bill         # one module (repeatable); merged into the JSON
    bench/mutation --report              # no run: re-read the last run's results
    bench/mutation --rerun               # the last run's live mutants again, with today's tests
    bench/mutation --rerun --module x    # only module x's live mutants of the last run
    MUTATION_WORKSPACE=m2 bench/mutation --module x   # in var/m2/: runs beside another one
    MUTATION_CHILDREN=2 bench/mutation   # two mutmut workers, on an otherwise idle machine

The engine is pure Python (no Django), so the run happens in a scratch copy under
``var/mutation/``: the engine package, its deterministic tests (``tests/engine/test_engine_*.py``
and ``engine_fixtures.py``), ``docs/engine.md`` (read by the docs test) and a ``pyproject.toml``
that configures pytest and mutmut for that copy only. The main tree is never touched, and
``make test`` neither needs nor runs mutmut (it is in ``requirements-bench.txt``).

mutmut 3 mutates function bodies only: the message tables (``messages_decision``,
``messages_eligibility``, ``messages_followup``: module-level dicts) have no mutant and are listed
with 0; their text is checked by tests that render it whole, in both languages.

The Hypothesis property tests are left out (``-m "not hypothesis"``): they take most of the
suite's time and draw different examples from one run to the next, so a mutant they kill one
day may survive the next. The score is what the worked examples and boundary tests catch.

mutmut runs one worker (``--max-children 1``) under ``nice -n 10``: the machine is shared.
``MUTATION_CHILDREN=2 bench/mutation`` uses two when nothing else runs: the whole engine (about
9,400 mutants) took 1.2 s of wall time per mutant at one worker while five agents shared the two
cores (1,245 in 32 minutes), so a whole run wants an otherwise idle machine.

The score is ``killed / (mutants - equivalent)``, where killed means detected: a test failed, or
the tests ran past mutmut's time limit (an endless loop). A mutant that survives, or that no test
reaches, counts against it unless ``bench/mutation_equivalent.json`` names
it as equivalent: a change of the code that no input can observe, with the reason. Entries are
keyed by module, function and the mutated line (before and after), not by mutmut's numbering,
which shifts whenever a function changes.

Writes ``bench/mutation.json``: the score, the counts, and every surviving mutant with its
file:line, the mutation and the reason when it is equivalent.
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path("engine")
# MUTATION_WORKSPACE=NAME runs in var/NAME/ instead (its own lock, see bench/mutation), so two
# people can measure different modules at once; the JSON merge below takes a lock of its own.
WORK = ROOT / "var" / os.environ.get("MUTATION_WORKSPACE", "mutation")
JSON_LOCK = ROOT / "var" / "mutation-json.lock"
OUTPUT = ROOT / "bench" / "mutation.json"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.json"
TESTS = sorted(p.name for p in (ROOT / "tests" / "engine").glob("test_engine_*.py"))
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"
TARGET = 0.90

# A mutant whose tests fail, hang past the time limit or crash the interpreter is detected.
DETECTED = {"killed", "timeout", "segfault", "caught by type check"}
NOT_RUN = "not checked"  # an interrupted run: left out of the figures, counted apart

PYPROJECT = """\
[tool.pytest.ini_options]
python_files = ["test_*.py"]
python_classes = ["*Tests", "Test*"]
testpaths = ["tests"]
addopts = "-p no:cacheprovider -p no:randomly"

[tool.mutmut]
source_paths = ["engine"]
also_copy = ["docs/"]
only_mutate = [{only}]
pytest_add_cli_args = ["-p", "_hypothesis_pytestplugin", "-q", "-m", "not hypothesis"]
pytest_add_cli_args_test_selection = ["tests/engine"]
use_git_change_detection = false
track_dependencies = false
"""


# ---------------------------------------------------------------------------------------------
# The scratch copy


def copy_tests(target: Path) -> None:
    (target / "tests" / "engine").mkdir(parents=True, exist_ok=True)
    for name in [*TESTS, "engine_fixtures.py"]:
        shutil.copy2(ROOT / "tests" / "engine" / name, target / "tests" / "engine" / name)


def build_workspace(modules: list[str]) -> None:
    if WORK.exists():
        shutil.rmtree(WORK)
    (WORK / ENGINE).mkdir(parents=True)
    for source in (ROOT / ENGINE).glob("*.py"):
        shutil.copy2(source, WORK / ENGINE / source.name)
    copy_tests(WORK)
    (WORK / "tests" / "__init__.py").write_text("")
    (WORK / "tests" / "engine" / "__init__.py").write_text("")
    (WORK / "docs").mkdir()
    shutil.copy2(ROOT / "docs" / "engine.md", WORK / "docs" / "engine.md")
    only = ", ".join(f'"{ENGINE / (m + ".py")}"' for m in modules) if modules else f'"{ENGINE}/*"'
    (WORK / "pyproject.toml").write_text(PYPROJECT.format(only=only))


def run_mutmut(names: list[str] | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Each mutant's tests run in a fork that calls pytest.main again: loading every installed
    # plugin (Django's, Playwright's, ...) each time costs more than the engine's tests do.
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    children = os.environ.get("MUTATION_CHILDREN", "1")
    if not children.isdigit() or int(children) < 1:
        sys.exit(f"MUTATION_CHILDREN must be a whole number ≥ 1, got {children!r}")
    command = ["nice", "-n", "10", str(MUTMUT), "run", "--max-children", children, *(names or [])]
    log = WORK / "mutmut.log"
    print(f"mutmut running, {children} worker(s) at nice 10; its output goes to "
          f"{log.relative_to(ROOT)}", flush=True)
    with log.open("w") as out:
        return subprocess.run(command, cwd=WORK, env=env, stdout=out, stderr=subprocess.STDOUT,
                              ).returncode


# ---------------------------------------------------------------------------------------------
# Reading mutmut's results


def mutant_results() -> dict[str, tuple[str, str]]:
    """{mutant name: (status, module file)} from the .meta files mutmut leaves beside each copy."""
    from mutmut.stats import status_by_exit_code

    results: dict[str, tuple[str, str]] = {}
    for meta in (WORK / "mutants" / ENGINE).glob("*.py.meta"):
        data = json.loads(meta.read_text())
        module_file = str(ENGINE / meta.name.removesuffix(".meta"))
        for name, code in data.get("exit_code_by_key", {}).items():
            results[name] = (status_by_exit_code[code], module_file)
    return results


def mutant_diff(name: str, module_file: str) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    cwd = Path.cwd()
    os.chdir(WORK)
    try:
        return get_diff_for_mutant(name, path=module_file)
    finally:
        os.chdir(cwd)


def function_of(name: str) -> str:
    """``engine.bill.x_leg__mutmut_3`` -> ``leg``; methods -> ``Class.method``."""
    tail = name.rsplit(".", 1)[-1]
    tail = re.sub(r"__mutmut_\d+$", "", tail)
    if tail.startswith("xǁ"):
        return ".".join(tail.removeprefix("xǁ").split("ǁ"))
    return tail.removeprefix("x_")


def function_lines(path: Path) -> dict[str, tuple[int, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans: dict[str, tuple[int, int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    spans[f"{node.name}.{item.name}"] = (_first_line(item), item.end_lineno or 0)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spans[node.name] = (_first_line(node), node.end_lineno or 0)
    return spans


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def describe(name: str, module_file: str, spans: dict[str, dict[str, tuple[int, int]]]) -> dict:
    """The mutant's file:line (its function's first line in the source plus the offset of the
    first changed line in mutmut's diff of that function) and the lines before and after."""
    diff = mutant_diff(name, module_file).splitlines()
    function = function_of(name)
    start = spans[module_file].get(function, (1, 0))[0]
    before, after, line, offset = [], [], start, None
    for text in diff:
        if text.startswith("@@"):
            offset = int(re.match(r"@@ -(\d+)", text).group(1)) - 1
        elif text.startswith("---") or text.startswith("+++") or offset is None:
            continue
        elif text.startswith("-"):
            if not before and not after:
                line = start + offset
            before.append(text[1:].strip())
        elif text.startswith("+"):
            if not before and not after:
                line = start + offset
            after.append(text[1:].strip())
        if offset is not None and not text.startswith(("@@", "+")):
            offset += 1
    return {
        "mutant": name,
        "file": module_file,
        "line": line,
        "function": function,
        "before": "\n".join(before),
        "after": "\n".join(after),
    }


def equivalence_key(entry: dict) -> str:
    module = Path(entry["file"]).stem
    return f"{module}.{entry['function']} | {entry['before']} -> {entry['after']}"


def load_equivalent() -> dict[str, str]:
    if not EQUIVALENT.exists():
        return {}
    data = json.loads(EQUIVALENT.read_text(encoding="utf-8"))
    return {item["key"]: item["reason"] for item in data["equivalent"]}


# ---------------------------------------------------------------------------------------------
# Report


def report(modules: list[str], seconds: float | None) -> dict[str, Any]:
    results = mutant_results()
    spans = {str(ENGINE / p.name): function_lines(p) for p in (ROOT / ENGINE).glob("*.py")}
    equivalent = load_equivalent()
    surviving = []
    counts: dict[str, int] = {}
    for name, (status, module_file) in sorted(results.items()):
        counts[status] = counts.get(status, 0) + 1
        if status in DETECTED or status == NOT_RUN:
            continue
        entry = describe(name, module_file, spans)
        entry["status"] = status
        entry["equivalent"] = equivalent.get(equivalence_key(entry))
        surviving.append(entry)
    surviving.sort(key=lambda e: (e["file"], e["line"], e["mutant"]))
    merged = merge(modules, results, surviving, counts)
    merged["seconds"] = seconds
    return merged


def merge(modules: list[str], results: dict, surviving: list[dict], counts: dict) -> dict:
    """A run of some modules replaces those modules' figures in the previous JSON."""
    by_module: dict[str, dict[str, Any]] = {}
    if modules and OUTPUT.exists():
        by_module = json.loads(OUTPUT.read_text(encoding="utf-8")).get("modules", {})
        # The kept modules' live mutants are judged against today's list of equivalents too.
        equivalent = load_equivalent()
        for figures in by_module.values():
            for entry in figures["surviving"]:
                entry["equivalent"] = equivalent.get(equivalence_key(entry))
    fresh: dict[str, dict[str, Any]] = {}
    for _name, (status, module_file) in results.items():
        figures = fresh.setdefault(
            module_file, {"mutants": 0, "killed": 0, "not_run": 0, "surviving": []}
        )
        figures["not_run"] += status == NOT_RUN
        figures["mutants"] += status != NOT_RUN
        figures["killed"] += status in DETECTED
    for entry in surviving:
        fresh[entry["file"]]["surviving"].append(entry)
    # A module of the run without a function (a table of messages) has no mutant: measured, 0.
    for module in modules or [p.stem for p in (ROOT / ENGINE).glob("*.py") if p.stem != "__init__"]:
        fresh.setdefault(
            str(ENGINE / f"{module}.py"), {"mutants": 0, "killed": 0, "not_run": 0, "surviving": []}
        )
    by_module.update(fresh)
    total = sum(m["mutants"] for m in by_module.values())
    killed = sum(m["killed"] for m in by_module.values())
    all_surviving = [e for m in by_module.values() for e in m["surviving"]]
    equivalent = sum(1 for e in all_surviving if e["equivalent"])
    live = [e for e in all_surviving if not e["equivalent"]]
    scored = total - equivalent
    return {
        "tool": "mutmut " + mutmut_version(),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "engine": str(ENGINE),
        "tests": [f"tests/engine/{t}" for t in TESTS] + ["(Hypothesis tests excluded)"],
        "mutants": total,
        "killed": killed,
        "equivalent": equivalent,
        "not_killed": len(live),
        "not_run": sum(m.get("not_run", 0) for m in by_module.values()),
        "score": round(killed / scored, 4) if scored else None,
        "raw_score": round(killed / total, 4) if total else None,
        "target": TARGET,
        "statuses_of_last_run": counts,
        # Engine modules no run has measured yet: the score above says nothing about them.
        "modules_not_measured": sorted(
            str(ENGINE / p.name) for p in (ROOT / ENGINE).glob("*.py")
            if p.name != "__init__.py" and str(ENGINE / p.name) not in by_module
        ),
        "modules": {k: by_module[k] for k in sorted(by_module)},
    }


def mutmut_version() -> str:
    from importlib.metadata import version

    try:
        return version("mutmut")
    except Exception:  # noqa: BLE001 - only a label
        return "?"


def print_summary(data: dict[str, Any]) -> None:
    print()
    print(f"{'module':<34}{'mutants':>8}{'killed':>8}{'equiv.':>8}{'live':>6}{'score':>8}")
    for module_file, figures in data["modules"].items():
        equivalent = sum(1 for e in figures["surviving"] if e["equivalent"])
        live = len(figures["surviving"]) - equivalent
        scored = figures["mutants"] - equivalent
        score = f"{figures['killed'] / scored:.1%}" if scored else "-"
        print(f"{Path(module_file).name:<34}{figures['mutants']:>8}{figures['killed']:>8}"
              f"{equivalent:>8}{live:>6}{score:>8}")
    print()
    score = data["score"]
    print(f"mutants {data['mutants']}, killed {data['killed']}, equivalent {data['equivalent']}, "
          f"not killed {data['not_killed']}")
    if data["modules_not_measured"]:
        names = ", ".join(Path(m).stem for m in data["modules_not_measured"])
        print(f"not measured yet (the score covers only the modules above): {names}")
    if data["not_run"]:
        print(f"{data['not_run']} mutants not run (an interrupted run): left out of these figures")
    if score is not None:
        print(f"score {score:.1%} of non-equivalent mutants killed (target {TARGET:.0%}); "
              f"raw {data['raw_score']:.1%}")
    live = [e for m in data["modules"].values() for e in m["surviving"] if not e["equivalent"]]
    if live:
        print("\nnot killed:")
        for e in live:
            print(f"  {e['file']}:{e['line']} [{e['status']}] {e['before']!r} -> {e['after']!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", default=[],
                        help="engine module to mutate (name without .py); repeatable")
    parser.add_argument("--report", action="store_true",
                        help="no run: re-read the results of the last run in var/mutation/")
    parser.add_argument("--rerun", action="store_true",
                        help="run the last run's live mutants again against the current tests")
    args = parser.parse_args()
    for module in args.module:
        if not (ROOT / ENGINE / f"{module}.py").exists():
            parser.error(f"no engine module {module!r}")
    seconds = None
    if args.rerun:
        # The tests as they are now, in the copy and in mutmut's own copy of it; the engine
        # stays as mutated, so this only makes sense while its source is unchanged.
        copy_tests(WORK)
        copy_tests(WORK / "mutants")
        # Mutants named equivalent cannot be killed: only the others are run again.
        spans = {str(ENGINE / p.name): function_lines(p) for p in (ROOT / ENGINE).glob("*.py")}
        equivalent = load_equivalent()
        only = set(args.module)  # --rerun --module NAME: that module's live mutants only
        live = [n for n, (status, f) in mutant_results().items()
                if status not in DETECTED and status != NOT_RUN
                and (not only or Path(f).stem in only)
                and equivalence_key(describe(n, f, spans)) not in equivalent]
        started = datetime.now(UTC)
        if live:  # mutmut given no names would run every mutant
            run_mutmut(live)
        seconds = round((datetime.now(UTC) - started).total_seconds(), 1)
        args.module = sorted({Path(f).stem for _, f in mutant_results().values()})
    elif args.report:
        # The modules of the last run in this scratch copy: merged into the JSON, the others kept.
        args.module = args.module or sorted({Path(f).stem for _, f in mutant_results().values()})
    else:
        build_workspace(args.module)
        started = datetime.now(UTC)
        code = run_mutmut()
        seconds = round((datetime.now(UTC) - started).total_seconds(), 1)
        if code not in (0,):
            print(f"mutmut exited {code}", file=sys.stderr)
    JSON_LOCK.parent.mkdir(exist_ok=True)
    with JSON_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # read, merge and write the JSON as one step
        data = report(args.module, seconds)
        OUTPUT.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print_summary(data)
    print(f"\nwritten to {OUTPUT.relative_to(ROOT) if OUTPUT.is_relative_to(ROOT) else OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
