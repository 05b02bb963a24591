"""The history's rows drawn in Python (apps/web/rows.py): the markup scoring/history.html drew
with a template per cell, checked against it by tests/scoring/test_history_rows.py."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from apps.web.labels import PLACEMENTS, PLATFORMS, label
from apps.web.rows import date, figure, text

_ROW = (
    '\n          <tr id="snapshot-{pk}">\n'
    '            <td><input type="checkbox" name="s" value="{pk}" aria-label="{pick}"></td>\n'
    '            <td data-value="{created}"><a href="{url}">{created_at}</a></td>\n'
    "            <td>{team}</td>\n"
    '            <td><a href="{url}">{review}</a> '
    '<span class="badge badge--{status}">{state}</span></td>\n'
    "            <td>{task}</td>\n"
    "            <td>{platform}</td>\n"
    "            <td>{chosen}</td>\n"
    '            <td class="num" data-value="{cost_value}">{cost} '
    '<span class="muted small">{currency}</span></td>\n'
    '            <td class="num" data-value="{hours_value}">{hours}</td>\n'
    '            <td class="num" data-value="{blocks_value}">{blocks} / {warnings}</td>\n'
    '            <td class="mono small">{engine}</td>\n'
    "          </tr>\n        "
)


def _sort_value(value) -> str:
    """scoring's `sort_value` filter, drawn: the raw number, empty when missing."""
    return "" if value is None or isinstance(value, bool) else text(str(value))


def _count(value, kind: str) -> str:
    return f'<span class="badge badge--{kind}">{text(value)}</span>' if value else "0"


def history_rows(snapshots: Iterable) -> SafeString:
    """The table rows of a page of the history (history_list.history_rows, labelled by
    history_list.label_rows), in the active language."""
    pick = gettext("Pick snapshot %(n)s")
    none_feasible = f'<span class="muted">{text(gettext("none feasible"))}</span>'
    rows = []
    for s in snapshots:
        if s.chosen_kind:
            chosen = (
                f'{text(label(PLACEMENTS, s.chosen_kind))}<span class="cell-sub">'
                f"{text(s.chosen_offer_label)} · {text(s.chosen_site)}</span>"
            )
        else:
            chosen = none_feasible
        rows.append(
            _ROW.format(
                pk=text(s.pk),
                pick=pick % {"n": text(s.pk)},
                created=date(s.created_at, "c"),
                created_at=date(s.created_at, "Y-m-d H:i"),
                url=text(reverse("scoring:snapshot_detail", args=[s.pk])),
                team=text(s.team_name),
                review=text(s.review_title),
                status=text(s.review_status),
                state=text(s.review_state_label),
                task=text(s.task_name),
                platform=text(label(PLATFORMS, s.platform)),
                chosen=chosen,
                cost_value=_sort_value(s.chosen_total_cost),
                cost=text(figure(s.chosen_total_cost)),
                currency=text(s.team_currency),
                hours_value=_sort_value(s.chosen_total_hours),
                hours=text(figure(s.chosen_total_hours)),
                blocks_value=text(s.block_count),
                blocks=_count(s.block_count, "block"),
                warnings=_count(s.warn_count, "warn"),
                engine=text(s.engine_version),
            )
        )
    return mark_safe("".join(rows))
