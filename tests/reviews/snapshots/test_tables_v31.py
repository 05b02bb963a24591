"""Engine 3.1's figures in the comparison table and the cost chart (SPEC 7.5, 7.11): the
scheduler upkeep is its own bill line and chart bar, a streamed input is marked; worked from the
engine test world of test_engine_v31_scheduler_ops (40 h a month × 100 ÷ 2 runs = 2,000)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

import engine
from apps.reviews.snapshots import charts
from apps.reviews.snapshots.tables import COLUMN_KEYS, comparison_rows
from tests.engine.test_engine_v31_scheduler_ops import ops_input
from tests.engine.test_engine_v31_streaming import plain_input


def test_the_upkeep_is_a_column_and_a_bar_that_add_up_to_the_total():
    data = ops_input()
    rows = comparison_rows(data, engine.evaluate(data))
    assert COLUMN_KEYS[-2:] == ["input_overlapped", "scheduler_ops_cost"]
    own = next(r for r in rows if r["offer"] == "S")
    # 8 GPUs × 10 h × 2.0 = 160 compute + 2,000 upkeep = 2,160.
    assert (own["compute_cost"], own["scheduler_ops_cost"], own["total_cost"]) == (
        160.0, 2000.0, 2160.0,
    )  # fmt: skip
    chart = charts.cost_by_component(rows)
    bars = {bar["name"]: bar for bar in chart["data"]}
    assert bars["@scheduler_ops"]["y"] == [2000.0, 0]  # S, then G (managed: none)
    heights = [sum(b["y"][i] for b in chart["data"]) for i in range(2)]
    assert heights == [2160.0, 200.0]  # each option's bars add up to its total


def test_the_table_marks_a_streamed_input_and_the_upkeep_in_both_languages():
    streamed = plain_input("streamed")
    rows = comparison_rows(streamed, engine.evaluate(streamed))
    assert next(r for r in rows if r["offer"] == "F")["input_overlapped"] is True
    ops = ops_input()
    rows += comparison_rows(ops, engine.evaluate(ops))
    for lang, words in (("en", ("input streamed beside compute", "self-hosted scheduler upkeep")),
                        ("zh-hans", ("输入边算边传", "自建调度器运维每次"))):  # fmt: skip
        with translation.override(lang):
            html = render_to_string("scoring/_comparison_table.html", {"rows": rows})
        for word in words:
            assert word in html, (lang, word)
