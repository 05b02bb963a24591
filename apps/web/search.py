"""The one text search of the lists (history, reviews, benchmarks, offers) and the method guide.

A query is cut into terms; a row matches when every term is found in one of its fields (in any
order, in any of them: "llama alice" finds Alice's review of a Llama task). On PostgreSQL a term
is a full-text prefix match over the fields (SearchVector, the `simple` configuration: names and
codes are not English prose to stem); its parser does not split Chinese into words, so a term
with Chinese characters is matched as plain text there too, as every term is on SQLite.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Sequence
from functools import reduce

from django.contrib.postgres.search import SearchQuery, SearchVector, SearchVectorExact
from django.db import connection
from django.db.models import Q, QuerySet

MAX_QUERY = 200  # characters of a query read; the rest is left out
MAX_TERMS = 8
PARAM = "q"  # the GET parameter of every search box
# Characters PostgreSQL's parser keeps as one token without word breaks (CJK and kana, Hangul).
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def search_terms(query: str | None) -> list[str]:
    """The terms of a query: at most MAX_TERMS words of its first MAX_QUERY characters."""
    return (query or "")[:MAX_QUERY].split()[:MAX_TERMS]


def _prefix_query(term: str) -> SearchQuery:
    quoted = term.replace("\\", "\\\\").replace("'", "''")
    return SearchQuery(f"'{quoted}':*", search_type="raw", config="simple")


def term_filter(term: str, fields: Sequence[str]) -> Q:
    """Rows with `term` in one of `fields` (single-valued paths: a many-valued one repeats rows;
    search those through `extra` with an Exists)."""
    if connection.vendor == "postgresql" and not CJK.search(term):
        vector = SearchVector(*fields, config="simple")
        return Q(SearchVectorExact(vector, _prefix_query(term)))
    return reduce(operator.or_, (Q(**{f"{field}__icontains": term}) for field in fields))


def search_queryset(
    queryset: QuerySet,
    query: str | None,
    fields: Sequence[str],
    *,
    extra: Callable[[str], Q] | None = None,
) -> QuerySet:
    """`queryset` narrowed to the rows where every term of `query` is in one of `fields` (or, for
    a term, matches `extra(term)`: what a row reaches through a subquery). No terms: unchanged."""
    for term in search_terms(query):
        found = term_filter(term, fields)
        queryset = queryset.filter(found | extra(term) if extra else found)
    return queryset


def text_matches(query: str | None, texts: Iterable[str]) -> bool:
    """For what is not in the database (the method guide): every term in one of `texts`."""
    lowered = [str(text).casefold() for text in texts]
    return all(any(term.casefold() in text for text in lowered) for term in search_terms(query))
