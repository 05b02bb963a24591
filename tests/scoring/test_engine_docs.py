"""docs/engine.md stays true: its worked example is exactly what the engine outputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from apps.scoring.engine import ENGINE_VERSION, MESSAGES, evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def fenced_json_after(marker: str) -> object:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(re.escape(marker) + r"\s*```json\n(.*?)\n```", text, re.S)
    assert match, f"no ```json block after {marker} in {DOC}"
    return json.loads(match.group(1))


def test_worked_example_output_is_what_the_engine_says():
    example_input = fenced_json_after("<!-- example-input -->")
    example_output = fenced_json_after("<!-- example-output -->")
    assert evaluate(example_input) == example_output


def test_worked_example_figures_quoted_in_the_text():
    out = fenced_json_after("<!-- example-output -->")
    assert out["engine_version"] == ENGINE_VERSION
    assert out["chosen"] == {"kind": "move_data", "site": "wh-1", "offer": "wh-managed"}
    managed = next(o for o in out["options"] if o["offer"] == "wh-managed")
    assert managed["transfer_gb"] == 2063.0
    assert managed["transfer_hours"] == 0.307089
    assert managed["total_cost"] == 300.06
    assert managed["objective"] == 365.595444


def test_rule_table_names_every_message_key():
    text = DOC.read_text(encoding="utf-8")
    for key in MESSAGES:
        if not key.startswith("S."):
            assert f"`{key}`" in text, key
