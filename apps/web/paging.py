"""A page of a long list, its ids first.

Paginating the list's own query makes the database join, annotate and sort every row the filters
keep before it takes the page's 25: on a team with thousands of rows that was most of a cold list
page (~10 ms for the history). Here the page's ids and the number of rows come from the filtered,
ordered table alone in one query, which an index on the filter and sort columns answers without
reading a row; then only those rows are read with their joins and annotations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.paginator import Page, Paginator
from django.db.models import Count, Model, QuerySet, Window

from apps.accounts.fields import MAX_PK


def id_param(request, name: str) -> int | None:
    """A positive id from the query string; anything else (text, more than 20 characters, beyond a
    64-bit id) is no filter."""
    try:
        value = int(request.GET.get(name, "")[:20])
    except ValueError:
        return None
    return value if 1 <= value <= MAX_PK else None


class _Counted(Paginator):
    """A paginator told its number of rows (it does not count them again)."""

    def __init__(self, count: int, per_page: int) -> None:
        super().__init__((), per_page)
        self.__dict__["count"] = count  # Paginator.count is a cached_property


def _asked(value, per_page: int) -> int:
    """The page asked for: 1 for anything but a whole number, 0 for one before the first or
    past any offset the database takes (read as the last page, as Paginator.get_page does)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 1
    return number if 1 <= number <= 2**31 // per_page else 0


def page_by_ids(
    queryset: QuerySet,
    number,
    per_page: int,
    *,
    rows: Callable[[list], Iterable[Model]] | None = None,
) -> Page:
    """Page `number` of `queryset` (ordered), as Paginator.get_page gives it (not a number: the
    first page; out of range: the last), its rows read by id in a second query: `rows(ids)`,
    which reads them with their joins and annotations and without the list's filters again
    (they cost more to build and plan than to run), or `queryset` filtered by the ids. A row
    that left the list between the two queries is left out of the page."""
    counted = queryset.annotate(page_total=Window(Count("pk"))).values_list("pk", "page_total")
    number = _asked(number, per_page)
    found = list(counted[(number - 1) * per_page : number * per_page]) if number else []
    if not found and number != 1:  # out of range: the last page
        number = _Counted(queryset.count(), per_page).num_pages
        found = list(counted[(number - 1) * per_page : number * per_page])
    paginator = _Counted(found[0][1] if found else 0, per_page)
    ids = [pk for pk, _total in found]
    read = rows or (lambda ids: queryset.filter(pk__in=ids).order_by())
    found_rows = {row.pk: row for row in read(ids)} if ids else {}
    return Page([found_rows[pk] for pk in ids if pk in found_rows], number, paginator)
