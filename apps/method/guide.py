"""The method guide as a page shows it: entries with the team's thresholds filled in, grouped."""

from __future__ import annotations

from dataclasses import dataclass

from apps.accounts.models import Team
from apps.teams import thresholds as team_thresholds
from apps.web.search import text_matches

from .entries import ARTICLES, ENTRIES, GLOSSARY, GROUPS, SECTIONS, Entry, formula_for


@dataclass(frozen=True)
class ThresholdUse:
    key: str
    label: str
    value: str  # as the team has it
    default: str
    unit: str
    overridden: bool


@dataclass(frozen=True)
class Quote:
    article_title_zh: str
    article_title: str
    heading_zh: str
    heading_en: str
    quote_zh: str
    english: str


@dataclass(frozen=True)
class EntryView:
    entry: Entry
    formula: str
    thresholds: tuple[ThresholdUse, ...]
    quotes: tuple[Quote, ...]

    @property
    def id(self) -> str:
        return self.entry.id


def team_values(team: Team | None) -> dict[str, float]:
    """The thresholds the engine uses for this team (the defaults without a team)."""
    return team_thresholds.effective(team.thresholds if team is not None else None)


def entry_view(entry: Entry, values: dict[str, float], currency: str) -> EntryView:
    uses = []
    for key in entry.thresholds:
        spec = team_thresholds.SPECS[key]
        default = team_thresholds.default(key)
        uses.append(
            ThresholdUse(
                key=key,
                label=str(spec.label),
                value=team_thresholds.show(values[key]),
                default=team_thresholds.show(default),
                unit=spec.unit_for(currency),
                overridden=values[key] != default,
            )
        )
    quotes = []
    for passage in entry.passages:
        section = SECTIONS[passage.section]
        article = ARTICLES[section.article]
        quotes.append(
            Quote(
                article_title_zh=article.title_zh,
                article_title=str(article.title),
                heading_zh=section.heading_zh,
                heading_en=section.heading_en,
                quote_zh=passage.quote_zh,
                english=passage.english,
            )
        )
    return EntryView(entry, formula_for(entry, values), tuple(uses), tuple(quotes))


def _entry_matches(entry: Entry, q: str) -> bool:
    """The search box (apps.web.search): the rule id, title, what it checks, formula and fix."""
    return text_matches(q, (entry.id, entry.title, entry.checks, entry.formula, entry.fix))


def guide(team: Team | None, q: str = "") -> dict:
    """Every entry, grouped in the guide's order, and the glossary; given a search `q`, only the
    entries and terms that match it."""
    values = team_values(team)
    currency = team.currency if team is not None else ""
    groups = []
    for key, title in GROUPS.items():
        views = [
            entry_view(e, values, currency)
            for e in ENTRIES
            if e.group == key and _entry_matches(e, q)
        ]
        if views:
            groups.append({"key": key, "title": title, "entries": views})
    glossary = [t for t in GLOSSARY if text_matches(q, (t.term, t.meaning))]
    return {"groups": groups, "glossary": glossary, "q": q}
