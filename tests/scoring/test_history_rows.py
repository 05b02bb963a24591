"""Issue 33: the history's rows are drawn in Python (scoring.history_rows, apps/web/rows.py), the
same markup the template drew per cell: checked against that template (below, as it was in
scoring/history.html) for a computed snapshot and variants of it (nothing feasible, no cost,
blocks and warnings, names that need escaping, large figures), in both languages and a time zone
other than UTC."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from apps.scoring import history_list
from apps.scoring.history_rows import history_rows

pytestmark = pytest.mark.django_db

# The rows as scoring/history.html drew them before (its loop, verbatim).
TEMPLATE_ROWS = engines["django"].from_string(
    """{% load i18n scoring %}{% for s in page_obj %}
          <tr id="snapshot-{{ s.pk }}">
            <td><input type="checkbox" name="s" value="{{ s.pk }}" aria-label="{% blocktranslate with n=s.pk %}Pick snapshot {{ n }}{% endblocktranslate %}"></td>
            <td data-value="{{ s.created_at|date:'c' }}"><a href="{% url 'scoring:snapshot_detail' s.pk %}">{{ s.created_at|date:"Y-m-d H:i" }}</a></td>
            <td>{{ s.team_name }}</td>
            <td><a href="{% url 'scoring:snapshot_detail' s.pk %}">{{ s.review_title }}</a> <span class="badge badge--{{ s.review_status }}">{{ s.review_state_label }}</span></td>
            <td>{{ s.task_name }}</td>
            <td>{{ s.platform|platform_label }}</td>
            <td>{% if s.chosen_kind %}{{ s.chosen_kind|placement_label }}<span class="cell-sub">{{ s.chosen_offer_label }} · {{ s.chosen_site }}</span>{% else %}<span class="muted">{% translate "none feasible" %}</span>{% endif %}</td>
            <td class="num" data-value="{{ s.chosen_total_cost|sort_value }}">{{ s.chosen_total_cost|money }} <span class="muted small">{{ s.team_currency }}</span></td>
            <td class="num" data-value="{{ s.chosen_total_hours|sort_value }}">{{ s.chosen_total_hours|hours }}</td>
            <td class="num" data-value="{{ s.block_count }}">{% if s.block_count %}<span class="badge badge--block">{{ s.block_count }}</span>{% else %}0{% endif %} / {% if s.warn_count %}<span class="badge badge--warn">{{ s.warn_count }}</span>{% else %}0{% endif %}</td>
            <td class="mono small">{{ s.engine_version }}</td>
          </tr>
        {% endfor %}"""
)


@pytest.fixture
def rows(snapshot):
    [row] = history_list.history_rows([snapshot.pk])
    history_list.label_rows([row])
    assert row.chosen_kind  # the world's review has a feasible option
    none = copy.copy(row)
    none.chosen_kind, none.chosen_total_cost, none.chosen_total_hours = "", None, None
    none.block_count, none.warn_count = 0, 0
    odd = copy.copy(row)
    odd.team_name, odd.review_title, odd.task_name = 'T<&">', "R <b>'x'</b>", "A & B"
    odd.chosen_offer_label, odd.chosen_site = "P<1> · N&2", 'S"3'
    odd.block_count, odd.warn_count, odd.pk = 2, 13, 12345
    odd.chosen_total_cost, odd.chosen_total_hours = 1234567.891, 0.0
    odd.created_at = dt.datetime(2026, 12, 4, 23, 30, 15, 123456, tzinfo=dt.UTC)
    odd.platform, odd.engine_version = "unknown-platform", "2.2.0<"
    return [row, none, odd]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_the_rows_are_the_template_drawn_rows(rows, language, zone):
    with translation.override(language), timezone.override(zone):
        expected = TEMPLATE_ROWS.render({"page_obj": rows})
        assert str(history_rows(rows)) == expected


def test_the_rows_escape_names_and_show_counts_and_figures(rows):
    with translation.override("en"), timezone.override("Asia/Shanghai"):
        html = str(history_rows(rows))
    assert "T&lt;&amp;&quot;&gt;" in html and "R &lt;b&gt;&#x27;x&#x27;&lt;/b&gt;" in html
    assert "P&lt;1&gt; · N&amp;2 · S&quot;3" in html
    assert (
        '<span class="badge badge--block">2</span> / <span class="badge badge--warn">13</span>'
        in html
    )
    # 1234567.891 to two decimals, grouped; 23:30 UTC is 07:30 the next day in Shanghai (UTC+8).
    assert "1,234,567.89" in html and "2026-12-05 07:30" in html
    assert '<span class="muted">none feasible</span>' in html
