"""Issue 33: the review list's rows are drawn in Python (reviews.rows, apps/web/rows.py), the same
markup the template drew per cell: checked against that template (below, as it was in
reviews/list.html) for reviews in every state that shows approvals or not, names that need
escaping and large counts, in both languages and a time zone other than UTC."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from apps.reviews import selectors
from apps.reviews.rows import list_rows
from tests.reviews.helpers import submitted_review

pytestmark = pytest.mark.django_db

# The rows as reviews/list.html drew them before (its loop, verbatim).
TEMPLATE_ROWS = engines["django"].from_string(
    """{% for review in reviews %}
        <tr id="review-{{ review.pk }}">
          <td><a href="{% url 'reviews:detail' review.pk %}">{{ review.title }}</a></td>
          <td>{{ review.task_name }}</td>
          <td><span class="badge badge--{{ review.state }}" data-state="{{ review.state }}">{{ review.get_state_display }}</span></td>
          <td>{{ review.author_username }}</td>
          <td class="num">{{ review.candidate_count }}</td>
          <td class="num">{% if review.state == "submitted" or review.state == "approved" %}{{ review.round_approvals }} / {{ review.approvals_needed }}{% else %}—{% endif %}</td>
          <td class="small muted"><time datetime="{{ review.updated_at|date:'c' }}">{{ review.updated_at|date:"Y-m-d H:i" }}</time></td>
        </tr>
        {% endfor %}"""
)


@pytest.fixture
def rows(team, member):
    review = submitted_review(team, member)
    [row] = selectors.review_rows([review.pk])
    row.updated_at = dt.datetime(2026, 12, 4, 23, 30, 15, 5, tzinfo=dt.UTC)
    variants = [row]
    for state in ("draft", "approved", "rejected", "changes_requested"):
        other = copy.copy(row)
        other.state = state
        variants.append(other)
    odd = copy.copy(row)
    odd.pk, odd.title, odd.task_name = 12345, 'Move <b>&"x"</b>', "A & B"
    odd.author_username, odd.candidate_count, odd.round_approvals = "<script>", 1234, 1
    odd.state = "unknown<"
    return [*variants, odd]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_the_rows_are_the_template_drawn_rows(rows, language, zone):
    with translation.override(language), timezone.override(zone):
        expected = TEMPLATE_ROWS.render({"reviews": rows})
        assert str(list_rows(rows)) == expected


def test_the_rows_escape_names_and_show_approvals_only_when_asked(rows):
    with translation.override("en"), timezone.override("Asia/Shanghai"):
        html = str(list_rows(rows))
    assert "Move &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;" in html and "&lt;script&gt;" in html
    assert 'data-state="unknown&lt;"' in html
    # Submitted and approved show their round's approvals; the other states a dash.
    assert html.count('<td class="num">—</td>') == 4  # draft, rejected, changes requested, unknown
    # 23:30 UTC is 07:30 the next day in Shanghai (UTC+8).
    assert "2026-12-05 07:30" in html
