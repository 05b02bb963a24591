"""The import contracts (.importlinter, docs/architecture.md) hold, and they bite.

`make test` runs lint-imports on the tree; these tests also run it on a scratch copy of apps/
with one deliberately wrong import each, and expect the build to fail naming that import.
The engine is a top-level package of its own (engine/): no contract needs an ignored import.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=120
    )


def scratch_copy(tmp_path: Path) -> Path:
    for package in ("apps", "engine"):
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def add_import(tree: Path, module: str, line: str) -> None:
    path = tree / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")


def test_the_tree_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        # The foundation reaching up to a page app.
        ("apps.accounts.models", "from apps.teams import views", "foundation"),
        # The engine importing Django.
        ("engine.bill", "import django.db", "pure Python"),
        # A data-domain app reaching up to the review domain.
        ("apps.catalog.models", "from apps.reviews import services", "only downwards"),
        # Two top apps tied together (they are independent).
        ("apps.api.evaluate", "from apps.teams import selectors", "only downwards"),
    ],
)
def test_a_wrong_import_breaks_the_build(tmp_path, module, line, contract):
    tree = scratch_copy(tmp_path)
    add_import(tree, module, line)
    result = lint(tree)
    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, result.stdout
    assert module in broken, result.stdout


def test_no_contract_ignores_an_import():
    assert "ignore_imports" not in (ROOT / ".importlinter").read_text()


def test_the_engine_imports_and_evaluates_without_django():
    """The engine is importable and runs with no Django settings and no app on the path."""
    code = (
        "import sys, engine\n"
        "from tests.engine.engine_fixtures import make_input\n"
        "out = engine.evaluate(make_input())\n"
        "assert out['engine_version'] == engine.ENGINE_VERSION, out.get('engine_version')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'apps'))\n"
        "assert loaded == [], loaded\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_the_checklist_gate_is_stated_once():
    """SPEC C (two or more unanswered block, one warns) lives in engine/checklist.py as BLOCK_AT
    and WARN_AT; pages and selectors ask gate_severity / ready_to_sign and draw
    components/gate_badge.html. No other place compares an unanswered count with a number."""
    import re

    pattern = re.compile(r"unanswered\w*\s*(>=|<=|==|<|>)\s*\d")
    found = []
    for folder, suffix in (("apps", "*.py"), ("engine", "*.py"), ("templates", "*.html")):
        for path in (ROOT / folder).rglob(suffix):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


@pytest.mark.parametrize(
    ("unanswered", "gate", "text"),
    [(0, "ok", "complete"), (1, "warn", "1 unanswered"), (2, "block", "2 unanswered: not ready")],
)
def test_the_gate_badge_shows_what_the_engine_decides(unanswered, gate, text):
    from django.template.loader import render_to_string
    from django.utils import translation

    from engine.checklist import gate_severity

    assert gate_severity(unanswered) == gate
    with translation.override("en"):
        html = render_to_string(
            "components/gate_badge.html", {"gate": gate, "unanswered": unanswered}
        )
    assert f"badge--{gate}" in html and text in html
