"""Differential fuzzing of the mutants named equivalent (bench/mutation_equivalent.json, issue 36).

    .venv/bin/python bench/mutation_fuzz.py                 # every entry; prints, writes JSON
    .venv/bin/python bench/mutation_fuzz.py --module reader # one module's entries (repeatable)
    .venv/bin/python bench/mutation_fuzz.py --examples 300  # inputs per source (default 400)

An entry is kept only when no input tells the mutant from the original. Each entry's key names
the function and the line (`module.function | line before -> line after`); the mutant is made by
substituting that line (every line of the function that reads the same, one at a time) in a
scratch copy of engine/. The original and each mutant evaluate the same inputs, each in its own
process; the outputs (or the refusal: EngineInputError's errors, another exception's type) are
compared by digest. A mutant that answers differently on any input, or runs past the time limit,
is told apart; the first such input is written to the JSON so a test can be made of it.

The inputs, drawn once with a fixed seed:
- the valid inputs of the engine's property tests (tests/engine/engine_fixtures.engine_inputs);
- the same and the fixtures' worked inputs (make_input, three_way_input, staged_input,
  big_training, big_sharded_training) with one to three edits at random places: a key dropped,
  a value set to None, to another type, to an extreme number (0, 1e-320, 1e308, NaN, infinity),
  a string changed in case, padded, wrapped (`XX…XX`, as mutmut wraps its strings) or given as
  a str subclass, an unknown key added, an integer key in place of a string key.

Every module's entries are fuzzed. A full run writes bench/mutation_fuzz.json; the main tree is
never touched.
"""

from __future__ import annotations

import argparse
import ast
import copy
import enum
import hashlib
import json
import math
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.json"
OUT = ROOT / "bench" / "mutation_fuzz.json"
SKIPPED_MODULES: dict[str, str] = {}  # module -> why its entries are not fuzzed (none today)
TIME_LIMIT = 300  # seconds for one process over all inputs (the original takes a few)


class StrLike(str):
    """A str subclass, as a Python caller (an enum's member, a lazy string) may pass one."""


class Answer(enum.StrEnum):
    ANSWERED = "answered"


# ---------------------------------------------------------------- the inputs


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _at(data, path):
    for step in path:
        data = data[step]
    return data


def _edit(data, path, how, extra):
    """`data` with one edit at `path` (a new object; `data` is left alone)."""
    data = copy.deepcopy(data)
    if not path:
        if how == "unknown_key" and isinstance(data, dict):
            data["zz_unknown"] = extra
        return data
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    value = parent[last]
    if how == "drop":
        del parent[last]
    elif how == "none":
        parent[last] = None
    elif how == "replace":
        parent[last] = extra
    elif how == "unknown_key" and isinstance(value, dict):
        value["zz_unknown"] = extra
    elif how == "int_key" and isinstance(parent, dict) and isinstance(last, str):
        parent[int(last[1:]) if last[1:].isdigit() else 7] = parent.pop(last)
    elif how == "string" and isinstance(value, str):
        parent[last] = {
            "upper": value.upper(),
            "title": value.title(),
            "pad": value + " ",
            "xx": f"XX{value}XX",
            "subclass": StrLike(value),
            "enum": Answer.ANSWERED if value == "answered" else StrLike(value),
        }[extra]
    elif how == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[last] = {
            "neg": -value,
            "float": float(value),
            "int": int(value) if math.isfinite(value) else 0,
            "bool": bool(value),
            "str": str(value),
        }[extra]
    return data


def _inputs(examples: int) -> list:
    sys.path.insert(0, str(ROOT))
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.engine import engine_fixtures as fx

    seeds = [
        fx.make_input(),
        fx.make_input(checklists=fx.answered("local")),
        fx.three_way_input(),
        fx.staged_input(),
        fx.big_training(),
        fx.big_sharded_training(),
    ]
    extremes = [0, 0.0, -1, 1e-320, 1e308, float("nan"), float("inf"), True, "", "x", [], {}]
    strings = ["upper", "title", "pad", "xx", "subclass", "enum"]
    numbers = ["neg", "float", "int", "bool", "str"]

    def fits(how, data, path):
        value = _at(data, path)
        if how == "string":
            return isinstance(value, str)
        if how == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if how == "unknown_key":
            return isinstance(value, dict)
        if how == "int_key":
            return bool(path) and isinstance(path[-1], str)
        return bool(path)  # drop, none, replace: anything but the whole input

    @st.composite
    def edited(draw, base):
        data = draw(base)
        for _ in range(draw(st.integers(1, 3))):
            how = draw(
                st.sampled_from(
                    [
                        "drop",
                        "none",
                        "replace",
                        "unknown_key",
                        "int_key",
                        "string",
                        "string",
                        "number",
                    ]
                )
            )
            paths = [p for p in _paths(data) if fits(how, data, p)]
            if not paths:
                continue
            path = draw(st.sampled_from(paths))
            extra = draw(st.sampled_from({"string": strings, "number": numbers}.get(how, extremes)))
            data = _edit(data, path, how, extra)
        return data

    sources = {
        "valid": fx.engine_inputs(),
        "valid_edited": edited(fx.engine_inputs()),
        "fixtures_edited": edited(st.sampled_from(seeds)),
    }
    drawn: list = [copy.deepcopy(s) for s in seeds]
    for strategy in sources.values():

        @settings(
            max_examples=examples,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(strategy)
        def collect(data):
            drawn.append(copy.deepcopy(data))

        collect()
    return drawn


# ---------------------------------------------------------------- one process: one engine


def _digest(data) -> str:
    from engine import EngineInputError, evaluate

    try:
        out = ("ok", evaluate(data))
    except EngineInputError as exc:
        out = ("refused", exc.errors)
    except RecursionError:
        out = ("error", "RecursionError")
    except Exception as exc:  # noqa: BLE001 - a crash is an answer too
        out = ("error", type(exc).__name__)
    text = json.dumps(out, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def worker(engine_parent: str, inputs_file: str) -> None:
    sys.path.insert(0, engine_parent)
    with open(inputs_file, "rb") as f:
        inputs = pickle.load(f)  # noqa: S301 - written by this script, a moment ago
    print(json.dumps([_digest(copy.deepcopy(data)) for data in inputs]))


def run_engine(engine_parent: Path, inputs_file: Path) -> list[str] | str:
    """Each input's digest under the engine in `engine_parent`, or "timeout"/"crash"."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", str(engine_parent), str(inputs_file)],
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT,
            cwd=engine_parent,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode != 0:
        return "crash: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(done.stdout)


# ---------------------------------------------------------------- the mutants


def _functions(tree: ast.AST):
    """(qualified name, first line, last line) of every function, methods as Class.method."""

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                yield name, child.lineno, child.end_lineno
                yield from walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")

    yield from walk(tree, "")


def surviving_lines() -> dict[str, int]:
    """The line of each equivalent mutant in the last mutmut run (bench/mutation.json), by key:
    where a function holds the same line twice, the key alone does not say which one survived."""
    path = ROOT / "bench" / "mutation.json"
    if not path.exists():
        return {}
    lines = {}
    for module, found in json.loads(path.read_text())["modules"].items():
        name = Path(module).stem
        for m in found.get("surviving", []):
            lines[f"{name}.{m['function']} | {m['before']} -> {m['after']}"] = m["line"]
    return lines


KEY = re.compile(
    r"^(?P<module>[a-z_0-9]+)\.(?P<func>[\w.]+) \| (?P<before>.*) -> (?P<after>.*)$", re.S
)


def mutant_sources(
    key: str, engine_dir: Path, known_line: int | None = None
) -> tuple[str, list[tuple[Path, str]]] | None:
    """The module file and each mutated text of it (one per place in the function that reads
    `before`, which may span lines); None when the key no longer matches the code."""
    m = KEY.match(key)
    if m is None:
        return None
    path = engine_dir / f"{m['module']}.py"
    if not path.exists():
        return None
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    functions = list(_functions(ast.parse(text)))
    spans = [(a, b) for name, a, b in functions if name == m["func"]]
    if not spans:
        tail = m["func"].rsplit(".", 1)[-1]
        spans = [(a, b) for name, a, b in functions if name.rsplit(".", 1)[-1] == tail]
    before = [line.strip() for line in m["before"].split("\n")]
    after = m["after"].split("\n")
    places = [
        i
        for first, last in spans
        for i in range(first - 1, last - len(before) + 1)
        if [line.strip() for line in lines[i : i + len(before)]] == before
    ]
    if len(places) > 1 and known_line is not None and known_line - 1 in places:
        places = [known_line - 1]  # the one mutmut's run left alive
    variants = []
    for i in places:
        new = []
        for j, line in enumerate(after):  # each line at the indent of the one it replaces
            old = lines[min(i + j, i + len(before) - 1)]
            new.append(f"{old[: len(old) - len(old.lstrip())]}{line.strip()}\n")
        mutated = "".join([*lines[:i], *new, *lines[i + len(before) :]])
        try:
            compile(mutated, str(path), "exec")
        except SyntaxError:
            continue  # not the place mutmut changed (its mutant compiles)
        variants.append((path, mutated))
    return m["module"], variants


def differs(scratch, pristine, path, text, inputs, inputs_file, expected) -> dict:
    """How the mutant (the module `path` holding `text`) is told apart; {} when it is not."""
    mutant = scratch / "mutant"
    shutil.rmtree(mutant, ignore_errors=True)
    shutil.copytree(pristine / "engine", mutant / "engine")
    (mutant / "engine" / path.name).write_text(text)
    got = run_engine(mutant, inputs_file)
    if isinstance(got, str):
        return {"how": got}
    differ = [i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    if not differ:
        return {}
    return {
        "how": f"{len(differ)} of {len(inputs)} inputs answered differently",
        "first_input": json.loads(json.dumps(inputs[differ[0]], default=repr)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="only this module's entries")
    parser.add_argument("--key", action="append", help="fuzz this key (not from the file)")
    parser.add_argument("--examples", type=int, default=400, help="inputs drawn per source")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return 0
    entries = json.loads(EQUIVALENT.read_text())["equivalent"]
    if args.key:
        entries = [{"key": key} for key in args.key]
    if args.module:
        entries = [e for e in entries if e["key"].split(".", 1)[0] in args.module]
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="mutation-fuzz-"))
    results = []
    known = surviving_lines()
    try:
        pristine = scratch / "original"
        shutil.copytree(ROOT / "engine", pristine / "engine")
        inputs = _inputs(args.examples)
        inputs_file = scratch / "inputs.pickle"
        inputs_file.write_bytes(pickle.dumps(inputs))
        expected = run_engine(pristine, inputs_file)
        if isinstance(expected, str):
            print(f"the original engine fails on the inputs: {expected}", file=sys.stderr)
            return 1
        print(f"{len(inputs)} inputs, {len(set(expected))} distinct answers")
        for entry in entries:
            key = entry["key"]
            module = key.split(".", 1)[0]
            if module in SKIPPED_MODULES:
                results.append({"key": key, "verdict": "skipped", "why": SKIPPED_MODULES[module]})
                continue
            found = mutant_sources(key, pristine / "engine", known.get(key))
            if not found or not found[1]:
                results.append({"key": key, "verdict": "line not found"})
                print(f"LINE NOT FOUND  {key}")
                continue
            # Several places read the same line and the last run did not say which survived:
            # the entry holds while any of them shows no difference (the others are the ones
            # the tests kill).
            outcomes = [
                differs(scratch, pristine, path, text, inputs, inputs_file, expected)
                for path, text in found[1]
            ]
            verdict = {"key": key, "places": len(outcomes)}
            if all(outcomes):
                verdict.update(verdict="told apart", **outcomes[0])
            else:
                verdict["verdict"] = "no difference found"
                if any(outcomes):
                    verdict["note"] = "another place with the same line is told apart"
            results.append(verdict)
            mark = "TOLD APART" if verdict["verdict"] == "told apart" else "same"
            print(f"{mark:10}  {key}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    told = [r for r in results if r["verdict"] == "told apart"]
    summary = {
        "entries": len(results),
        "fuzzed": sum(r["verdict"] in ("told apart", "no difference found") for r in results),
        "told_apart": len(told),
        "skipped": sum(r["verdict"] == "skipped" for r in results),
        "line_not_found": sum(r["verdict"] == "line not found" for r in results),
        "inputs": len(inputs),
        "examples_per_source": args.examples,
        "draws": "Hypothesis, derandomized: the same inputs on every run",
        "minutes": round((time.monotonic() - started) / 60, 1),
    }
    print(json.dumps(summary))
    if not args.module and not args.key:
        OUT.write_text(json.dumps({"summary": summary, "entries": results}, indent=1) + "\n")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
