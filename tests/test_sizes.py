"""No module under apps/ or engine/ over 400 lines, no function over 60 (docs/decisions.md, "Code
layout": split a module when it passes about 400 lines, by topic).

Data seeding is exempt from the function limit: a demo world or a benchmark fixture reads best as
one list of rows. Migrations are generated and exempt from both.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def seeding(path: Path) -> bool:
    """Demo data and benchmark seeding modules (apps/<app>/demo.py, demo_*.py, demo/, bench_seed)."""
    parts = path.relative_to(ROOT).parts
    return "demo" in parts or path.stem.startswith("demo") or path.stem == "bench_seed"


def sources() -> list[Path]:
    return [
        path
        for package in ("apps", "engine")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    ]


def long_functions(source: str) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, length))
    return found


def test_no_module_under_apps_passes_400_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in sources()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert too_long == {}


def test_no_function_under_apps_passes_60_lines_outside_data_seeding():
    too_long = {
        f"{path.relative_to(ROOT)}::{name}": length
        for path in sources()
        if not seeding(path)
        for name, length in long_functions(path.read_text())
    }
    assert too_long == {}


def test_the_size_check_bites():
    """The measure itself: a 61-line function is found, a 60-line one is not."""
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    assert long_functions(f"def f():\n{body}\n") == []
    assert long_functions(f"def f():\n{body}\n    y = 1\n") == [("f", 61)]
