"""Issue 33: the approval queue's rows are drawn in Python (reviews.rows, apps/web/rows.py),
the same markup the template drew per cell: checked against that template (below, as it was in
reviews/approvals.html) for a submitted review and variants of it (not submitted, names that need
escaping, large counts), in both languages and a time zone other than UTC."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from apps.reviews import selectors
from apps.reviews.rows import queue_rows
from tests.reviews.helpers import submitted_review

pytestmark = pytest.mark.django_db

# The rows as reviews/approvals.html drew them before (its loop, verbatim).
TEMPLATE_ROWS = engines["django"].from_string(
    """{% load i18n %}{% for review in reviews %}
      <tr id="queue-{{ review.pk }}">
        <td><a href="{% url 'reviews:detail' review.pk %}">{{ review.title }}</a></td>
        <td>{{ review.team_name }}</td>
        <td>{{ review.task_name }}</td>
        <td>{{ review.author_username }}</td>
        <td class="num">{{ review.candidate_count }}</td>
        <td class="num">{{ review.round_approvals }} / {{ review.approvals_needed }}</td>
        <td class="small muted">{% if review.submitted_at %}<time datetime="{{ review.submitted_at|date:'c' }}">{% blocktranslate with ago=review.submitted_at|timesince:now %}{{ ago }} ago{% endblocktranslate %}</time>{% endif %}</td>
        <td><div class="row-actions"><a class="btn btn--small btn--primary" href="{% url 'reviews:detail' review.pk %}#decision-panel">{% translate "Review" %}</a></div></td>
      </tr>
        {% endfor %}"""
)

NOW = dt.datetime(2026, 12, 5, 3, 0, tzinfo=dt.UTC)


@pytest.fixture
def rows(team, member):
    review = submitted_review(team, member)
    [row] = selectors.review_rows([review.pk])
    row.submitted_at = NOW - dt.timedelta(days=2, hours=3, minutes=5)
    unsent = copy.copy(row)
    unsent.submitted_at = None
    odd = copy.copy(row)
    odd.pk, odd.title, odd.team_name = 12345, 'Move <b>&"x"</b>', "T'1"
    odd.task_name, odd.author_username = "A & B", "<script>"
    odd.candidate_count, odd.round_approvals = 1234, 0
    odd.submitted_at = NOW - dt.timedelta(minutes=1)
    return [row, unsent, odd]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_the_rows_are_the_template_drawn_rows(rows, language, zone):
    with translation.override(language), timezone.override(zone):
        expected = TEMPLATE_ROWS.render({"reviews": rows, "now": NOW})
        assert str(queue_rows(rows, NOW)) == expected


def test_the_rows_escape_names_and_tell_the_wait(rows):
    with translation.override("en"):
        html = str(queue_rows(rows, NOW))
    assert "Move &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;" in html and "&lt;script&gt;" in html
    assert "T&#x27;1" in html and "A &amp; B" in html
    # Submitted two days, three hours and five minutes before NOW: the two largest units.
    assert "2\xa0days, 3\xa0hours ago" in html
    assert html.count("<time ") == 2  # the review not submitted has none
