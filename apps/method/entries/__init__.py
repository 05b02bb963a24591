"""The method guide's entries, as data: one per rule id, gate, exclusion, indicator and rollout
tier the engine can name, and the glossary of the method's words.

Each entry says what it checks, its formula (team thresholds as `%(key)s`, filled in by
`formula_for`), the seed passages it follows (quoted in Chinese exactly as the seed articles
have them, with an English rendering) and how to fix what it flags. Rule ids and message keys
come from engine (findings.RULE_ORDER, messages.MESSAGES); tests/method checks
that every id the engine can emit has an entry here.

The entries are data, in modules by group; `index` puts them in order. This package's face hands
on the names its callers use.
"""

from .glossary import GLOSSARY
from .index import ENTRIES, ENTRY_BY_ID, entry_for, formula_for
from .model import ARTICLES, GROUPS, SECTIONS, Article, Entry, Passage, Section, Term

__all__ = [
    "ARTICLES", "ENTRIES", "ENTRY_BY_ID", "GLOSSARY", "GROUPS", "SECTIONS", "Article", "Entry",
    "Passage", "Section", "Term", "entry_for", "formula_for",
]
