"""The method guide's entries (apps/method/entries.py) against the engine: every rule id the engine
can emit has an entry in both languages, every threshold a formula names is an engine threshold,
and every quoted passage stands word for word in its seed article."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import translation

import engine
from apps.catalog.models import Tier
from apps.method.entries import (
    ARTICLES,
    ENTRIES,
    ENTRY_BY_ID,
    GLOSSARY,
    GROUPS,
    SECTIONS,
    entry_for,
    formula_for,
)
from apps.teams import thresholds as team_thresholds
from apps.web import labels
from engine import findings as engine_findings

ENGINE_DIR = Path(engine.__file__).resolve().parent
SEEDS_DIR = Path(os.environ.get("METHOD_SEEDS_DIR", "/work/shared/seeds"))
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CJK = re.compile(r"[\u4e00-\u9fff]")


def engine_rule_ids() -> set[str]:
    """Every rule id the engine can put on a finding or a sign-off refusal, read from its source:
    the message keys (a key's rule is the part before the first dot), the fixed rule order, and
    every literal rule passed to `finding(...)` in the engine's modules."""
    ids = {key.split(".", 1)[0] for key in engine.MESSAGES}
    ids |= set(engine_findings.RULE_ORDER)
    call = re.compile(r"\bfinding\(\s*\"([^\"]+)\"")
    for path in ENGINE_DIR.glob("*.py"):
        ids |= set(call.findall(path.read_text(encoding="utf-8")))
    return ids


def test_the_engine_source_yields_the_rule_ids_it_is_known_for():
    ids = engine_rule_ids()
    # A sanity floor, so that a broken reader cannot pass the test below with an empty set.
    assert {"A", "R1a", "R-mod", "C", "G4", "X4", "M4", "H2", "T", "J3", "S"} <= ids
    assert len(ids) >= 45


@pytest.mark.parametrize("rule", sorted(engine_rule_ids()))
def test_every_rule_id_the_engine_can_emit_has_an_entry_in_both_languages(rule):
    entry = entry_for(rule)
    assert entry is not None, f"no method guide entry for rule {rule}"
    assert entry.id == rule
    texts = {}
    for lang in ("en", "zh-hans"):
        with translation.override(lang):
            texts[lang] = [str(entry.title), str(entry.checks), str(entry.formula), str(entry.fix)]
    for en, zh in zip(texts["en"], texts["zh-hans"], strict=True):
        assert en.strip() and zh.strip()
        assert en != zh, f"{rule}: not translated: {en!r}"
        assert CJK.search(zh), f"{rule}: the Chinese text has no Chinese: {zh!r}"


def test_a_message_key_finds_the_entry_of_its_rule():
    for key in engine.MESSAGES:
        assert entry_for(key) is ENTRY_BY_ID[key.split(".", 1)[0]]
    assert entry_for("no-such-rule") is None and entry_for("") is None


def test_every_gate_exclusion_tier_and_threshold_rule_has_an_entry():
    gates = {rule for rule, _key, _name in labels.GATES}
    needed = gates | set(labels.EXCLUSIONS) | set(Tier.values)
    needed |= {spec.rule for spec in team_thresholds.SPECS.values()}
    assert needed <= set(ENTRY_BY_ID), sorted(needed - set(ENTRY_BY_ID))


def test_entry_ids_are_unique_and_grouped_in_known_groups():
    assert len(ENTRY_BY_ID) == len(ENTRIES)
    assert {e.group for e in ENTRIES} == set(GROUPS)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_every_threshold_in_a_formula_is_an_engine_threshold(entry):
    assert set(entry.thresholds) <= set(engine.DEFAULT_THRESHOLDS)
    with translation.override("zh-hans"):
        zh_keys = PLACEHOLDER.findall(str(entry.formula))
    assert sorted(zh_keys) == sorted(PLACEHOLDER.findall(str(entry.formula)))
    values = {key: float(v) for key, v in engine.DEFAULT_THRESHOLDS.items()}
    for lang in ("en", "zh-hans"):
        with translation.override(lang):
            text = formula_for(entry, values)
        assert "%(" not in text
        for key in entry.thresholds:
            assert team_thresholds.show(values[key]) in text


def test_a_team_value_is_filled_into_the_formula():
    values = team_thresholds.effective({"network_cost_share": 0.35})
    with translation.override("en"):
        assert "above 0.35" in formula_for(ENTRY_BY_ID["M4"], values)
    with translation.override("zh-hans"):
        assert "超过 0.35" in formula_for(ENTRY_BY_ID["M4"], values)


def test_every_rule_threshold_of_the_engine_appears_in_some_formula():
    named = {key for e in ENTRIES for key in e.thresholds}
    assert named == set(engine.DEFAULT_THRESHOLDS), sorted(set(engine.DEFAULT_THRESHOLDS) - named)


def test_the_glossary_and_group_names_are_translated():
    for term in GLOSSARY:
        with translation.override("en"):
            en = (str(term.term), str(term.meaning))
        with translation.override("zh-hans"):
            zh = (str(term.term), str(term.meaning))
        assert all(en) and all(CJK.search(z) for z in zh), term.id
    with translation.override("zh-hans"):
        assert all(CJK.search(str(name)) for name in GROUPS.values())


@pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason="the seed articles are not on this machine")
def test_every_quote_and_heading_stands_word_for_word_in_its_seed():
    texts = {key: (SEEDS_DIR / a.filename).read_text(encoding="utf-8") for key, a in ARTICLES.items()}
    for section in SECTIONS.values():
        assert section.heading_zh in texts[section.article]
    for entry in ENTRIES:
        for passage in entry.passages:
            article = SECTIONS[passage.section].article
            assert passage.quote_zh in texts[article], (entry.id, passage.quote_zh)
            assert passage.english.strip()


def _sections_of(text: str, article: str) -> dict[str, list[str]]:
    """Each section's text (every copy of it: a seed may hold the article twice), cut at the
    next heading of the same article."""
    headings = [(k, s.heading_zh) for k, s in SECTIONS.items() if s.article == article]
    starts = sorted(
        (m.start(), key) for key, head in headings for m in re.finditer(re.escape(head), text)
    )
    parts: dict[str, list[str]] = {}
    for i, (start, key) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        parts.setdefault(key, []).append(text[start:end])
    return parts


@pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason="the seed articles are not on this machine")
def test_every_quote_is_cited_with_the_section_it_stands_in():
    for key, article in ARTICLES.items():
        parts = _sections_of((SEEDS_DIR / article.filename).read_text(encoding="utf-8"), key)
        for entry in ENTRIES:
            for passage in entry.passages:
                if SECTIONS[passage.section].article != key:
                    continue
                assert any(passage.quote_zh in part for part in parts[passage.section]), (
                    entry.id,
                    passage.section,
                    passage.quote_zh,
                )
