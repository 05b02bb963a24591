"""Issue 33: the profile list's rows are drawn in Python (profiles.rows, apps/web/rows.py), the
same markup the template drew per cell: checked against that template (below, as it was in
profiles/list.html) for rows with and without parameters, recurring or not, with a home site or
not, names and site codes that need escaping, large figures, in both languages and a time zone
other than UTC."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import timezone, translation

from apps.profiles.models import TaskProfile
from apps.profiles.rows import profile_rows
from apps.profiles.selectors import profile_list
from tests.factories import make_profile, make_site

pytestmark = pytest.mark.django_db

# The rows as profiles/list.html drew them before (its loop, verbatim).
TEMPLATE_ROWS = engines["django"].from_string(
    """{% load i18n scoring %}{% for p in page_obj %}
        <tr>
          <td><a href="{% url 'profiles:detail' p.pk %}"><strong>{{ p.name }}</strong></a>{% if p.cadence == "recurring" %} <span class="badge">{% translate "Recurring" %}</span>{% endif %}</td>
          <td>{{ p.get_workload_display }}</td>
          <td class="num" data-value="{{ p.params_b|default_if_none:'' }}">{% if p.params_b is not None %}{{ p.params_b|hours:1 }} B{% else %}—{% endif %}</td>
          <td>{{ p.precision }}</td>
          <td class="num" data-value="{{ p.compute_hours }}">{{ p.compute_hours|hours:1 }} h</td>
          <td><code>{{ p.data_site.code }}</code>{% if p.home_site_id != p.data_site_id %} → <code>{{ p.home_site.code }}</code>{% endif %}</td>
          <td data-value="{{ p.updated_at|date:'c' }}"><time datetime="{{ p.updated_at|date:'c' }}">{{ p.updated_at|date:"Y-m-d H:i" }}</time></td>
        </tr>
        {% endfor %}"""
)


@pytest.fixture
def profiles(team):
    home = make_site(team, code='h<&">')
    data = make_site(team, code="data-1")
    make_profile(team, data, name='Fine-tune <b>&"x"</b>', params_b=70.5, compute_hours=12345.678)
    make_profile(team, data, name="Nightly", cadence="recurring", params_b=None, compute_hours=0)
    make_profile(team, data, home_site=home, name="Moved", params_b=0.25, compute_hours=1.05)
    stamp = dt.datetime(2026, 12, 4, 23, 30, 15, tzinfo=dt.UTC)
    TaskProfile.objects.filter(team=team).update(updated_at=stamp)
    return list(profile_list(team=team))


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_the_rows_are_the_template_drawn_rows(profiles, language, zone):
    assert len(profiles) == 3
    with translation.override(language), timezone.override(zone):
        expected = TEMPLATE_ROWS.render({"page_obj": profiles})
        assert str(profile_rows(profiles)) == expected


def test_the_rows_escape_names_and_codes_and_format_figures(profiles):
    with translation.override("en"), timezone.override("Asia/Shanghai"):
        html = str(profile_rows(profiles))
    assert "Fine-tune &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;" in html
    assert "<code>h&lt;&amp;&quot;&gt;</code>" in html
    # 12345.678 hours to one decimal, grouped: 12,345.7; 23:30 UTC is 07:30 the next day in
    # Shanghai (UTC+8).
    assert "12,345.7 h" in html and "2026-12-05 07:30" in html
    assert "—" in html  # Nightly has no parameter count


def test_the_list_page_shows_the_rows(client, member, team, profiles):
    client.force_login(member)
    html = client.get(reverse("profiles:list")).content.decode()
    with translation.override("en"):
        assert str(profile_rows(profiles)) in html
