"""Type-ahead filter fields: a text box that names one of many rows (a task, an author, a
reviewer) instead of a <select> listing all of them.

A list's filter form used to draw every task and person of the team as an <option> on each view
after a change: hundreds to thousands of options, 10-20 ms of a cold list. A type-ahead field
draws an empty <datalist>; htmx fills it with at most MAX_OPTIONS names as the user types (the
list's own options view, `options_response`), and without JavaScript the box takes a typed name
all the same. The query parameter keeps its name and still takes an id, so links such as the review
page's "History of this task" (`?task=12`) keep working:
- an id (digits) of one of the rows: that row;
- else the rows whose name is the text (case aside), or failing that contain it;
- no row: a field error, and the filter does not apply (as an unknown choice did).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django.forms.utils import flatatt
from django.http import HttpResponse
from django.urls import reverse
from django.utils.safestring import mark_safe

from apps.web.search import MAX_QUERY

MAX_OPTIONS = 20


class TypeAheadInput(forms.TextInput):
    """<input type="search" list=…> and its <datalist>, filled by htmx from `options_url` (a URL
    name) as the user types; the request carries the box's own name and value."""

    input_type = "search"

    def __init__(self, options_url: str, attrs: dict | None = None):
        super().__init__(attrs)
        self.options_url = options_url

    def render(self, name, value, attrs=None, renderer=None):
        attrs = self.build_attrs(self.attrs, attrs)
        options_id = f"{attrs.get('id') or 'id_' + name}-options"
        attrs.update(
            {
                "type": self.input_type,
                "name": name,
                "list": options_id,
                "autocomplete": "off",
                "hx-get": reverse(self.options_url),
                "hx-trigger": "input changed delay:250ms, focus once",
                "hx-target": f"#{options_id}",
                "hx-swap": "innerHTML",
                "hx-sync": "this:replace",
                "hx-push-url": "false",
            }
        )
        if value not in (None, ""):
            attrs["value"] = str(value)
        return mark_safe(  # noqa: S308 - every attribute escaped by flatatt
            f'<input{flatatt(attrs)}><datalist id="{escape(options_id)}"></datalist>'
        )


class TypeAheadField(forms.CharField):
    """The box's text, as typed (resolved to rows by `TypeAhead.resolve`)."""

    def __init__(self, *, options_url: str, placeholder: str, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", MAX_QUERY)
        super().__init__(widget=TypeAheadInput(options_url), **kwargs)
        self.widget.attrs["placeholder"] = placeholder


@dataclass(frozen=True)
class Resolved:
    """`ids`: the rows to filter by, a list or a subquery of their ids (None: no filter, either
    none asked or nothing matched); `text`: what the box shows (the row's name for an id);
    `error`: a text that matched nothing."""

    ids: list[int] | QuerySet | None
    text: str
    error: bool = False


@dataclass(frozen=True)
class TypeAhead:
    """What one field names: `rows` (already limited to what the viewer may filter by), the
    fields a typed name is looked for in (the first is what the box takes), the fields a label
    reads, how an option is labelled, and the error when nothing matches."""

    rows: Callable[[], QuerySet]
    names: Sequence[str]
    label: Callable[[dict[str, Any]], str]
    missing: Any  # a lazy message with %(text)s
    label_fields: Sequence[str] = ()

    def _matching(self, rows: QuerySet, text: str, lookup: str) -> QuerySet:
        found = Q()
        for name in self.names:
            found |= Q(**{f"{name}__{lookup}": text})
        return rows.filter(found)

    def resolve(self, text: str | None) -> Resolved:
        """The rows `text` names (see the module's rules): their ids and the text to show."""
        text = (text or "").strip()[:MAX_QUERY]
        if not text:
            return Resolved(None, "")
        rows = self.rows()
        if text.isascii() and text.isdigit() and len(text) <= 18:
            found = list(rows.filter(pk=int(text)).values_list("pk", self.names[0])[:1])
            if found:
                return Resolved([found[0][0]], found[0][1])
        for lookup in ("iexact", "icontains"):
            matching = self._matching(rows, text, lookup).values("pk")
            if matching.exists():
                return Resolved(matching, text)
        return Resolved(None, text, error=True)

    def options(self, text: str | None) -> list[tuple[str, str]]:
        """(value, label) of at most MAX_OPTIONS rows whose name contains `text` (the first
        ones by name when it is empty)."""
        rows = self.rows()
        text = (text or "").strip()[:MAX_QUERY]
        if text:
            rows = self._matching(rows, text, "icontains")
        rows = rows.order_by(self.names[0], "pk").values(*self.names, *self.label_fields)
        return [(row[self.names[0]], self.label(row)) for row in rows[:MAX_OPTIONS]]

    def apply(self, form: forms.Form, field: str, found: Resolved) -> None:
        """Show `found` in the bound form: the name for an id, an error when nothing matched."""
        if not form.is_bound or not found.text:
            return
        data = form.data.copy()
        data[field] = found.text
        form.data = data
        if found.error:
            form.add_error(field, self.missing % {"text": found.text})


def options_response(options: list[tuple[str, str]]) -> HttpResponse:
    """The <option>s of a datalist: the value the box takes and, when it says more, a label."""
    html = "".join(
        f'<option value="{escape(value)}">{escape(label) if label != value else ""}</option>'
        for value, label in options
    )
    return HttpResponse(html, content_type="text/html; charset=utf-8")
