"""The top bar's main navigation drawn in Python (apps/teams/templatetags/topbar.main_nav) is the
markup base.html drew with its template, kept here verbatim, to the byte: for each section active,
a page outside every section, a page no URL matched, a viewer with approvals waiting and one
without, in both languages."""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import Client
from django.utils import translation

from tests.reviews.helpers import submitted_review

pytestmark = pytest.mark.django_db

# base.html's navigation before it was drawn in Python, verbatim.
OLD = """{% load i18n %}<nav class="mainnav" aria-label="{% translate 'Main' %}">
        {% url 'profiles:list' as profiles_url %}{% url 'reviews:list' as reviews_url %}
        {% url 'reviews:approvals' as approvals_url %}{% url 'scoring:history' as history_url %}
        {% url 'catalog:index' as catalog_url %}{% url 'benchmarks:list' as benchmarks_url %}{% url 'teams:settings' as settings_url %}
        {% if profiles_url %}<a href="{{ profiles_url }}" class="{% if request.path|slice:':10' == '/profiles/' %}is-active{% endif %}"{% if request.path|slice:':10' == '/profiles/' %} aria-current="page"{% endif %}>{% translate "Profiles" %}</a>{% endif %}
        {% if reviews_url %}<a href="{{ reviews_url }}" class="{% if request.resolver_match.namespace == 'reviews' and request.resolver_match.url_name != 'approvals' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'reviews' and request.resolver_match.url_name != 'approvals' %} aria-current="page"{% endif %}>{% translate "Reviews" %}</a>{% endif %}
        {% if approvals_url %}<a href="{{ approvals_url }}" class="{% if request.resolver_match.url_name == 'approvals' %}is-active{% endif %}"{% if request.resolver_match.url_name == 'approvals' %} aria-current="page"{% endif %}>{% translate "Approvals" %}{% if approvals_waiting %} <span class="badge badge--accent" title="{% translate 'Waiting for your decision' %}">{{ approvals_waiting }}</span>{% endif %}</a>{% endif %}
        {% if benchmarks_url %}<a href="{{ benchmarks_url }}" class="{% if request.resolver_match.namespace == 'benchmarks' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'benchmarks' %} aria-current="page"{% endif %}>{% translate "Benchmarks" %}</a>{% endif %}
        {% if history_url %}<a href="{{ history_url }}" class="{% if request.resolver_match.namespace == 'scoring' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'scoring' %} aria-current="page"{% endif %}>{% translate "History" %}</a>{% endif %}
        {% if catalog_url %}<a href="{{ catalog_url }}" class="{% if request.resolver_match.namespace == 'catalog' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'catalog' %} aria-current="page"{% endif %}>{% translate "Catalog" %}</a>{% endif %}
        <a href="{% url 'method:index' %}" class="{% if request.resolver_match.namespace == 'method' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'method' %} aria-current="page"{% endif %}>{% translate "Method" %}</a>
        {% if settings_url %}<a href="{{ settings_url }}" class="{% if request.resolver_match.namespace == 'accounts' and request.resolver_match.url_name != 'login' %}is-active{% endif %}"{% if request.resolver_match.namespace == 'accounts' and request.resolver_match.url_name != 'login' %} aria-current="page"{% endif %}>{% translate "Settings" %}</a>{% endif %}
      </nav>"""

PAGES = [
    "/profiles/", "/reviews/", "/reviews/approvals/", "/benchmarks/", "/scoring/history/",
    "/catalog/", "/method/", "/accounts/", "/settings/", "/", "/no-such-page/",
]  # fmt: skip


def _nav(html: str) -> str:
    start = html.index('<nav class="mainnav"')
    return html[start : html.index("</nav>", start) + len("</nav>")]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_navigation_is_the_templates_to_the_byte(team, owner, reviewer, member, language):
    submitted_review(team, owner)  # one review waiting for the reviewer: the badge
    old = engines["django"].from_string(OLD)
    compared = 0
    for user in (reviewer, member):
        client = Client()
        client.force_login(user)
        for path in PAGES:
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            html = response.content.decode()
            if '<nav class="mainnav"' not in html:
                continue
            with translation.override(language):
                expected = old.render({}, response.wsgi_request)
            assert _nav(html) == expected, (user.username, path)
            compared += 1
    assert compared >= 16  # every page above, both viewers, drew its navigation
