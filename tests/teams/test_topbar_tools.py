"""The top bar's tools after the bell drawn in Python (apps/teams/templatetags/topbar.topbar_tools)
are the markup base.html drew with its template, kept here verbatim, to the byte (CSRF tokens,
masked afresh at each drawing, blanked): signed out, in one team, in several (the switch, the
current one selected), on the account page, in both languages."""

from __future__ import annotations

import re

import pytest
from django.template import engines
from django.test import Client
from django.utils import translation

from tests.factories import make_membership

pytestmark = pytest.mark.django_db

# base.html's tools before they were drawn in Python, verbatim.
OLD = """{% load i18n %}{% get_current_language as LANGUAGE_CODE %}<div class="topbar__tools">
        {% if user.is_authenticated %}
        {% include "components/bell.html" %}
        {% endif %}
        {% if user.is_authenticated and user_memberships|length > 1 %}
        <form method="post" action="{% url 'accounts:team_switch' %}" class="inline-form team-switch">
          {% csrf_token %}
          <input type="hidden" name="next" value="{{ request.get_full_path }}">
          <label class="visually-hidden" for="team-switch">{% translate "Team" %}</label>
          <select id="team-switch" name="team" data-autosubmit>
            {% for m in user_memberships %}
            <option value="{{ m.team_id }}" {% if current_team and m.team_id == current_team.pk %}selected{% endif %}>{{ m.team.name }} · {{ m.get_role_display }}</option>
            {% endfor %}
          </select>
          <noscript><button type="submit" class="btn btn--small">{% translate "Switch" %}</button></noscript>
        </form>
        {% elif current_team %}
        <span class="team-name" title="{% translate 'Your team' %}">{{ current_team.name }} · {{ current_membership.get_role_display }}</span>
        {% endif %}
        <form method="post" action="{% url 'set_language' %}" class="inline-form lang-switch">
          {% csrf_token %}
          <input type="hidden" name="next" value="{{ request.get_full_path }}">
          {% get_available_languages as LANGUAGES %}
          {% for code, name in LANGUAGES %}
          <button type="submit" name="language" value="{{ code }}" class="lang-btn {% if code == LANGUAGE_CODE %}is-active{% endif %}" lang="{{ code }}" {% if code == LANGUAGE_CODE %}aria-current="true"{% endif %}>{% if code == 'en' %}EN{% else %}简体中文{% endif %}</button>
          {% endfor %}
        </form>
        {% if user.is_authenticated %}
        <a href="{% url 'accounts:account' %}" class="account-link{% if request.resolver_match.url_name == 'account' %} is-active{% endif %}"{% if request.resolver_match.url_name == 'account' %} aria-current="page"{% endif %} title="{% translate 'Your account' %}">{{ user.get_username }}</a>
        <form method="post" action="{% url 'accounts:logout' %}" class="inline-form">
          {% csrf_token %}
          <button type="submit" class="btn btn--ghost btn--small" title="{{ user.get_username }}">{% translate "Sign out" %}</button>
        </form>
        {% endif %}
      </div>"""


def _tools(html: str) -> str:
    start = html.index('<div class="topbar__tools">')
    end = html.index("      </div>", start) + len("      </div>")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html[start:end])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_tools_are_the_templates_to_the_byte(team, other_team, owner, member, language):
    make_membership(owner, other_team, "reviewer")  # the owner is in two teams: the switch
    old = engines["django"].from_string(OLD)
    seen = []
    for user, paths in ((None, ["/accounts/login/"]), (member, ["/", "/accounts/"]),
                        (owner, ["/profiles/?q=a&b=<c>", "/accounts/"])):  # fmt: skip
        client = Client()
        if user is not None:
            client.force_login(user)
        for path in paths:
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            html = response.content.decode()
            with translation.override(language):
                expected = old.render({}, response.wsgi_request)
            assert _tools(html) == _tools(expected), (user, path)
            seen.append((getattr(user, "username", None), path))
    assert len(seen) == 5
    owner_page = [s for s in seen if s[0] == "owner"]
    assert owner_page  # the switch was compared


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_page_drawn_without_its_request_gets_the_templates_tools(language):
    """Django's 500 page is drawn with no request in its context: the tools are still the
    template's (forms that go back to no page), not a KeyError in the error page itself."""
    new = engines["django"].from_string(
        '{% load topbar %}<div class="topbar__tools">\n        {% topbar_tools %}\n      </div>'
    )
    old = engines["django"].from_string(OLD)
    with translation.override(language):
        drawn, expected = new.render({}), old.render({})
    assert 'name="next" value=""' in drawn
    assert _tools(drawn).split() == _tools(expected).split()  # the bell's blank lines aside
