"""The top bar's main navigation, drawn in Python: the same markup base.html drew with a `{% url %}`
and two `{% if %}` per link (tests/teams/test_main_nav.py keeps that template and compares), at a
fraction of its cost on every page."""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from apps.web.rows import text

register = template.Library()

_INDENT = "\n        "


def _url(name: str) -> str:
    """`{% url name as var %}`: empty when the name does not resolve."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


def _link(url: str, active: bool, label: str, badge: str = "") -> str:
    """`<a href="{{ url }}" class="…">{% translate label %}…</a>`: `label` already translated."""
    current = ' aria-current="page"' if active else ""
    css = "is-active" if active else ""
    text = conditional_escape(label)
    return f'<a href="{conditional_escape(url)}" class="{css}"{current}>{text}{badge}</a>'


@register.simple_tag(takes_context=True)
def main_nav(context) -> SafeString:
    """The links between `<nav class="mainnav">` and `</nav>`, with their whitespace."""
    request = context["request"]
    match = request.resolver_match
    namespace = getattr(match, "namespace", "") or ""
    url_name = getattr(match, "url_name", "") or ""
    urls = {
        name: _url(name)
        for name in (
            "profiles:list", "reviews:list", "reviews:approvals", "scoring:history",
            "catalog:index", "benchmarks:list", "teams:settings",
        )
    }  # fmt: skip
    badge = ""
    waiting = context.get("approvals_waiting")
    waiting = waiting() if callable(waiting) else waiting
    if waiting:
        title = conditional_escape(gettext("Waiting for your decision"))
        count = text(waiting)  # as {{ approvals_waiting }}: localized, escaped
        badge = f' <span class="badge badge--accent" title="{title}">{count}</span>'
    links = [
        (urls["profiles:list"], request.path[:10] == "/profiles/", gettext("Profiles"), ""),
        (
            urls["reviews:list"],
            namespace == "reviews" and url_name != "approvals",
            gettext("Reviews"),
            "",
        ),
        (urls["reviews:approvals"], url_name == "approvals", gettext("Approvals"), badge),
        (urls["benchmarks:list"], namespace == "benchmarks", gettext("Benchmarks"), ""),
        (urls["scoring:history"], namespace == "scoring", gettext("History"), ""),
        (urls["catalog:index"], namespace == "catalog", gettext("Catalog"), ""),
    ]
    drawn = [_link(*link) if link[0] else "" for link in links]
    drawn.append(_link(reverse("method:index"), namespace == "method", gettext("Method")))
    settings_url = urls["teams:settings"]
    in_settings = namespace == "accounts" and url_name != "login"
    drawn.append(_link(settings_url, in_settings, gettext("Settings")) if settings_url else "")
    # The template's three lines of `{% url … as … %}` drew nothing but their indentation.
    # Our own markup, every value escaped.
    return mark_safe(_INDENT * 4 + _INDENT.join(drawn) + "\n      ")  # noqa: S308
